package io.idstarter.store.kubernetes;

import io.idstarter.lease.LeaseStoreException;

/**
 * Thrown when the Kubernetes API server does not answer: no connection, or no answer within the call timeout.
 */
public class KubernetesApiUnreachableException extends LeaseStoreException {

	private static final long serialVersionUID = 1L;

	private final String apiServer;

	/**
	 * Creates an exception.
	 * @param apiServer the API server's URL
	 * @param message what failed and what to check
	 * @param cause the client's failure
	 */
	public KubernetesApiUnreachableException(String apiServer, String message, Throwable cause) {
		super(message, cause);
		this.apiServer = apiServer;
	}

	/**
	 * Returns the URL of the API server that did not answer.
	 * @return the URL
	 */
	public String getApiServer() {
		return this.apiServer;
	}

}
