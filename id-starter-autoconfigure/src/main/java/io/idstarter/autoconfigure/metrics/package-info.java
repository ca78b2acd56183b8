/**
 * Auto-configuration of the Micrometer metrics of the ID generators.
 */
@NullMarked
package io.idstarter.autoconfigure.metrics;

import org.jspecify.annotations.NullMarked;
