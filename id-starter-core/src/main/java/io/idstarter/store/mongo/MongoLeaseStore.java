package io.idstarter.store.mongo;

import java.util.ArrayList;
import java.util.Date;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;

import com.mongodb.MongoException;
import com.mongodb.ReadPreference;
import com.mongodb.client.model.FindOneAndUpdateOptions;
import com.mongodb.client.model.Indexes;
import com.mongodb.client.model.ReturnDocument;
import com.mongodb.client.result.UpdateResult;
import io.idstarter.lease.ISequenceManager;
import io.idstarter.lease.LeaseLostException;
import io.idstarter.lease.LeaseRequest;
import io.idstarter.lease.LeaseStoreException;
import io.idstarter.lease.NoFreeWorkerIdException;
import io.idstarter.lease.SlotMark;
import io.idstarter.lease.SlotOrder;
import io.idstarter.lease.WorkerLease;
import io.idstarter.snowflake.RecordedLayout;
import org.bson.Document;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessException;
import org.springframework.data.mongodb.core.CollectionCallback;
import org.springframework.data.mongodb.core.MongoOperations;

/**
 * An {@link ISequenceManager} on MongoDB: one document per worker-ID slot, and every operation one atomic conditional
 * update of that document. Lease expiry is decided by the MongoDB server's clock.
 *
 * <p>A slot's document, in a collection shared by all namespaces (default {@value #DEFAULT_COLLECTION}):
 * <pre>
 * { _id: "orders:5", namespace: "orders", slot: 5,
 *   owner: "6f1c...", instance: "host-a/4711",          // owner is null when the slot is free
 *   expiresAt: ISODate(...), borrowedAt: ISODate(...), renewedAt: ISODate(...),
 *   maxTimestamp: NumberLong(1763709262000) }           // the slot's high-water mark, ms since the epoch
 * </pre>
 * Documents are never deleted and there must be no TTL index on the collection: the high-water mark has to outlive
 * every lease of the slot. Deleting a slot's document by hand forgets its mark, so the next owner could repeat the
 * timestamps of the last one.
 *
 * <p>A namespace's layout record ({@link #recordLayout}) is a document of the same collection with no {@code slot}
 * field, so no query for slots ever matches it:
 * <pre>
 * { _id: "orders:layout", namespace: "orders",
 *   layout: "epoch=2010-11-04T01:42:54.657Z;timestamp-bits=41;...",   // the stored form
 *   recordedAt: ISODate(...), changedAt: ISODate(...) }
 * </pre>
 * Recording it is an insert with that {@code _id} (a duplicate key means another node recorded first), replacing it
 * one update whose filter holds the expected layout.
 *
 * <p>Writes use the write concern of the {@code MongoOperations} given; use {@code w: "majority"} (MongoDB 5.0's
 * default): with {@code w: 1} a failover can roll back an acknowledged borrow and hand the slot to two nodes.
 */
public class MongoLeaseStore implements ISequenceManager {

	/*
	 * Protocol (every step is one single-document update, so concurrent nodes serialise on the slot's document):
	 *
	 * Time. Each operation first reads the server's clock (hello's localTime, see MongoServerClock) and then sends its
	 * update with that reading as "now". The reading is a little older than the update, which errs on the safe side
	 * both ways: a slot is taken over only if its lease ended before the reading, so it ended before the update too;
	 * and the stored end (reading + ttl) is later than the end the holder assumes, because the holder counts its ttl
	 * from before it sent the request, and the reading was taken after that. mongo-java-server cannot evaluate $$NOW
	 * in an update pipeline, so the reading is the one way to use the server's clock that works on both it and a real
	 * mongod.
	 *
	 * Borrow. A slot is free when its document is missing, its owner is null (released), or expiresAt <= now.
	 * Taking a free slot whose document exists is a findOneAndUpdate whose filter is that condition; it sets the new
	 * owner token and expiry and raises maxTimestamp with $max to the requested ceiling, and returns the document as it
	 * was before: its maxTimestamp is the new owner's floor. Taking a slot that has no document is an insert with the
	 * slot's _id; a duplicate key means another node created it first, and the borrower moves on. The slots are read
	 * once and tried in SlotOrder's order, a slot free since its expiresAt (which release sets to the time of release).
	 *
	 * Renew. A findOneAndUpdate on _id and owner token: extends expiresAt and raises maxTimestamp with $max. A lease
	 * that expired but whose slot nobody took since is renewed, because nobody else issued under the slot.
	 *
	 * Release. An update on _id and owner token: clears the owner, sets expiresAt to the server's time ($currentDate)
	 * and, if the caller reports its last timestamp, sets maxTimestamp to it: the only write that may lower the mark,
	 * and never below the lease's floor.
	 *
	 * Layout. The record's _id is "<namespace>:layout", which no slot's "<namespace>:<slot>" can be. Record: an insert;
	 * on a duplicate key, read the document (records are never deleted by this store; one deleted by hand in between
	 * is inserted again). Read (every renewal): a find on the _id. Replace: an update whose filter is the _id and the
	 * expected text. Marks: the slots' documents with the server's time read before them, so a lease that ends
	 * between the two reads still counts as held.
	 */

