package io.idstarter.lease;

import io.idstarter.IdGenerationException;

/**
 * Thrown when this node's clock is further from the lease store's than {@link LeaseSettings#maxClockSkew()}. The
 * message states the measured offset, the round-trip allowance and the bound; fix the node's clock synchronisation
 * (NTP) or raise the bound.
 */
public class ClockSkewException extends IdGenerationException {

	private static final long serialVersionUID = 1L;

	private final long offsetMillis;

	public ClockSkewException(String message, long offsetMillis) {
		super(message);
		this.offsetMillis = offsetMillis;
	}

	/**
	 * Returns the store's clock minus this node's.
	 * @return the measured offset in milliseconds
	 */
	public long offsetMillis() {
		return this.offsetMillis;
	}

}
