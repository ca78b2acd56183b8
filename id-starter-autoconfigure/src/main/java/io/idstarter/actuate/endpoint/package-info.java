/**
 * Actuator endpoint of the ID generators.
 */
@NullMarked
package io.idstarter.actuate.endpoint;

import org.jspecify.annotations.NullMarked;