	/** Collection used unless another is given. */
	public static final String DEFAULT_COLLECTION = "id_worker_leases";

	private static final Logger logger = LoggerFactory.getLogger(MongoLeaseStore.class);

	private static final String NAMESPACE = "namespace";

	private static final String SLOT = "slot";

	private static final String OWNER = "owner";

	private static final String INSTANCE = "instance";

	private static final String EXPIRES_AT = "expiresAt";

	private static final String MAX_TIMESTAMP = "maxTimestamp";

	private static final String LAYOUT = "layout";

	private final MongoOperations mongo;

	private final String collection;

	private final MongoServerClock clock;

	/** Whether the index on (namespace, slot) was created by this instance; set once, from false to true. */
	private volatile boolean indexed;

	/**
	 * Creates a lease store on the {@value #DEFAULT_COLLECTION} collection.
	 * @param mongo the database access
	 */
	public MongoLeaseStore(MongoOperations mongo) {
		this(mongo, DEFAULT_COLLECTION);
	}

	/**
	 * Creates a lease store.
	 * @param mongo the database access
	 * @param collection the collection holding one document per slot
	 */
	public MongoLeaseStore(MongoOperations mongo, String collection) {
		this.mongo = Objects.requireNonNull(mongo, "mongo");
		this.collection = StoreSupport.requireCollection(collection);
		this.clock = new MongoServerClock(mongo);
	}

	@Override
	public WorkerLease borrow(LeaseRequest request) {
		Objects.requireNonNull(request, "request");
		long now = serverTime("borrow a worker ID of namespace '" + request.namespace() + "'");
		String token = UUID.randomUUID().toString();
		List<SlotOrder.UsedSlot<Document>> used = new ArrayList<>();
		for (Document document : usedSlots(request).values()) {
			long expiresAt = document.getDate(EXPIRES_AT).getTime();
			boolean free = document.getString(OWNER) == null || expiresAt <= now;
			used.add(new SlotOrder.UsedSlot<>(document.getInteger(SLOT), free, expiresAt, document));
		}
		for (SlotOrder.Candidate<Document> candidate : SlotOrder.candidates(request, used)) {
			WorkerLease lease = (candidate.used() != null) ? takeExisting(request, candidate.workerId(), now, token)
					: takeNew(request, candidate.workerId(), now, token);
			if (lease != null) {
				return lease;
			}
		}
		throw NoFreeWorkerIdException.allHeld(request, store());
	}

	@Override
	public WorkerLease renew(WorkerLease lease, long timestampCeiling) {
		Objects.requireNonNull(lease, "lease");
		String id = id(lease.namespace(), lease.workerId());
		long now = serverTime("renew worker ID " + lease.workerId() + " of namespace '" + lease.namespace() + "'");
		Document filter = new Document("_id", id).append(OWNER, lease.ownerToken())
			.append(MAX_TIMESTAMP, new Document("$type", StoreSupport.INTEGER_TYPES));
		Document update = new Document("$set",
				new Document(EXPIRES_AT, new Date(now + lease.ttl().toMillis())).append("renewedAt", new Date(now)))
			.append("$max", new Document(MAX_TIMESTAMP, timestampCeiling));
		Document before = execute("renew worker ID " + lease.workerId() + " of namespace '" + lease.namespace() + "'",
				(collection) -> collection.findOneAndUpdate(filter, update, beforeWithMark()));
		if (before == null) {
			throw lost(lease, id);
		}
		long mark = Math.max(Objects.requireNonNull(StoreSupport.integer(before, MAX_TIMESTAMP)), timestampCeiling);
		return new WorkerLease(lease.namespace(), lease.workerId(), lease.ownerToken(), lease.ttl(),
				lease.timestampFloor(), mark, now);
	}

