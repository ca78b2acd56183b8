package io.idstarter.snowflake;

import java.time.Instant;

/**
 * A Snowflake ID split into its fields by {@link SnowflakeLayout#parse(long)}.
 *
 * @param id the ID
 * @param timestamp when it was issued, to the millisecond
 * @param workerId the worker that issued it
 * @param sequence its place within the worker's millisecond
 */
public record SnowflakeId(long id, Instant timestamp, int workerId, long sequence) {
}
