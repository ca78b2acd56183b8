/**
 * The monitor page ({@code /monitor}) and the JSON it polls ({@code /api/monitor}): segment buffers per key, issue
 * rates and the Snowflake worker lease.
 */
@NullMarked
package io.idstarter.sample.monitor;

import org.jspecify.annotations.NullMarked;
