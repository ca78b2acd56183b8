package io.idstarter.store.mongo;

import java.util.Arrays;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;

import com.mongodb.MongoException;
import com.mongodb.ReadPreference;
import com.mongodb.client.model.FindOneAndUpdateOptions;
import com.mongodb.client.model.ReturnDocument;
import io.idstarter.sequence.SequenceDefinition;
import io.idstarter.sequence.SequenceExhaustedException;
import io.idstarter.sequence.SequenceService;
import io.idstarter.sequence.SequenceStoreException;
import io.idstarter.sequence.UnknownSequenceException;
import org.bson.Document;
import org.jspecify.annotations.Nullable;
import org.springframework.dao.DataAccessException;
import org.springframework.data.mapping.MappingException;
import org.springframework.data.mongodb.core.CollectionCallback;
import org.springframework.data.mongodb.core.MongoOperations;

/**
 * A {@link SequenceService} on MongoDB (seed 000): per-collection auto-increment keys for Spring Data entities, one
 * document per sequence, each draw one atomic {@code findOneAndUpdate}.
 *
 * <p>A sequence's document, in a collection shared by all sequences (default {@value #DEFAULT_COLLECTION}):
 * <pre>
 * { _id: "sys_user", start: NumberLong(0), end: NumberLong("9223372036854775807"), step: NumberLong(1),
 *   batchSize: 1, current: NumberLong(1000) }
 * </pre>
 * {@code current} is the next value the store will hand out; it starts at {@code start}. A sequence created with
 * start 0 and step 1 issues 0, 1, 2, ...: after 1000 values the next is 1000 (with step 10 it is 10000; with a batch
 * size of 10 in one JVM it is 1000 too). Documents may be inserted by hand; a missing {@code batchSize} means 1.
 * Changing {@code step}, {@code end} or {@code batchSize} in the store is noticed by every JVM at its next draw from
 * the store.
 *
 * <p>{@link #next(Class)} names a sequence after the entity's collection, as Spring Data resolves it: the
 * {@code collection} of {@code @Document}, else the derived default (the simple class name with a lower-case first
 * letter).
 */
public final class MongoSequenceService implements SequenceService {

	/*
	 * Concurrency.
	 *
	 * Store: a draw of n values is one findOneAndUpdate that adds n * step to current and returns the document as it
	 * was before, so the values [before, before + n * step) go to this caller and to no one else, in any process. Its
	 * filter holds the bound (current + n * step <= end + step, so no value above end is issued) and the step, end and
	 * batch size this JVM believes in; when it does not match, the document is read, and the draw is retried with the
	 * stored definition or with fewer values (the last batch before end), or fails as exhausted.
	 *
	 * JVM, batch size 1: no lock at all; every call is a draw of one value and the store serialises them.
	 *
	 * JVM, batch size above 1: each sequence has its own State. Callers claim an index in the current batch with one
	 * getAndIncrement (lock-free); a caller that finds the batch used up takes that sequence's ReentrantLock, checks
	 * again (another caller may have refilled it while it waited), and draws the next batch from the store. Callers of
	 * the same sequence wait for that one draw; other sequences are not affected. No synchronized anywhere, so virtual
	 * threads do not pin.
	 */

	/** Collection used unless another is given. */
	public static final String DEFAULT_COLLECTION = "id_sequences";

	/** Draws retried when the document changes between a failed update and the read that explains it. */
	private static final int MAX_ATTEMPTS = 5;

	private static final String START = "start";

	private static final String END = "end";

	private static final String STEP = "step";

	private static final String BATCH_SIZE = "batchSize";

	private static final String CURRENT = "current";

	private final MongoOperations mongo;

	private final String collection;

	/** Per-sequence state, created on the first call for a name and removed when the store has no such sequence. */
	private final ConcurrentMap<String, State> states = new ConcurrentHashMap<>();

	/** Collection name of each entity class, as Spring Data's mapping resolves it. */
	private final ClassValue<String> collectionNames = new ClassValue<>() {

		@Override
		protected String computeValue(Class<?> type) {
			try {
				return MongoSequenceService.this.mongo.getCollectionName(type);
			}
			catch (MappingException ex) {
				throw new IllegalArgumentException(
						"cannot resolve the collection name of " + type.getName() + ": " + ex.getMessage(), ex);
			}
		}

	};

	/**
	 * Creates a service on the {@value #DEFAULT_COLLECTION} collection.
	 * @param mongo the database access; also resolves entity collection names
	 */
	public MongoSequenceService(MongoOperations mongo) {
		this(mongo, DEFAULT_COLLECTION);
	}

	/**
	 * Creates a service.
	 * @param mongo the database access; also resolves entity collection names
	 * @param collection the collection holding one document per sequence
	 */
	public MongoSequenceService(MongoOperations mongo, String collection) {
		this.mongo = Objects.requireNonNull(mongo, "mongo");
		this.collection = StoreSupport.requireCollection(collection);
	}