	@Override
	public void release(WorkerLease lease, long lastIssuedTimestamp) {
		Objects.requireNonNull(lease, "lease");
		Document set = new Document(OWNER, null);
		if (lastIssuedTimestamp >= 0) {
			set.append(MAX_TIMESTAMP, lease.releaseMark(lastIssuedTimestamp));
		}
		Document update = new Document("$set", set).append("$currentDate", new Document(EXPIRES_AT, true));
		UpdateResult result = execute(
				"release worker ID " + lease.workerId() + " of namespace '" + lease.namespace() + "'",
				(collection) -> collection.updateOne(
						new Document("_id", id(lease.namespace(), lease.workerId())).append(OWNER, lease.ownerToken()),
						update));
		if (result.getMatchedCount() == 0) {
			logger.debug("Worker ID {} of namespace '{}' was no longer held by this lease; nothing to release",
					lease.workerId(), lease.namespace());
		}
	}

	@Override
	public String recordLayout(String namespace, String layout) {
		Objects.requireNonNull(namespace, "namespace");
		RecordedLayout.requireStorable(LAYOUT, layout);
		String action = "record the layout of namespace '" + namespace + "'";
		String id = layoutId(namespace);
		for (int attempt = 0; attempt < 3; attempt++) {
			Date now = new Date(serverTime(action));
			Document record = new Document("_id", id).append(NAMESPACE, namespace)
				.append(LAYOUT, layout)
				.append("recordedAt", now)
				.append("changedAt", now);
			if (execute(action, (collection) -> StoreSupport.insertIfAbsent(collection, record))) {
				logger.debug("Recorded the layout of namespace '{}' in collection '{}': {}", namespace,
						this.collection, layout);
				return layout;
			}
			String recorded = findLayout(namespace, action);
			if (recorded != null) {
				return recorded;
			}
		}
		throw new LeaseStoreException("Could not " + action + ": layout document '" + id + "' in MongoDB collection '"
				+ this.collection + "' kept being deleted while it was written; stop whatever deletes it");
	}

	@Override
	public @Nullable String readLayout(String namespace) {
		Objects.requireNonNull(namespace, "namespace");
		return findLayout(namespace, "read the layout of namespace '" + namespace + "'");
	}

	/**
	 * Reads the layout document on the primary.
	 * @return its text, or {@code null} if there is none
	 */
	private @Nullable String findLayout(String namespace, String action) {
		String id = layoutId(namespace);
		Document recorded = execute(action, (collection) -> collection.withReadPreference(ReadPreference.primary())
			.find(new Document("_id", id))
			.first());
		if (recorded == null) {
			return null;
		}
		if (!(recorded.get(LAYOUT) instanceof String text) || text.isEmpty() || recorded.containsKey(SLOT)) {
			throw new LeaseStoreException("Layout document '" + id + "' in MongoDB collection '" + this.collection
					+ "' is not a layout record: " + (recorded.containsKey(SLOT) ? "it has a slot field"
							: LAYOUT + " is " + StoreSupport.describe(recorded, LAYOUT) + ", expected a string")
					+ "; delete it and restart a node of namespace '" + namespace + "' to record its layout again");
		}
		return text;
	}

	@Override
	public boolean replaceLayout(String namespace, String expected, String replacement) {
		Objects.requireNonNull(namespace, "namespace");
		Objects.requireNonNull(expected, "expected");
		RecordedLayout.requireStorable("replacement", replacement);
		Document filter = new Document("_id", layoutId(namespace)).append(LAYOUT, expected);
		Document update = new Document("$set", new Document(LAYOUT, replacement)).append("$currentDate",
				new Document("changedAt", true));
		UpdateResult result = execute("replace the layout of namespace '" + namespace + "'",
				(collection) -> collection.updateOne(filter, update));
		if (result.getMatchedCount() > 0) {
			logger.info("Replaced the layout of namespace '{}' in collection '{}': {} (was {})", namespace,
					this.collection, replacement, expected);
		}
		return result.getMatchedCount() > 0;
	}

