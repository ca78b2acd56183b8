package io.idstarter.store.jdbc;

import io.idstarter.segment.SegmentStoreException;
import org.jspecify.annotations.Nullable;

/**
 * Thrown by {@link JdbcSequenceSegmentStore} when a key's sequence cannot be used: the database refused a statement
 * on it (no privilege, connection lost), or the sequence does not count up by a step. Names the key, the sequence and,
 * where the store knows it, the statement that creates the sequence, so that start-up failure analysis can say what
 * to run.
 *
 * @since 0.1.0
 */
public class SegmentSequenceException extends SegmentStoreException {

	private static final long serialVersionUID = 1L;

	private final String key;

	private final String sequence;

	private final @Nullable String createStatement;

	/**
	 * Creates the exception.
	 * @param key the business key
	 * @param sequence the key's sequence, as the store names it in SQL
	 * @param createStatement the {@code CREATE SEQUENCE} statement for the key, or {@code null} if unknown
	 * @param message what failed
	 * @param cause the database's exception, or {@code null}
	 */
	public SegmentSequenceException(String key, String sequence, @Nullable String createStatement, String message,
			@Nullable Throwable cause) {
		super(message);
		if (cause != null) {
			initCause(cause);
		}
		this.key = key;
		this.sequence = sequence;
		this.createStatement = createStatement;
	}

	/**
	 * Returns the business key.
	 * @return the key
	 */
	public String getKey() {
		return this.key;
	}

	/**
	 * Returns the key's sequence.
	 * @return the sequence name, as used in SQL
	 */
	public String getSequence() {
		return this.sequence;
	}

	/**
	 * Returns the statement that creates the key's sequence.
	 * @return {@code CREATE SEQUENCE ...}, with placeholders for what the store did not know; or {@code null}
	 */
	public @Nullable String getCreateStatement() {
		return this.createStatement;
	}

}
