package io.idstarter.store.mongo;

import java.util.Objects;

import com.mongodb.MongoException;
import com.mongodb.ReadPreference;
import com.mongodb.client.model.FindOneAndUpdateOptions;
import com.mongodb.client.model.ReturnDocument;
import io.idstarter.sequence.CyclicSequence;
import io.idstarter.sequence.SequenceDefinition;
import io.idstarter.sequence.SequenceStoreException;
import org.bson.Document;
import org.jspecify.annotations.Nullable;
import org.springframework.dao.DataAccessException;
import org.springframework.data.mongodb.core.CollectionCallback;
import org.springframework.data.mongodb.core.MongoOperations;

/**
 * A {@link CyclicSequence} on MongoDB (seed 001): values 0 to {@code max - 1} and round again, shared by every
 * process, with no lock: each value is one atomic {@code $inc}.
 *
 * <p>The document, in a collection shared by all cyclic sequences (default {@value #DEFAULT_COLLECTION}), is created
 * on first use:
 * <pre>
 * { _id: "serial_no", max: NumberLong(100), counter: NumberLong(123456) }
 * </pre>
 * {@code counter} counts every value ever drawn and never wraps; a value is {@code counter % max} of the counter
 * before the increment. So {@code max} consecutive draws, by any number of processes, return each of 0 to
 * {@code max - 1} exactly once. Every process must use the same {@code max} for a name; a different one is rejected.
 */
public final class MongoCyclicSequence implements CyclicSequence {

	/*
	 * Why a modulo of a counter that never wraps, rather than a value that wraps in the store: wrapping in the store
	 * needs either two writes (increment, then reset at max), so callers race between them and must retry in a CAS loop
	 * as seed 001's script does, or an update pipeline with $cond, which mongo-java-server (the in-JVM test server)
	 * does not support. One $inc is exact, never retries, and is contended only inside the server. The counter would
	 * pass Long.MAX_VALUE after 2^63 draws (about 290,000 years at a million per second); the filter refuses that.
	 */

	/** Collection used unless another is given. */
	public static final String DEFAULT_COLLECTION = "id_cyclic_sequences";

	/** Draws retried when the document changes between a failed update and the read that explains it. */
	private static final int MAX_ATTEMPTS = 5;

	private static final String MAX = "max";

	private static final String COUNTER = "counter";

	private final MongoOperations mongo;

	private final String collection;

	private final String name;

	private final long max;

	/**
	 * Creates a cyclic sequence in the {@value #DEFAULT_COLLECTION} collection.
	 * @param mongo the database access
	 * @param name the sequence name: 1 to 128 characters from {@code A-Z a-z 0-9 _ . : -}
	 * @param max the length of the cycle, at least 1: values are below it
	 */
	public MongoCyclicSequence(MongoOperations mongo, String name, long max) {
		this(mongo, DEFAULT_COLLECTION, name, max);
	}

	/**
	 * Creates a cyclic sequence.
	 * @param mongo the database access
	 * @param collection the collection holding one document per cyclic sequence
	 * @param name the sequence name: 1 to 128 characters from {@code A-Z a-z 0-9 _ . : -}
	 * @param max the length of the cycle, at least 1: values are below it
	 */
	public MongoCyclicSequence(MongoOperations mongo, String collection, String name, long max) {
		this.mongo = Objects.requireNonNull(mongo, "mongo");
		this.collection = StoreSupport.requireCollection(collection);
		this.name = Objects.requireNonNull(name, "name");
		SequenceDefinition.requireValidName(name);
		if (max < 1) {
			throw new IllegalArgumentException("max of cyclic sequence '" + name + "' must be at least 1: " + max);
		}
		this.max = max;
	}