	@Override
	public List<SlotMark> slotMarks(String namespace) {
		Objects.requireNonNull(namespace, "namespace");
		String action = "read the slot marks of namespace '" + namespace + "'";
		long now = serverTime(action);
		Document filter = new Document(NAMESPACE, namespace).append(SLOT, new Document("$gte", 0));
		List<Document> documents = execute(action, (collection) -> collection
			.withReadPreference(ReadPreference.primary())
			.find(filter)
			.into(new ArrayList<>()));
		List<SlotMark> marks = new ArrayList<>();
		for (Document document : documents) {
			int slot = checked(namespace, document);
			boolean held = document.getString(OWNER) != null && document.getDate(EXPIRES_AT).getTime() > now;
			marks.add(new SlotMark(slot, Objects.requireNonNull(StoreSupport.integer(document, MAX_TIMESTAMP)), held));
		}
		return marks;
	}

	@Override
	public String identity() {
		String database = execute("read the database's name",
				(collection) -> collection.getNamespace().getDatabaseName());
		return "MongoDB lease store, database " + database + ", collection " + this.collection;
	}

	/**
	 * Returns the collection's name.
	 * @return the collection holding one document per slot
	 */
	public String getCollection() {
		return this.collection;
	}

	/**
	 * Takes a slot whose document exists, if it is free.
	 * @return the lease, or {@code null} if the slot has no document or is held
	 */
	private @Nullable WorkerLease takeExisting(LeaseRequest request, int slot, long now, String token) {
		// Free: released (owner null) or expired by the server's clock.
		Document filter = new Document("_id", id(request.namespace(), slot))
			.append(MAX_TIMESTAMP, new Document("$type", StoreSupport.INTEGER_TYPES))
			.append("$or", List.of(new Document(OWNER, null),
					new Document(EXPIRES_AT, new Document("$lte", new Date(now)))));
		Document update = new Document("$set", owned(request, slot, now, token)).append("$max",
				new Document(MAX_TIMESTAMP, request.timestampCeiling()));
		Document before = execute("take worker ID " + slot + " of namespace '" + request.namespace() + "'",
				(collection) -> collection.findOneAndUpdate(filter, update, beforeWithMark()));
		if (before == null) {
			return null;
		}
		long floor = Objects.requireNonNull(StoreSupport.integer(before, MAX_TIMESTAMP));
		return borrowed(request, slot, token, floor, now);
	}

	/**
	 * Takes a slot that has no document by inserting it.
	 * @return the lease, or {@code null} if another node inserted the slot first
	 */
	private @Nullable WorkerLease takeNew(LeaseRequest request, int slot, long now, String token) {
		Document document = new Document("_id", id(request.namespace(), slot))
			.append(MAX_TIMESTAMP, request.timestampCeiling());
		document.putAll(owned(request, slot, now, token));
		boolean inserted = execute("take worker ID " + slot + " of namespace '" + request.namespace() + "'",
				(collection) -> StoreSupport.insertIfAbsent(collection, document));
		return inserted ? borrowed(request, slot, token, -1, now) : null;
	}

	private WorkerLease borrowed(LeaseRequest request, int slot, String token, long floor, long now) {
		logger.debug("Borrowed worker ID {} of namespace '{}' for {} (floor {})", slot, request.namespace(),
				request.instance(), floor);
		return new WorkerLease(request.namespace(), slot, token, request.ttl(), floor,
				Math.max(floor, request.timestampCeiling()), now);
	}

	private static Document owned(LeaseRequest request, int slot, long now, String token) {
		Date time = new Date(now);
		return new Document(NAMESPACE, request.namespace()).append(SLOT, slot)
			.append(OWNER, token)
			.append(INSTANCE, request.instance())
			.append(EXPIRES_AT, new Date(now + request.ttl().toMillis()))
			.append("borrowedAt", time)
			.append("renewedAt", time);
	}

