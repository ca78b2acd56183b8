package io.idstarter.autoconfigure;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Explains a {@link CoordinationServiceUnreachableException}: which ensemble was looked for, and what to check.
 */
class CoordinationServiceUnreachableFailureAnalyzer
		extends AbstractFailureAnalyzer<CoordinationServiceUnreachableException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, CoordinationServiceUnreachableException cause) {
		return new FailureAnalysis("The Snowflake generator leases its worker ID from " + cause.getService()
				+ ", but " + cause.getMessage() + ".",
				"Check that a majority of the " + cause.getService() + " members at " + cause.getAddress()
						+ " are up and reachable from this host (firewall, DNS, TLS and credentials), and that "
						+ cause.getProperty() + " names them. A client bean the application defines is used as it "
						+ "is: check its settings instead.",
				cause);
	}

}
