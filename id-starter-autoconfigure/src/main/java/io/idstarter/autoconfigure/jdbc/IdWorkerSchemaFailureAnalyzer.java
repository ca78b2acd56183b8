package io.idstarter.autoconfigure.jdbc;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Explains an {@link IdWorkerSchemaException}: what to check or run for each problem.
 */
class IdWorkerSchemaFailureAnalyzer extends AbstractFailureAnalyzer<IdWorkerSchemaException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, IdWorkerSchemaException cause) {
		String script = cause.getSchemaLocation();
		String action = switch (cause.getProblem()) {
			case UNREACHABLE -> "Check spring.datasource.url, spring.datasource.username and "
					+ "spring.datasource.password, and that the database accepts connections from this host.";
			case PERMISSION_DENIED -> "Create the tables once as a user who may (run " + script
					+ " with your table names, or let Flyway or Liquibase do it), then set "
					+ "id-worker.jdbc.initialize-schema=never so that the application's user needs no CREATE "
					+ "privilege. Or grant that user CREATE on the database.";
			case TABLE_MISSING -> "Set id-worker.jdbc.initialize-schema=always to create the table at start, or "
					+ "create it with " + script + " (with Flyway, Liquibase or spring.sql.init.schema-locations). "
					+ "If the table has another name, set id-worker.jdbc.segment-table or id-worker.jdbc.lease-table.";
			case SCRIPT_FAILED -> "Run " + script + " by hand to see the failing statement, or create the tables "
					+ "yourself and set id-worker.jdbc.initialize-schema=never.";
		};
		return new FailureAnalysis(cause.getMessage() + ".", action, cause);
	}

}