	/**
	 * Reads the documents of a namespace's slots and checks them.
	 * @return the documents by slot
	 * @throws LeaseStoreException if a document is corrupt
	 */
	private Map<Integer, Document> usedSlots(LeaseRequest request) {
		String namespace = request.namespace();
		if (!this.indexed) {
			execute("index collection '" + this.collection + "'",
					(collection) -> collection.createIndex(Indexes.ascending(NAMESPACE, SLOT)));
			this.indexed = true;
		}
		Document filter = new Document(NAMESPACE, namespace).append(SLOT,
				new Document("$gte", 0).append("$lte", request.maxWorkerId()));
		List<Document> documents = execute("read the worker IDs of namespace '" + namespace + "'",
				(collection) -> collection.withReadPreference(ReadPreference.primary())
					.find(filter)
					.into(new ArrayList<>()));
		Map<Integer, Document> used = new HashMap<>();
		for (Document document : documents) {
			used.put(checked(namespace, document), document);
		}
		return used;
	}

	private int checked(String namespace, Document document) {
		if (!(document.get(SLOT) instanceof Integer slot)) {
			throw corrupt(document, SLOT, "a 32-bit integer");
		}
		if (!id(namespace, slot).equals(document.get("_id"))) {
			throw corrupt(document, "_id", "'" + id(namespace, slot) + "' for its namespace and slot");
		}
		Object owner = document.get(OWNER);
		if (owner != null && !(owner instanceof String)) {
			throw corrupt(document, OWNER, "a string or null");
		}
		if (!(document.get(EXPIRES_AT) instanceof Date)) {
			throw corrupt(document, EXPIRES_AT, "a date");
		}
		if (StoreSupport.integer(document, MAX_TIMESTAMP) == null) {
			throw corrupt(document, MAX_TIMESTAMP, "an integer (NumberLong in mongosh)");
		}
		return slot;
	}

	private LeaseStoreException corrupt(Document document, String field, String expected) {
		return new LeaseStoreException("Worker-ID document '" + document.get("_id") + "' in MongoDB collection '"
				+ this.collection + "' is corrupt: " + field + " is " + StoreSupport.describe(document, field)
				+ ", expected " + expected + "; repair it (deleting it forgets the slot's timestamp high-water mark)");
	}

	private RuntimeException lost(WorkerLease lease, String id) {
		Document current = execute("read worker ID " + lease.workerId() + " of namespace '" + lease.namespace() + "'",
				(collection) -> collection.withReadPreference(ReadPreference.primary())
					.find(new Document("_id", id))
					.first());
		if (current == null) {
			return LeaseLostException.notHeld(lease, store(), "its document was deleted");
		}
		if (lease.ownerToken().equals(current.get(OWNER))) {
			return corrupt(current, MAX_TIMESTAMP, "an integer (NumberLong in mongosh)");
		}
		if (current.get(OWNER) == null) {
			return LeaseLostException.notHeld(lease, store(), "it was released");
		}
		return LeaseLostException.notHeld(lease, store(), "its lease expired and instance '" + current.get(INSTANCE)
				+ "' holds it now");
	}

	/** Where the slots are, in messages. */
	private String store() {
		return "MongoDB collection '" + this.collection + "'";
	}

	private long serverTime(String action) {
		try {
			return this.clock.currentTimeMillis();
		}
		catch (DataAccessException | MongoException ex) {
			throw unreachable(action + " (reading the server's clock)", ex);
		}
		catch (IllegalStateException ex) {
			throw new LeaseStoreException(ex.getMessage(), ex);
		}
	}

	private <T extends @Nullable Object> T execute(String action, CollectionCallback<T> callback) {
		try {
			return this.mongo.execute(this.collection, callback);
		}
		catch (DataAccessException | MongoException ex) {
			throw unreachable(action, ex);
		}
	}

	private LeaseStoreException unreachable(String action, RuntimeException ex) {
		return new LeaseStoreException("MongoDB lease store (collection '" + this.collection + "') could not "
				+ action + ": " + ex.getMessage()
				+ "; check that MongoDB is up and reachable with the configured connection", ex);
	}

	private static FindOneAndUpdateOptions beforeWithMark() {
		// The document as it was before the update, so its maxTimestamp is the previous high-water mark.
		return new FindOneAndUpdateOptions().returnDocument(ReturnDocument.BEFORE)
			.projection(new Document(MAX_TIMESTAMP, 1));
	}

	private static String layoutId(String namespace) {
		return namespace + ":" + LAYOUT;
	}

	private static String id(String namespace, int slot) {
		return namespace + ":" + slot;
	}

}
