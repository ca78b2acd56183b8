package io.idstarter.snowflake;

import io.idstarter.IdGenerationException;

/**
 * Thrown when the wall clock is behind the timestamp of the last ID by more than the
 * {@link ClockBackwardsPolicy#maxWait() wait bound} of a failing {@link ClockBackwardsPolicy}. The message states the
 * offset and the bound; IDs are issued again once the clock has caught up.
 */
public class ClockMovedBackwardsException extends IdGenerationException {

	private static final long serialVersionUID = 1L;

	private final long offsetMillis;

	public ClockMovedBackwardsException(String message, long offsetMillis) {
		super(message);
		this.offsetMillis = offsetMillis;
	}

	/**
	 * Returns how far the clock was behind.
	 * @return the offset in milliseconds
	 */
	public long offsetMillis() {
		return this.offsetMillis;
	}

}
