package io.idstarter.segment;

import io.idstarter.IdGenerationException;

/**
 * Thrown when a key is not known to the segment store. Create the key in the store first: declare it
 * ({@code id-worker.segment.keys.<name>.first-id} and {@code step} with Spring Boot), call
 * {@link SegmentKeyAdmin#createKey}, or insert it by hand (for the JDBC store, a row in {@code leaf_alloc}).
 */
public class UnknownKeyException extends IdGenerationException {

	private static final long serialVersionUID = 1L;

	private final String key;

	public UnknownKeyException(String key) {
		this(key, "Unknown ID key '" + key + "': the segment store has no such key. Create it first: declare it "
				+ "with id-worker.segment.keys." + key + ".first-id and .step, call SegmentKeyAdmin.createKey, or add "
				+ "it to the store by hand (JDBC: a row in leaf_alloc with biz_tag, max_id, step)");
	}

	/**
	 * Creates the exception with a message of its own.
	 * @param key the business key
	 * @param message what is wrong and what to do
	 */
	public UnknownKeyException(String key, String message) {
		super(message);
		this.key = key;
	}

	public String getKey() {
		return this.key;
	}

}
