package io.idstarter.snowflake;

/**
 * What a {@link SnowflakeIdGenerator} may issue under: a worker ID, the range of timestamps it may stamp, and until
 * when. Issued by the lease keeper from a worker lease, or {@linkplain #fixed(int) fixed} for a single node and tests.
 *
 * @param workerId the worker ID, in {@code [0, maxWorkerId]} of the generator's layout
 * @param timestampFloor the greatest timestamp (milliseconds since the Unix epoch) a previous holder of the worker ID
 * may have issued; IDs are issued strictly above it; {@value #NO_FLOOR} for none
 * @param timestampCeiling the greatest timestamp (milliseconds since the Unix epoch) that may be issued under this
 * grant; {@link #NO_CEILING} for none
 * @param validUntilNanos the {@link io.idstarter.time.TimeSource#nanoTime()} at which the grant runs out;
 * {@link #NEVER_EXPIRES} for never
 */
public record WorkerGrant(int workerId, long timestampFloor, long timestampCeiling, long validUntilNanos) {

	/** Floor of a worker ID never used before. */
	public static final long NO_FLOOR = -1;

	/** Ceiling of a grant that may stamp any timestamp. */
	public static final long NO_CEILING = Long.MAX_VALUE;

	/** {@link #validUntilNanos()} of a grant that never runs out. */
	public static final long NEVER_EXPIRES = Long.MAX_VALUE;

	public WorkerGrant {
		if (workerId < 0) {
			throw new IllegalArgumentException("workerId must not be negative: " + workerId);
		}
		if (timestampFloor < NO_FLOOR) {
			throw new IllegalArgumentException("timestampFloor must be -1 (none) or a timestamp: " + timestampFloor);
		}
	}

	/**
	 * Returns a grant with no floor, no ceiling and no expiry: for a single node that owns its worker ID by
	 * configuration, and for tests. Two running generators with the same fixed worker ID issue duplicates.
	 * @param workerId the worker ID
	 * @return the grant
	 */
	public static WorkerGrant fixed(int workerId) {
		return new WorkerGrant(workerId, NO_FLOOR, NO_CEILING, NEVER_EXPIRES);
	}

	/**
	 * Returns whether the grant runs out at {@link #validUntilNanos()}.
	 * @return {@code false} for {@link #NEVER_EXPIRES}
	 */
	public boolean expires() {
		return this.validUntilNanos != NEVER_EXPIRES;
	}

}
