package io.idstarter.store.mongo;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Date;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

import com.mongodb.MongoException;
import com.mongodb.ReadPreference;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.FindOneAndUpdateOptions;
import com.mongodb.client.model.Projections;
import com.mongodb.client.model.ReturnDocument;
import com.mongodb.client.model.UpdateOptions;
import com.mongodb.client.result.UpdateResult;
import io.idstarter.segment.SegmentAllocation;
import io.idstarter.segment.SegmentKeyAdmin;
import io.idstarter.segment.SegmentKeys;
import io.idstarter.segment.SegmentStore;
import io.idstarter.segment.SegmentKeyExhaustedException;
import io.idstarter.segment.SegmentStoreException;
import io.idstarter.segment.UnknownKeyException;
import org.bson.Document;
import org.jspecify.annotations.Nullable;
import org.springframework.dao.DataAccessException;
import org.springframework.data.mongodb.core.DbCallback;
import org.springframework.data.mongodb.core.CollectionCallback;
import org.springframework.data.mongodb.core.MongoOperations;

/**
 * A {@link SegmentStore} on MongoDB: one document per key, and each allocation one atomic {@code findOneAndUpdate}
 * that adds the step to the key's {@code max_id} and returns the range below the new value.
 *
 * <p>A key's document has the fields of Leaf's {@code leaf_alloc} table, with the key as {@code _id}:
 * <pre>
 * { _id: "order", max_id: NumberLong(2000), step: 1000, description: "orders", update_time: ISODate(...) }
 * </pre>
 * {@code max_id} is the first number not yet allocated. Keys are created with {@link #createKey} (or inserted by hand
 * with {@code max_id} as a 32- or 64-bit integer); allocation never creates a key. One more document, whose
 * {@code _id} is not a string and so names no key, holds the marker of the key list ({@link #keysMarker()}):
 * <pre>
 * { _id: { marker: "keys" }, token: "1b4e28ba-2fa1-41d2-883f-0016d3cca427" }
 * </pre>
 *
 * <p>Keys, steps, first IDs and descriptions follow {@link SegmentKeys}. Writes use the write concern of the {@code MongoOperations} given; use {@code w: "majority"}
 * (MongoDB 5.0's default), because with {@code w: 1} a failover can roll back an acknowledged allocation and the same
 * range would be handed out again.
 */
public final class MongoSegmentStore implements SegmentStore, SegmentKeyAdmin {

	/** Collection used unless another is given. */
	public static final String DEFAULT_COLLECTION = "id_segments";

	/**
	 * Attempts of an allocation whose document changes between reading it and updating it (a new step). A race is
	 * lost only while the step is being changed; on a loaded machine a caller descheduled between its read and its
	 * update lost 5 of them in a row to a step changed every 5 ms, so the bound leaves room for that.
	 */
	private static final int MAX_ATTEMPTS = 32;

	private static final String MAX_ID = "max_id";

	private static final String STEP = "step";

	/** The {@code _id} of the document holding the key list's marker: not a string, so no key's. */
	private static final Document KEYS_MARKER_ID = new Document("marker", "keys");

	private final MongoOperations mongo;

	private final String collection;

	/**
	 * Configured step last seen per key; only a guess that saves a read: every allocation checks it in its filter and
	 * reads the document again when it no longer matches.
	 */
	private final ConcurrentMap<String, Integer> configuredSteps = new ConcurrentHashMap<>();

	/**
	 * Creates a store on the {@value #DEFAULT_COLLECTION} collection.
	 * @param mongo the database access
	 */
	public MongoSegmentStore(MongoOperations mongo) {
		this(mongo, DEFAULT_COLLECTION);
	}

	/**
	 * Creates a store.
	 * @param mongo the database access
	 * @param collection the collection holding one document per key
	 */
	public MongoSegmentStore(MongoOperations mongo, String collection) {
		this.mongo = Objects.requireNonNull(mongo, "mongo");
		this.collection = StoreSupport.requireCollection(collection);
	}

	@Override
	public SegmentAllocation allocate(String key) {
		SegmentKeys.checkKey(key);
		Integer known = this.configuredSteps.get(key);
		int step = (known != null) ? known : configuredStep(key, find(key));
		return allocate(key, step, true);
	}

	@Override
	public SegmentAllocation allocate(String key, int step) {
		SegmentKeys.checkKey(key);
		SegmentKeys.checkStep(key, step);
		return allocate(key, step, false);
	}

