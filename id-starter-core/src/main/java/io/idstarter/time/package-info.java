/**
 * Injectable wall-clock and monotonic time.
 */
@NullMarked
package io.idstarter.time;

import org.jspecify.annotations.NullMarked;
