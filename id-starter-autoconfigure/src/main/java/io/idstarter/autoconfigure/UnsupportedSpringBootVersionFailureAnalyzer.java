package io.idstarter.autoconfigure;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Explains an {@link UnsupportedSpringBootVersionException}: which Spring Boot versions id-starter supports and which
 * one to move to. Written against the analyzer API Spring Boot 3 and 4 share, so that it reports on both.
 */
class UnsupportedSpringBootVersionFailureAnalyzer
		extends AbstractFailureAnalyzer<UnsupportedSpringBootVersionException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, UnsupportedSpringBootVersionException cause) {
		SupportedSpringBootVersions supported = cause.getSupported();
		return new FailureAnalysis(cause.getMessage()
				+ ". On other versions parts of it would be missing without a word (on Spring Boot 3, the idWorker"
				+ " health contributor), so it does not start.",
				"Move the application to Spring Boot " + supported.describe() + ": set the version of"
						+ " spring-boot-starter-parent (or of the imported spring-boot-dependencies) to "
						+ supported.tested() + ", the version this id-starter release was built and tested with.",
				cause);
	}

}