	@Override
	public long next(String name) {
		State state = this.states.get(name);
		if (state == null) {
			state = state(name);
		}
		Batch batch = state.batch;
		if (batch != null) {
			long index = batch.next.getAndIncrement();
			if (index < batch.count) {
				return batch.first + index * batch.step;
			}
		}
		return nextFromStore(state);
	}

	/**
	 * Returns the next value of an entity's sequence: the sequence named after the entity's collection.
	 * @param entity a Spring Data MongoDB entity class
	 * @return the value
	 * @throws IllegalArgumentException if Spring Data cannot map the class to a collection, or the collection name is
	 * not a valid sequence name
	 * @throws UnknownSequenceException if the store has no such sequence
	 * @throws SequenceExhaustedException if the next value would pass the sequence's end
	 * @throws SequenceStoreException if the store cannot be reached or the sequence's document is corrupt
	 */
	public long next(Class<?> entity) {
		return next(sequenceName(entity));
	}

	/**
	 * Returns the sequence name of an entity class: its collection name.
	 * @param entity a Spring Data MongoDB entity class
	 * @return the {@code collection} of its {@code @Document}, else the default Spring Data derives
	 * @throws IllegalArgumentException if Spring Data cannot map the class to a collection
	 */
	public String sequenceName(Class<?> entity) {
		return this.collectionNames.get(Objects.requireNonNull(entity, "entity"));
	}

	@Override
	public boolean create(SequenceDefinition definition) {
		Objects.requireNonNull(definition, "definition");
		Document document = new Document("_id", definition.name()).append(START, definition.start())
			.append(END, definition.end())
			.append(STEP, definition.step())
			.append(BATCH_SIZE, definition.batchSize())
			.append(CURRENT, definition.start());
		return execute("create sequence '" + definition.name() + "'",
				(collection) -> StoreSupport.insertIfAbsent(collection, document));
	}

	/**
	 * Returns the collection's name.
	 * @return the collection holding one document per sequence
	 */
	public String getCollection() {
		return this.collection;
	}

	private State state(String name) {
		Objects.requireNonNull(name, "name");
		SequenceDefinition.requireValidName(name);
		return this.states.computeIfAbsent(name, State::new);
	}

	private long nextFromStore(State state) {
		SequenceDefinition definition = state.definition;
		if (definition == null) {
			definition = load(state);
		}
		if (definition.batchSize() == 1) {
			return draw(state, 1).first;
		}
		state.lock.lock();
		try {
			Batch batch = state.batch;
			if (batch != null) {
				long index = batch.next.getAndIncrement();
				if (index < batch.count) {
					return batch.first + index * batch.step;
				}
			}
			Batch fresh = draw(state, Integer.MAX_VALUE);
			fresh.next.set(1);
			state.batch = fresh;
			return fresh.first;
		}
		finally {
			state.lock.unlock();
		}
	}

