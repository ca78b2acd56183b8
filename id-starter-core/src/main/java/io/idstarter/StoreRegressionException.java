package io.idstarter;

/**
 * Thrown when a store answers with a mark below one this node already knows: a segment range below a range it has
 * served for the key, or a worker slot's timestamp mark below a ceiling it was granted. Such a store has lost writes
 * (a restart without persistence, a failover to a replica that missed them, a restore from an old backup, a deleted
 * row); serving from its answer could repeat IDs, so nothing is served. The message names the key or slot, both
 * values, and how to recover.
 */
public class StoreRegressionException extends IdGenerationException {

	private static final long serialVersionUID = 1L;

	private final String subject;

	private final long knownMark;

	private final long storeMark;

	/**
	 * Creates the exception.
	 * @param subject what regressed, e.g. {@code segment key 'order'} or {@code worker slot 3 of namespace 'orders'}
	 * @param knownMark the highest value this node knows the store had reached
	 * @param storeMark what the store answered now
	 * @param message the full message: both values and what to do
	 */
	public StoreRegressionException(String subject, long knownMark, long storeMark, String message) {
		super(message);
		this.subject = subject;
		this.knownMark = knownMark;
		this.storeMark = storeMark;
	}

	public String subject() {
		return this.subject;
	}

	public long knownMark() {
		return this.knownMark;
	}

	public long storeMark() {
		return this.storeMark;
	}

}
