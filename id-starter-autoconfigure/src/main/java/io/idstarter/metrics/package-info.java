/**
 * Micrometer metrics of the ID generators: store calls, prefetch waits, clock events and IDs issued.
 */
@NullMarked
package io.idstarter.metrics;

import org.jspecify.annotations.NullMarked;
