package io.idstarter.autoconfigure;

import io.idstarter.IdGenerationException;
import io.idstarter.lease.LeaseStoreException;
import io.idstarter.segment.SegmentStoreException;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Explains a {@link LeaseStoreException} or {@link SegmentStoreException} at start-up: the store could not be reached,
 * or is not set up. The exception's message names the store, and the table or collection and its script.
 */
class IdWorkerStoreFailureAnalyzer extends AbstractFailureAnalyzer<IdGenerationException> {

	private static final String SETUP = "If a table is missing, set id-worker.jdbc.initialize-schema=always, or create "
			+ "it with the script for your database, classpath:io/idstarter/store/jdbc/schema-{mysql,postgresql,h2}.sql"
			+ " (with Flyway, Liquibase or spring.sql.init.schema-locations). Otherwise check that the store answers "
			+ "with the application's connection settings (spring.datasource.*, spring.data.redis.*, "
			+ "spring.mongodb.*, id-worker.zookeeper.* or id-worker.etcd.*).";

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, IdGenerationException cause) {
		if (cause instanceof LeaseStoreException) {
			return new FailureAnalysis("The worker-ID lease store failed while the Snowflake generator started: "
					+ cause.getMessage(), SETUP, cause);
		}
		if (cause instanceof SegmentStoreException) {
			return new FailureAnalysis("The segment store failed while the segment generator read its keys: "
					+ cause.getMessage(), SETUP, cause);
		}
		return null;
	}

}
