/**
 * Auto-configuration of the ID generators' health indicator.
 */
@NullMarked
package io.idstarter.autoconfigure.health;

import org.jspecify.annotations.NullMarked;
