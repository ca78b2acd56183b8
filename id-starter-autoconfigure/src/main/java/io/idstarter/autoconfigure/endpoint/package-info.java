/**
 * Auto-configuration of the ID generators' actuator endpoint.
 */
@NullMarked
package io.idstarter.autoconfigure.endpoint;

import org.jspecify.annotations.NullMarked;
