package io.idstarter.segment;

/**
 * Thrown when a key's next range would pass {@link Long#MAX_VALUE}: its numbers are used up, and nothing was
 * allocated. Unlike other {@link SegmentStoreException}s, retrying or another store server cannot help; the key must
 * be replaced by a new one.
 */
public class SegmentKeyExhaustedException extends SegmentStoreException {

	private static final long serialVersionUID = 1L;

	private final String key;

	public SegmentKeyExhaustedException(String key, String message) {
		super(message);
		this.key = key;
	}

	/**
	 * Returns the key that is used up.
	 * @return the key
	 */
	public String getKey() {
		return this.key;
	}

}
