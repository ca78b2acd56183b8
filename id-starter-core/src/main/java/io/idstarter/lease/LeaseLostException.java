package io.idstarter.lease;

import io.idstarter.IdGenerationException;

/**
 * Thrown when a worker lease can no longer be renewed because the slot is held under another owner token (the lease expired and another node took it). The holder must stop issuing IDs at once.
 */
public class LeaseLostException extends IdGenerationException {

	private static final long serialVersionUID = 1L;

	public LeaseLostException(String message) {
		super(message);
	}

	public LeaseLostException(String message, Throwable cause) {
		super(message, cause);
	}

}