	private SegmentAllocation allocate(String key, int step, boolean configured) {
		int incrementBy = step;
		for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
			Document after = increment(key, incrementBy, configured);
			if (after != null) {
				SegmentAllocation allocation = allocation(key, incrementBy, after);
				this.configuredSteps.put(key, allocation.configuredStep());
				return allocation;
			}
			// The filter did not match: the key is gone, corrupt or exhausted, or (configured) its step changed.
			Document current = find(key);
			int configuredStep = configuredStep(key, current);
			if (configured) {
				incrementBy = configuredStep;
			}
			requireRoom(key, Objects.requireNonNull(current), incrementBy);
			this.configuredSteps.put(key, configuredStep);
		}
		throw new SegmentStoreException("Document of ID key '" + key + "' in MongoDB collection '" + this.collection
				+ "' changed " + MAX_ATTEMPTS + " times while allocating (its step was being updated); retry");
	}

	@Override
	public Set<String> keys() {
		List<Object> ids = execute("list keys",
				(collection) -> primary(collection).find().projection(new Document("_id", 1))
					.map((document) -> document.get("_id"))
					.into(new ArrayList<>()));
		Set<String> keys = new TreeSet<>();
		for (Object id : ids) {
			if (id instanceof String key) {
				keys.add(key);
			}
		}
		return Collections.unmodifiableSet(keys);
	}

	/**
	 * Looks the key's document up by its {@code _id}: one document at most, whatever the number of keys.
	 */
	@Override
	public boolean containsKey(String key) {
		return execute("look up key '" + key + "'", (collection) -> primary(collection).find(new Document("_id", key))
			.projection(Projections.include("_id"))
			.first()) != null;
	}

	/**
	 * Returns the token of the marker document, which {@link #createKey} replaces with a random one after every key it
	 * creates: one document read, whatever the number of keys. A random token rather than a count of documents, since
	 * a key removed (by hand, or lost in a failover) and another created would leave the count as it was. A key added
	 * or removed by hand leaves the token unless the hand edit replaces it too
	 * ({@code db.id_segments.updateOne({_id: {marker: "keys"}}, {$set: {token: UUID().toString()}}, {upsert: true})},
	 * see docs/mongo.md); without that, the added key is still found when first asked for ({@link #containsKey}) and
	 * the removed one dropped when a fetch finds it gone.
	 * @return the marker, {@code none} before the first key is created
	 */
	@Override
	public String keysMarker() {
		Document marker = execute("read the marker of the key list",
				(collection) -> primary(collection).find(new Document("_id", KEYS_MARKER_ID)).first());
		Object token = (marker != null) ? marker.get("token") : null;
		return (token != null) ? token.toString() : "none";
	}

	@Override
	public boolean createKey(String key, long firstId, int step, String description) {
		SegmentKeys.checkNewKey(key, firstId, step, description);
		Document document = new Document("_id", key).append(MAX_ID, firstId)
			.append(STEP, step)
			.append("description", description)
			.append("update_time", new Date());
		boolean created = execute("create key '" + key + "'",
				(collection) -> StoreSupport.insertIfAbsent(collection, document));
		if (created) {
			// After the key, never before: a marker read between the two sees the old token, and the next the new.
			String token = UUID.randomUUID().toString();
			execute("replace the marker of the key list after creating key '" + key + "'",
					(collection) -> collection.updateOne(new Document("_id", KEYS_MARKER_ID),
							new Document("$set", new Document("token", token)), new UpdateOptions().upsert(true)));
		}
		return created;
	}

	@Override
	public void updateStep(String key, int step) {
		SegmentKeys.checkKey(key);
		SegmentKeys.checkStep(key, step);
		UpdateResult result = execute("update the step of key '" + key + "'",
				(collection) -> collection.updateOne(new Document("_id", key), new Document("$set",
						new Document(STEP, step)).append("$currentDate", new Document("update_time", true))));
		if (result.getMatchedCount() == 0) {
			this.configuredSteps.remove(key);
			throw new UnknownKeyException(key);
		}
		this.configuredSteps.put(key, step);
	}

	@Override
	public String identity() {
		return "MongoDB segment store, database " + this.mongo.execute((DbCallback<String>) (database) -> database.getName()) + ", collection " + this.collection;
	}

	@Override
	public boolean giveBack(String key, long cursor, long end) {
		SegmentKeys.checkGiveBack(key, cursor, end);
		UpdateResult result = execute("give back [" + cursor + ", " + end + ") of key '" + key + "'",
				(collection) -> collection.updateOne(new Document("_id", key).append(MAX_ID, end),
						new Document("$set", new Document(MAX_ID, cursor)).append("$currentDate",
								new Document("update_time", true))));
		return result.getModifiedCount() == 1;
	}

	@Override
	public boolean raiseMaxId(String key, long floor) {
		SegmentKeys.checkKey(key);
		UpdateResult result = execute("raise the max_id of key '" + key + "' to " + floor,
				(collection) -> collection.updateOne(
						new Document("_id", key).append(MAX_ID, new Document("$lt", floor)),
						new Document("$set", new Document(MAX_ID, floor)).append("$currentDate",
								new Document("update_time", true))));
		if (result.getModifiedCount() == 1) {
			return true;
		}
		long present = execute("read key '" + key + "'",
				(collection) -> collection.countDocuments(new Document("_id", key)));
		if (present == 0) {
			throw new UnknownKeyException(key);
		}
		return false;
	}

	/**
	 * Returns the collection's name.
	 * @return the collection holding one document per key
	 */
	public String getCollection() {
		return this.collection;
	}

	/**
	 * Adds a step to {@code max_id} in one atomic update, if the document is sound and has room for it.
	 * @param key the key
	 * @param step the step to add
	 * @param configured whether the step must also equal the key's configured step
	 * @return the document after the update ({@code max_id} and {@code step} only), or {@code null} if the filter did
	 * not match
	 */
	private @Nullable Document increment(String key, int step, boolean configured) {
		// max_id + step must stay a positive long: the bound is in the filter, so an exhausted key is left unchanged.
		Document filter = new Document("_id", key)
			.append(MAX_ID, new Document("$type", StoreSupport.INTEGER_TYPES).append("$gte", 0L)
				.append("$lte", Long.MAX_VALUE - step))
			.append(STEP, configured ? step : new Document("$type", StoreSupport.INTEGER_TYPES).append("$gte", 1)
				.append("$lte", Integer.MAX_VALUE));
		Document update = new Document("$inc", new Document(MAX_ID, (long) step)).append("$currentDate",
				new Document("update_time", true));
		// An explicit projection on purpose: mongo-java-server (the in-JVM test server) reads an AFTER document
		// without a projection after releasing its lock and can return another caller's value under concurrency.
		FindOneAndUpdateOptions options = new FindOneAndUpdateOptions().returnDocument(ReturnDocument.AFTER)
			.projection(new Document(MAX_ID, 1).append(STEP, 1));
		return execute("allocate a range of key '" + key + "'",
				(collection) -> collection.findOneAndUpdate(filter, update, options));
	}

	private SegmentAllocation allocation(String key, int step, Document after) {
		long end = Objects.requireNonNull(StoreSupport.integer(after, MAX_ID));
		long configuredStep = Objects.requireNonNull(StoreSupport.integer(after, STEP));
		return new SegmentAllocation(key, end - step, end, (int) configuredStep);
	}

	@Override
	public @Nullable String description(String key) {
		SegmentKeys.checkKey(key);
		Document document = find(key);
		if (document == null) {
			return null;
		}
		Object description = document.get("description");
		return (description != null) ? description.toString() : "";
	}

	private @Nullable Document find(String key) {
		return execute("read key '" + key + "'",
				(collection) -> primary(collection).find(new Document("_id", key)).first());
	}

	/**
	 * Checks a key's document and returns its configured step.
	 * @param key the key
	 * @param document the key's document, {@code null} if none
	 * @return the configured step
	 * @throws UnknownKeyException if there is no document
	 * @throws SegmentStoreException if {@code max_id} or {@code step} is not a valid integer
	 */
	private int configuredStep(String key, @Nullable Document document) {
		if (document == null) {
			this.configuredSteps.remove(key);
			throw new UnknownKeyException(key);
		}
		Long maxId = StoreSupport.integer(document, MAX_ID);
		if (maxId == null || maxId < 0) {
			throw corrupt(key, document, MAX_ID, "an integer of at least 0 (NumberLong in mongosh)");
		}
		Long step = StoreSupport.integer(document, STEP);
		if (step == null || step < 1 || step > Integer.MAX_VALUE) {
			throw corrupt(key, document, STEP, "an integer in [1, " + Integer.MAX_VALUE + "]");
		}
		return step.intValue();
	}

	private void requireRoom(String key, Document document, int step) {
		long maxId = Objects.requireNonNull(StoreSupport.integer(document, MAX_ID));
		if (maxId > Long.MAX_VALUE - step) {
			throw new SegmentKeyExhaustedException(key, "ID key '" + key + "' in MongoDB collection '" + this.collection
					+ "' is exhausted: max_id " + maxId + " plus step " + step + " would pass Long.MAX_VALUE ("
					+ Long.MAX_VALUE + "); move to a new key", Long.MAX_VALUE - maxId);
		}
	}

	private SegmentStoreException corrupt(String key, Document document, String field, String expected) {
		return new SegmentStoreException("Document of ID key '" + key + "' in MongoDB collection '"
				+ this.collection + "' is corrupt: " + field + " is " + StoreSupport.describe(document, field)
				+ ", expected " + expected + "; repair the document (it was left unchanged)");
	}

	private <T extends @Nullable Object> T execute(String action, CollectionCallback<T> callback) {
		try {
			return this.mongo.execute(this.collection, callback);
		}
		catch (DataAccessException | MongoException ex) {
			throw new SegmentStoreException("MongoDB segment store (collection '" + this.collection
					+ "') could not " + action + ": " + ex.getMessage()
					+ "; check that MongoDB is up and reachable with the configured connection", ex);
		}
	}

	private static MongoCollection<Document> primary(MongoCollection<Document> collection) {
		return collection.withReadPreference(ReadPreference.primary());
	}

}
