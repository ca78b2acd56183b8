package io.idstarter.autoconfigure.jdbc;

import java.util.List;

import io.idstarter.store.jdbc.SegmentSequenceException;
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

	/**
	 * Returns the store's classes in the core package it shares with the table store.
	 * @return the class names
	 */
	@Override
	public List<String> coreClasses() {
		return List.of("io.idstarter.store.jdbc.JdbcSequenceSegmentStore",
				"io.idstarter.store.jdbc.SegmentSequenceException");
	}

	@Override
	public String failureAction() {
		return "Check that the database answers with the application's spring.datasource.* settings. If a key's "
				+ "sequence is missing, declare the key (id-worker.segment.keys.<key>.first-id and .step) or create the "
				+ "sequence the message names (CREATE SEQUENCE <id-worker.sequence.prefix><key> INCREMENT BY <step> "
				+ "MINVALUE <first ID> START WITH <first ID + step - 1>); map keys to existing sequences with "
				+ "id-worker.sequence.sequences.<key>. Each sequence must count up by the key's step (INCREMENT BY), "
				+ "and the application's database user needs the right to create the sequences of declared keys and "
				+ "to take their next values.";
	}

	@Override
	public String failureAction(Throwable failure) {
		for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
			if (cause instanceof SegmentSequenceException sequence) {
				return sequenceAction(sequence);
			}
		}
		return failureAction();
	}

	private static String sequenceAction(SegmentSequenceException failure) {
		String sequence = failure.getSequence();
		String create = failure.getCreateStatement();
		if (create == null) {
			create = "CREATE SEQUENCE " + sequence + " INCREMENT BY <step> MINVALUE <first ID> START WITH "
					+ "<first ID + step - 1>";
		}
		return "Sequence '" + sequence + "' of key '" + failure.getKey() + "' cannot be used. If it is missing, "
				+ "create it (" + create + ") or let the application do so by declaring the key with "
				+ "id-worker.segment.keys." + failure.getKey() + ".first-id and .step; to use another existing "
				+ "sequence, set id-worker.sequence.sequences." + failure.getKey() + ". It must count up by the key's "
				+ "step (ALTER SEQUENCE " + sequence + " INCREMENT BY <step>, with every node stopped on MariaDB and "
				+ "H2). If the database refused the statement, grant the application's database user the right to "
				+ "create the sequence and to take its next values (PostgreSQL: GRANT USAGE, SELECT ON SEQUENCE "
				+ sequence + "; MariaDB: the CREATE, SELECT and INSERT privileges on it). Check that the database "
				+ "answers with the application's spring.datasource.* settings.";
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
