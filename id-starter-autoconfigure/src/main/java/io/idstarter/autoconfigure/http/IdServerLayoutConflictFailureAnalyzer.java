package io.idstarter.autoconfigure.http;

import io.idstarter.store.http.IdServerLayoutConflictException;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Explains a start refused because the ID servers record another layout for the client's lease namespace.
 */
class IdServerLayoutConflictFailureAnalyzer extends AbstractFailureAnalyzer<IdServerLayoutConflictException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, IdServerLayoutConflictException cause) {
		String action = "Give this application the layout recorded for namespace '" + cause.namespace()
				+ "' (id-worker.snowflake.preset, or its epoch and bit widths under id-worker.snowflake.*), or a lease "
				+ "namespace of its own (id-worker.lease.namespace) granted to its client under the ID servers' "
				+ "id-server.clients. IDs of two layouts in one namespace would collide.";
		return new FailureAnalysis(cause.getMessage(), action, cause);
	}

}
