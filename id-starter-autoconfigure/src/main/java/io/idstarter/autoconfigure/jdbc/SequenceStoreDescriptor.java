package io.idstarter.autoconfigure.jdbc;

import org.jspecify.annotations.Nullable;

/**
 * The database's own sequences (PostgreSQL, MariaDB 10.3+, H2) as a segment store, through the application's
 * {@code DataSource}: one sequence per key, its {@code INCREMENT BY} the key's step.
 *
 * @since 0.1.0
 */
public final class SequenceStoreDescriptor extends DataSourceStoreDescriptor {

	@Override
	public String name() {
		return "sequence";
	}

	@Override
	public String description() {
		return "the database's sequences";
	}

	@Override
	public String failureAction() {
		return "Check that the database answers with the application's spring.datasource.* settings. If a key's "
				+ "sequence is missing, declare the key (id-worker.segment.keys.<key>.first-id and .step) or create the "
				+ "sequence the message names; map keys to existing sequences with id-worker.sequence.sequences.<key>.";
	}

	@Override
	public @Nullable String leaseConfiguration() {
		return null;
	}

	@Override
	public @Nullable String segmentConfiguration() {
		return "io.idstarter.autoconfigure.jdbc.SequenceSegmentStoreConfiguration";
	}

}
