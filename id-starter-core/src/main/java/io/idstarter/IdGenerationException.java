package io.idstarter;

/**
 * Thrown when an ID cannot be issued without risking a duplicate. The message names the key or worker ID involved,
 * the cause, and what to do about it. Nothing was issued when this is thrown.
 */
public class IdGenerationException extends RuntimeException {

	private static final long serialVersionUID = 1L;

	public IdGenerationException(String message) {
		super(message);
	}

	public IdGenerationException(String message, Throwable cause) {
		super(message, cause);
	}

}
