/**
 * An id-starter application processed ahead of time by the build.
 */
@NullMarked
package io.idstarter.app;

import org.jspecify.annotations.NullMarked;
