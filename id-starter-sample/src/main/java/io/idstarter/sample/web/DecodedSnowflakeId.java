package io.idstarter.sample.web;

import java.time.Instant;

import io.idstarter.snowflake.SnowflakeId;
import io.idstarter.snowflake.SnowflakeLayout;

/**
 * A Snowflake ID split into its fields, as {@code GET /api/snowflake/decode/{id}} answers it.
 *
 * @param id the ID in decimal (a string, so that JavaScript clients read it exactly)
 * @param timestamp when it was issued, to the millisecond (ISO-8601, UTC)
 * @param unixMillis the same time in milliseconds since 1970-01-01T00:00:00Z
 * @param workerId the worker that issued it
 * @param sequence its place within the worker's millisecond
 * @param layout the layout it was decoded with
 */
public record DecodedSnowflakeId(String id, Instant timestamp, long unixMillis, int workerId, long sequence,
		Layout layout) {

	static DecodedSnowflakeId of(SnowflakeId id, SnowflakeLayout layout) {
		return new DecodedSnowflakeId(Long.toString(id.id()), id.timestamp(), id.timestamp().toEpochMilli(),
				id.workerId(), id.sequence(), new Layout(layout.epoch(), layout.timestampBits(), layout.workerIdBits(),
						layout.sequenceBits()));
	}

	/**
	 * The bit layout of an ID.
	 *
	 * @param epoch the instant timestamp 0 stands for
	 * @param timestampBits bits of milliseconds since the epoch
	 * @param workerIdBits bits of worker ID
	 * @param sequenceBits bits of sequence
	 */
	public record Layout(Instant epoch, int timestampBits, int workerIdBits, int sequenceBits) {
	}

}
