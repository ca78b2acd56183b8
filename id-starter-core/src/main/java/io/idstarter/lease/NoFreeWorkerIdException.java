package io.idstarter.lease;

import io.idstarter.IdGenerationException;

/**
 * Thrown when every worker ID of a namespace is held by a live lease. The message names the namespace and the number of slots; use more worker bits, a separate namespace, or fewer instances.
 */
public class NoFreeWorkerIdException extends IdGenerationException {

	private static final long serialVersionUID = 1L;

	public NoFreeWorkerIdException(String message) {
		super(message);
	}

	public NoFreeWorkerIdException(String message, Throwable cause) {
		super(message, cause);
	}

}
