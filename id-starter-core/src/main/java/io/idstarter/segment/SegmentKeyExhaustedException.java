package io.idstarter.segment;

/**
 * Thrown when a key's next range would pass {@link Long#MAX_VALUE}, and nothing was allocated. A smaller range may
 * still fit ({@link #remaining()}); once none is left, the key's numbers are used up: unlike other
 * {@link SegmentStoreException}s, retrying or another store server cannot help, and the key must be replaced by a new
 * one.
 */
public class SegmentKeyExhaustedException extends SegmentStoreException {

	private static final long serialVersionUID = 1L;

	private final String key;

	/** Numbers left below Long.MAX_VALUE; -1 if the store did not say. */
	private final long remaining;

	/**
	 * Creates the exception for a store that cannot say how much of the key is left.
	 * @param key the key
	 * @param message what was refused, and why
	 */
	public SegmentKeyExhaustedException(String key, String message) {
		this(key, message, -1);
	}

	/**
	 * Creates the exception.
	 * @param key the key
	 * @param message what was refused, and why
	 * @param remaining how many numbers are left below {@link Long#MAX_VALUE}; -1 if unknown
	 */
	public SegmentKeyExhaustedException(String key, String message, long remaining) {
		super(message);
		this.key = key;
		this.remaining = remaining;
	}

	/**
	 * Returns how many numbers of the key are left: a range of at most this many can still be allocated.
	 * @return the count, 0 once the key is used up, or -1 if the store did not say
	 */
	public long remaining() {
		return this.remaining;
	}

	/**
	 * Returns the key that is used up.
	 * @return the key
	 */
	public String getKey() {
		return this.key;
	}

}
