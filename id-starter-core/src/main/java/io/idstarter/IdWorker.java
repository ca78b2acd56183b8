package io.idstarter;

/**
 * Source of unique, positive 64-bit IDs; what applications autowire.
 *
 * <p>IDs are unique for as long as the guarantees of the implementation hold:
 * <ul>
 * <li>Snowflake: every running instance holds a different worker ID (leased from a shared store, never configured by
 * hand on more than one node) and no clock moves backwards by more than the configured tolerance without the
 * instance noticing. IDs from one instance increase; IDs across instances are ordered by time to the millisecond.
 * The {@code key} is ignored: all keys share one number space.</li>
 * <li>Segment: every key has its own number space, allocated in ranges from a shared store. IDs of one key increase
 * within an instance; across instances they are unique but interleave.</li>
 * </ul>
 *
 * <p>Methods never return a value that could repeat: when an ID cannot be issued safely (store unreachable and
 * buffers spent, worker lease lost, clock moved backwards beyond the tolerance) they throw an
 * {@link IdGenerationException} that says why.
 */
public interface IdWorker {

	/**
	 * Returns the next ID of the default key.
	 * @return a positive ID
	 * @throws IdGenerationException if no ID can be issued safely now
	 */
	long nextId();

	/**
	 * Returns the next ID for a business key.
	 * @param key the business key (its own number space in segment mode; ignored by Snowflake)
	 * @return a positive ID
	 * @throws IdGenerationException if no ID can be issued safely now, or the key is unknown
	 */
	long nextId(String key);

	/**
	 * Returns {@code count} IDs for a business key, in the order they were issued.
	 * @param key the business key
	 * @param count how many IDs, at least 1
	 * @return the IDs
	 * @throws IllegalArgumentException if {@code count} is less than 1
	 * @throws IdGenerationException if the IDs cannot be issued safely now
	 */
	default long[] nextIds(String key, int count) {
		if (count < 1) {
			throw new IllegalArgumentException("count must be at least 1: " + count);
		}
		long[] ids = new long[count];
		for (int i = 0; i < count; i++) {
			ids[i] = nextId(key);
		}
		return ids;
	}

	/**
	 * Returns the next ID of the default key in decimal.
	 * @return the ID as a string, for clients that cannot hold 64-bit integers (JavaScript)
	 */
	default String nextIdString() {
		return Long.toString(nextId());
	}

	/**
	 * Returns the next ID of a business key in decimal.
	 * @param key the business key
	 * @return the ID as a string
	 */
	default String nextIdString(String key) {
		return Long.toString(nextId(key));
	}

}
