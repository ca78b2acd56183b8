package io.idstarter.autoconfigure;

import io.idstarter.lease.ClockSkewException;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Explains a {@link ClockSkewException} at start-up: this instance's clock is too far from the lease store's.
 */
class ClockSkewFailureAnalyzer extends AbstractFailureAnalyzer<ClockSkewException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, ClockSkewException cause) {
		return new FailureAnalysis("The Snowflake generator did not start: " + cause.getMessage(),
				"Fix the clock synchronisation (NTP) of this host, or of the lease store's host. If the offset is "
						+ "expected, raise id-worker.lease.max-clock-skew (0 turns the check off; IDs of this instance "
						+ "are then out of time order with the other instances' by that much).",
				cause);
	}

}
