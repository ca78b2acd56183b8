package io.idstarter.lease;

import io.idstarter.IdGenerationException;

/**
 * Thrown when the lease store cannot be reached or is not set up (for example, its table is missing). The message names the store and what to do.
 */
public class LeaseStoreException extends IdGenerationException {

	private static final long serialVersionUID = 1L;

	public LeaseStoreException(String message) {
		super(message);
	}

	public LeaseStoreException(String message, Throwable cause) {
		super(message, cause);
	}

}
