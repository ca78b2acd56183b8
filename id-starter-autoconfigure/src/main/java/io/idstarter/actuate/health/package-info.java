/**
 * Health indicator of the ID generators.
 */
@NullMarked
package io.idstarter.actuate.health;

import org.jspecify.annotations.NullMarked;
