package io.idstarter.store.http;

import io.idstarter.IdGenerationException;

/**
 * An ID server refused the client's credentials (401 or 403): no retry or other server will help until the
 * configuration changes.
 */
public class IdServerAuthenticationException extends IdGenerationException {

	private static final long serialVersionUID = 1L;

	private final String server;

	private final int status;

	/**
	 * Creates the exception.
	 * @param server the server that refused
	 * @param status its HTTP status
	 * @param message what happened and what to do
	 */
	public IdServerAuthenticationException(String server, int status, String message) {
		super(message);
		this.server = server;
		this.status = status;
	}

	/**
	 * Returns the server that refused.
	 * @return its base URL
	 */
	public String server() {
		return this.server;
	}

	/**
	 * Returns the HTTP status of the refusal.
	 * @return 401 or 403
	 */
	public int status() {
		return this.status;
	}

}