	@Override
	public long next() {
		Document filter = new Document("_id", this.name).append(MAX, this.max)
			.append(COUNTER, new Document("$type", StoreSupport.INTEGER_TYPES).append("$gte", 0L)
				.append("$lt", Long.MAX_VALUE));
		Document update = new Document("$inc", new Document(COUNTER, 1L));
		// The document before the update: its counter is the value drawn. (Reading the AFTER document without a
		// projection would also hit a mongo-java-server bug that returns another caller's value under concurrency.)
		FindOneAndUpdateOptions options = new FindOneAndUpdateOptions().returnDocument(ReturnDocument.BEFORE)
			.projection(new Document(COUNTER, 1));
		for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
			Document before = execute("draw from cyclic sequence '" + this.name + "'",
					(collection) -> collection.findOneAndUpdate(filter, update, options));
			if (before != null) {
				return Objects.requireNonNull(StoreSupport.integer(before, COUNTER)) % this.max;
			}
			// The filter did not match: no document yet (create it), or it does not fit, or another process created
			// it between the update and this read (draw again).
			Document current = execute("read cyclic sequence '" + this.name + "'",
					(collection) -> collection.withReadPreference(ReadPreference.primary())
						.find(new Document("_id", this.name))
						.first());
			if (current == null) {
				create();
			}
			else {
				SequenceStoreException mismatch = mismatch(current);
				if (mismatch != null) {
					throw mismatch;
				}
			}
		}
		throw new SequenceStoreException("Cyclic sequence '" + this.name + "' in MongoDB collection '"
				+ this.collection + "' changed " + MAX_ATTEMPTS + " times while drawing from it; retry");
	}

	@Override
	public long max() {
		return this.max;
	}

	/**
	 * Returns the sequence's name.
	 * @return the name, the {@code _id} of its document
	 */
	public String getName() {
		return this.name;
	}

	/**
	 * Returns the collection's name.
	 * @return the collection holding one document per cyclic sequence
	 */
	public String getCollection() {
		return this.collection;
	}

	private void create() {
		Document document = new Document("_id", this.name).append(MAX, this.max).append(COUNTER, 0L);
		// Not inserted means another process created it first: fine, draw from it.
		execute("create cyclic sequence '" + this.name + "'",
				(collection) -> StoreSupport.insertIfAbsent(collection, document));
	}

	/**
	 * Explains why a document does not match the draw's filter.
	 * @return the reason, or {@code null} if it matches (it was created or repaired since)
	 */
	private @Nullable SequenceStoreException mismatch(Document document) {
		String where = "Cyclic sequence '" + this.name + "' in MongoDB collection '" + this.collection + "'";
		Long storedMax = StoreSupport.integer(document, MAX);
		if (storedMax != null && storedMax != this.max) {
			return new SequenceStoreException(where + " has max " + storedMax + " in the store, but this process uses "
					+ this.max + "; every process must use the same max (values would repeat within a cycle "
					+ "otherwise), or use a new name");
		}
		Long counter = StoreSupport.integer(document, COUNTER);
		if (storedMax == null || counter == null || counter < 0) {
			String field = (storedMax == null) ? MAX : COUNTER;
			return new SequenceStoreException(where + " is corrupt: " + field + " is "
					+ StoreSupport.describe(document, field)
					+ ", expected an integer of at least 0 (NumberLong in mongosh); repair the document (it was left "
					+ "unchanged)");
		}
		if (counter == Long.MAX_VALUE) {
			return new SequenceStoreException(where + " is exhausted: its counter reached Long.MAX_VALUE; reset "
					+ "counter to 0");
		}
		return null;
	}

	private <T extends @Nullable Object> T execute(String action, CollectionCallback<T> callback) {
		try {
			return this.mongo.execute(this.collection, callback);
		}
		catch (DataAccessException | MongoException ex) {
			throw new SequenceStoreException("MongoDB cyclic sequence store (collection '" + this.collection
					+ "') could not " + action + ": " + ex.getMessage()
					+ "; check that MongoDB is up and reachable with the configured connection", ex);
		}
	}

}
