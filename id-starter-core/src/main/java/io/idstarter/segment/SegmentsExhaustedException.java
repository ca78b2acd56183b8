package io.idstarter.segment;

import io.idstarter.IdGenerationException;

import org.jspecify.annotations.Nullable;

/**
 * Thrown when both ranges a key holds in memory are used up and the next one did not arrive within the configured
 * wait. The message names the key, the ranges, the step, how long the fetch has been pending and the store's last
 * error (also the cause, when there is one). Nothing was issued; a later call succeeds once the store answers.
 */
public class SegmentsExhaustedException extends IdGenerationException {

	private static final long serialVersionUID = 1L;

	private final String key;

	public SegmentsExhaustedException(String key, String message, @Nullable Throwable cause) {
		super(message, cause);
		this.key = key;
	}

	public String getKey() {
		return this.key;
	}

}
