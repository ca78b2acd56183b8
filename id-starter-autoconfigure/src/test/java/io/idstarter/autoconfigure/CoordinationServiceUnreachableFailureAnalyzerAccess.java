package io.idstarter.autoconfigure;

import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Lets tests of the store packages run the package-private failure analyzer.
 */
public final class CoordinationServiceUnreachableFailureAnalyzerAccess {

	public FailureAnalysis analyze(Throwable failure) {
		return new CoordinationServiceUnreachableFailureAnalyzer().analyze(failure);
	}

}
