package io.idstarter.segment;

import io.idstarter.IdGenerationException;

/**
 * Thrown when a key is not known to the segment store. Create the key in the store first (for the JDBC store, a row
 * in {@code leaf_alloc}).
 */
public class UnknownKeyException extends IdGenerationException {

	private static final long serialVersionUID = 1L;

	private final String key;

	public UnknownKeyException(String key) {
		super("Unknown ID key '" + key + "': the segment store has no such key; create it in the store first");
		this.key = key;
	}

	public String getKey() {
		return this.key;
	}

}