	/**
	 * Takes up to {@code maxCount} values (and at most the batch size) from the store in one atomic update.
	 * @return the values, at least one
	 */
	private Batch draw(State state, int maxCount) {
		SequenceDefinition definition = (state.definition != null) ? state.definition : load(state);
		long valuesLeft = Long.MAX_VALUE;
		for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
			long count = Math.min(Math.min(maxCount, definition.batchSize()), valuesLeft);
			long span = count * definition.step();
			Document filter = new Document("_id", state.name).append(STEP, definition.step())
				.append(END, definition.end())
				.append(BATCH_SIZE, batchSizeFilter(definition.batchSize()))
				.append(CURRENT, new Document("$type", StoreSupport.INTEGER_TYPES).append("$gte", 0L)
					.append("$lte", currentLimit(definition) - span));
			Document update = new Document("$inc", new Document(CURRENT, span));
			// The document before the update: its current is the first value drawn. (Reading the AFTER document
			// without a projection would also hit a mongo-java-server bug that returns another caller's value.)
			FindOneAndUpdateOptions options = new FindOneAndUpdateOptions().returnDocument(ReturnDocument.BEFORE)
				.projection(new Document(CURRENT, 1));
			Document before = execute("draw from sequence '" + state.name + "'",
					(collection) -> collection.findOneAndUpdate(filter, update, options));
			if (before != null) {
				long first = Objects.requireNonNull(StoreSupport.integer(before, CURRENT));
				return new Batch(first, definition.step(), count);
			}
			// The filter did not match: the sequence is gone, corrupt, changed, or has fewer values left.
			Document document = find(state.name);
			SequenceDefinition stored = definition(state.name, document);
			long current = Objects.requireNonNull(StoreSupport.integer(Objects.requireNonNull(document), CURRENT));
			if (!sameRules(stored, definition)) {
				state.definition = stored;
				definition = stored;
				valuesLeft = Long.MAX_VALUE;
				continue;
			}
			long limit = currentLimit(definition);
			valuesLeft = (current > limit) ? 0 : (limit - current) / definition.step();
			if (valuesLeft == 0) {
				throw new SequenceExhaustedException(state.name, definition.end(), "Sequence '" + state.name
						+ "' in MongoDB collection '" + this.collection + "' is exhausted: its next value would pass"
						+ " its end " + definition.end() + " (current " + current + ", step " + definition.step()
						+ "); raise end in the sequence's document or move to a new sequence");
			}
		}
		throw new SequenceStoreException("Document of sequence '" + state.name + "' in MongoDB collection '"
				+ this.collection + "' changed " + MAX_ATTEMPTS + " times while drawing from it; retry");
	}

	private SequenceDefinition load(State state) {
		SequenceDefinition definition = definition(state.name, find(state.name));
		state.definition = definition;
		return definition;
	}

	private @Nullable Document find(String name) {
		return execute("read sequence '" + name + "'",
				(collection) -> collection.withReadPreference(ReadPreference.primary())
					.find(new Document("_id", name))
					.first());
	}

	/**
	 * Reads and checks the definition in a sequence's document.
	 * @throws UnknownSequenceException if there is no document
	 * @throws SequenceStoreException if the document is corrupt
	 */
	private SequenceDefinition definition(String name, @Nullable Document document) {
		if (document == null) {
			this.states.remove(name);
			throw new UnknownSequenceException(name, "MongoDB collection '" + this.collection + "'");
		}
		Long start = integerField(name, document, START);
		Long end = integerField(name, document, END);
		Long step = integerField(name, document, STEP);
		Long current = integerField(name, document, CURRENT);
		Long batchSize = document.containsKey(BATCH_SIZE) ? integerField(name, document, BATCH_SIZE) : 1L;
		if (current < 0) {
			throw corrupt(name, document, CURRENT, "at least 0");
		}
		if (batchSize > Integer.MAX_VALUE) {
			throw corrupt(name, document, BATCH_SIZE, "at most " + Integer.MAX_VALUE);
		}
		try {
			return new SequenceDefinition(name, start, end, step, batchSize.intValue());
		}
		catch (IllegalArgumentException ex) {
			throw new SequenceStoreException("Document of sequence '" + name + "' in MongoDB collection '"
					+ this.collection + "' is corrupt: " + ex.getMessage() + "; repair the document", ex);
		}
	}

	private Long integerField(String name, Document document, String field) {
		Long value = StoreSupport.integer(document, field);
		if (value == null) {
			throw corrupt(name, document, field, "an integer (NumberLong in mongosh)");
		}
		return value;
	}

	private SequenceStoreException corrupt(String name, Document document, String field, String expected) {
		return new SequenceStoreException("Document of sequence '" + name + "' in MongoDB collection '"
				+ this.collection + "' is corrupt: " + field + " is " + StoreSupport.describe(document, field)
				+ ", expected " + expected + "; repair the document (it was left unchanged)");
	}

	private <T extends @Nullable Object> T execute(String action, CollectionCallback<T> callback) {
		try {
			return this.mongo.execute(this.collection, callback);
		}
		catch (DataAccessException | MongoException ex) {
			throw new SequenceStoreException("MongoDB sequence store (collection '" + this.collection
					+ "') could not " + action + ": " + ex.getMessage()
					+ "; check that MongoDB is up and reachable with the configured connection", ex);
		}
	}

	/**
	 * Returns the greatest value {@code current} may take after a draw: one step past the end, or
	 * {@link Long#MAX_VALUE} when that would overflow.
	 */
	private static long currentLimit(SequenceDefinition definition) {
		return (definition.end() > Long.MAX_VALUE - definition.step()) ? Long.MAX_VALUE
				: definition.end() + definition.step();
	}

	private static Object batchSizeFilter(int batchSize) {
		// A document inserted by hand may have no batchSize, which means 1.
		return (batchSize == 1) ? new Document("$in", Arrays.asList(1, null)) : batchSize;
	}

	private static boolean sameRules(SequenceDefinition a, SequenceDefinition b) {
		return a.step() == b.step() && a.end() == b.end() && a.batchSize() == b.batchSize();
	}

	/**
	 * What this JVM knows about one sequence.
	 */
	private static final class State {

		final String name;

		/** Serialises batch draws of this sequence only. */
		final ReentrantLock lock = new ReentrantLock();

		/** Definition last read from the store, or {@code null} before the first read; replaced when it changes. */
		volatile @Nullable SequenceDefinition definition;

		/** Values drawn for this JVM and not all handed out yet; replaced only under {@link #lock}. */
		volatile @Nullable Batch batch;

		State(String name) {
			this.name = name;
		}

	}

	/**
	 * Values {@code first + i * step} for {@code i} in {@code [0, count)}, drawn from the store in one update.
	 */
	private static final class Batch {

		final long first;

		final long step;

		final long count;

		/** Index of the next value to hand out; only increases; indexes at or above count are never handed out. */
		final AtomicLong next = new AtomicLong();

		Batch(long first, long step, long count) {
			this.first = first;
			this.step = step;
			this.count = count;
		}

	}

}
