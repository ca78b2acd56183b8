package io.idstarter.crossprocess;

import io.idstarter.snowflake.SnowflakeLayout;

/**
 * The Snowflake layout of the drills: the default epoch and 41 timestamp bits, few worker-ID bits so that a handful
 * of processes fill the slot space, and the rest for the sequence.
 */
final class DrillLayout {

	/** Timestamp bits, as in the default layout. */
	static final int TIMESTAMP_BITS = 41;

	private DrillLayout() {
	}

	/**
	 * Returns the layout with the given worker-ID bits.
	 * @param workerIdBits 1 to 21
	 * @return the layout; {@code 2^workerIdBits} slots
	 */
	static SnowflakeLayout of(int workerIdBits) {
		return SnowflakeLayout.of(SnowflakeLayout.DEFAULT_EPOCH, TIMESTAMP_BITS, workerIdBits,
				SnowflakeLayout.TOTAL_BITS - TIMESTAMP_BITS - workerIdBits);
	}

	/**
	 * Returns a layout with few sequence numbers per millisecond, so that callers spend most of their time inside
	 * {@code nextId} waiting for the next millisecond; the timestamp field takes the remaining bits.
	 * @param workerIdBits 1 to 21
	 * @param sequenceBits 1 to 21
	 * @return the layout
	 */
	static SnowflakeLayout of(int workerIdBits, int sequenceBits) {
		return SnowflakeLayout.of(SnowflakeLayout.DEFAULT_EPOCH,
				SnowflakeLayout.TOTAL_BITS - workerIdBits - sequenceBits, workerIdBits, sequenceBits);
	}

}
