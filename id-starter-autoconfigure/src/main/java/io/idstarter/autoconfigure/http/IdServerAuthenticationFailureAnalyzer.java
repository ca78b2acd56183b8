package io.idstarter.autoconfigure.http;

import io.idstarter.store.http.IdServerAuthenticationException;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Explains a start refused because an ID server did not accept the client's credentials.
 */
class IdServerAuthenticationFailureAnalyzer extends AbstractFailureAnalyzer<IdServerAuthenticationException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, IdServerAuthenticationException cause) {
		String description = cause.getMessage();
		String action = "Set " + IdServerClientConfiguration.CREDENTIALS + " to the bearer token, or the name and "
				+ "password, of a client listed under id-server.clients in the ID servers' configuration (the same "
				+ "on every server).";
		return new FailureAnalysis(description, action, cause);
	}

}
