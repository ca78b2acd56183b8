package io.idstarter.snowflake;

import io.idstarter.IdGenerationException;

/**
 * Thrown when a {@link SnowflakeIdGenerator} holds no valid {@link WorkerGrant}; the message says which
 * {@link Reason} and what to do. IDs are issued again once a grant is held.
 */
public class WorkerIdUnavailableException extends IdGenerationException {

	private static final long serialVersionUID = 1L;

	private final Reason reason;

	public WorkerIdUnavailableException(Reason reason, String message) {
		super(message);
		this.reason = reason;
	}

	public WorkerIdUnavailableException(Reason reason, String message, Throwable cause) {
		super(message, cause);
		this.reason = reason;
	}

	public Reason reason() {
		return this.reason;
	}

	/**
	 * Why no worker ID is available.
	 */
	public enum Reason {

		/** No grant was ever given: the lease keeper has not started. */
		NOT_GRANTED,

		/** The grant was taken back: the lease was lost to another node, or the keeper closed. */
		REVOKED,

		/** The grant ran out because renewals failed for too long. */
		EXPIRED,

		/** The next timestamp would exceed the grant's ceiling: the clock ran ahead of the last renewal. */
		CEILING_REACHED

	}

}
