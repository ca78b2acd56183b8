/**
 * Locates the real servers the integration tests talk to.
 */
@NullMarked
package io.idstarter.testsupport;

import org.jspecify.annotations.NullMarked;
