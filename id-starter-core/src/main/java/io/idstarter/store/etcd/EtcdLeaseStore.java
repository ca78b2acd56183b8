package io.idstarter.store.etcd;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.ClientBuilder;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.kv.GetResponse;
import io.etcd.jetcd.kv.TxnResponse;
import io.etcd.jetcd.lease.LeaseKeepAliveResponse;
import io.etcd.jetcd.op.Cmp;
import io.etcd.jetcd.op.CmpTarget;
import io.etcd.jetcd.op.Op;
import io.etcd.jetcd.options.DeleteOption;
import io.etcd.jetcd.options.GetOption;
import io.etcd.jetcd.options.PutOption;
import io.idstarter.lease.ISequenceManager;
import io.idstarter.lease.LeaseLostException;
import io.idstarter.lease.LeaseRequest;
import io.idstarter.lease.LeaseStoreCall;
import io.idstarter.lease.LeaseStoreException;
import io.idstarter.lease.NoFreeWorkerIdException;
import io.idstarter.lease.SlotMark;
import io.idstarter.lease.SlotOrder;
import io.idstarter.lease.WorkerLease;
import io.idstarter.snowflake.RecordedLayout;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An {@link ISequenceManager} on an etcd cluster (v3 API, through jetcd), built on etcd's own lease: a slot is held
 * by a key attached to an etcd lease, so the <em>server</em> decides when a holder is gone (its lease's TTL passed
 * without a keep-alive); every write is a transaction that compares the revisions it read, so two writers can never
 * both succeed from the same state.
 *
 * <p>Keys, under {@code prefix<namespace, URL-encoded>/}:
 * <ul>
 * <li>{@code holders/<workerId>}: attached to the holder's etcd lease, value {@code <ownerToken> <instance>};</li>
 * <li>{@code slots/<workerId>}: never expires, value {@code <mark> <ownerToken or -> <instance>};</li>
 * <li>{@code layout}: never expires, value the namespace's recorded layout ({@link #recordLayout}), put by one
 * transaction that requires the key to be absent and replaced by one that requires its value to be the expected one.
 * It lies beside {@code holders/} and {@code slots/}, so no slot listing sees it.</li>
 * </ul>
 *
 * <p><b>Renewal is one explicit keep-alive per heartbeat</b> ({@code keepAliveOnce}), not jetcd's background
 * keep-alive stream: the etcd lease then lives exactly as long as the keeper renews, so a node whose keeper stops
 * (frozen, cut off) loses its slot on the same schedule as its own validity, and a renewal succeeds only when etcd
 * confirmed the extension. The etcd lease's TTL is the lease's TTL rounded up to whole seconds; etcd starts it when the
 * leader handles the keep-alive, after the keeper read its clock, so the keeper stops issuing at least its safety
 * margin before anyone else can take the slot. A renewal after the etcd lease expired still succeeds when nobody took
 * the slot since: the record still names this owner, and a fresh etcd lease takes over the holder key.
 *
 * <p><b>A member without a leader</b> (cut off from the majority) holds a request until it times out, unless the
 * client sends the header {@value #REQUIRE_LEADER_HEADER}{@code =true}; then it refuses at once with "no leader",
 * before the request reaches the log. Such a refusal is retried within the call timeout: the client's round-robin
 * balancer sends the retry to the next member. Build an application's own {@code Client} with
 * {@link #requireLeader(ClientBuilder)} (the one id-starter builds from {@code id-worker.etcd.*} is); without it, a
 * call that reaches such a member fails only when its timeout runs out, and a node that reaches the majority still
 * loses its lease's validity whenever its renewal's calls land on the cut-off member.
 *
 * <p>etcd answers with no wall-clock time, so {@link WorkerLease#storeTimeMillis()} is this node's clock and the
 * keeper's clock-skew guard cannot compare clocks with this store; expiry does not depend on wall clocks at all.
 * "Free for longest" is judged by the revision of a slot's last write (etcd's logical clock).
 */
public class EtcdLeaseStore implements ISequenceManager {

	/** Key prefix used when none is given. */
	public static final String DEFAULT_PREFIX = "/id-starter/worker-ids/";

	/** How long one call to etcd may take when no timeout is given. */
	public static final Duration DEFAULT_CALL_TIMEOUT = Duration.ofSeconds(5);

	/**
	 * gRPC header that makes a member without a leader refuse a request at once, with "no leader", instead of holding
	 * it until it times out; its value is {@code true}.
	 */
	public static final String REQUIRE_LEADER_HEADER = "hasleader";

	/** What etcd answers a request that carries {@link #REQUIRE_LEADER_HEADER} when the member has no leader. */
	private static final String NO_LEADER = "etcdserver: no leader";

	/** Attempts a read or keep-alive gets within one call timeout, each a share of it. */
	private static final int REPEATABLE_ATTEMPTS = 4;

	/** Pause before a request refused for want of a leader is sent again (to the next member). */
	private static final long NO_LEADER_RETRY_MILLIS = 50;

	private static final Logger logger = LoggerFactory.getLogger(EtcdLeaseStore.class);

	private static final int MAX_BORROW_ATTEMPTS = 32;

	private static final String FREE = "-";

	private final Client client;

	private final String prefix;

	private final Duration callTimeout;

	private final String endpoints;

	/**
	 * Sets up a jetcd client as this store needs it: a member without a leader refuses each call at once
	 * ({@value #REQUIRE_LEADER_HEADER}), and jetcd sends a refused call to the next member after
	 * {@value #NO_LEADER_RETRY_MILLIS} ms instead of its default 500 ms, well within a lease's validity.
	 * @param builder the builder, with the endpoints
	 * @return the same builder
	 */
	public static ClientBuilder requireLeader(ClientBuilder builder) {
		return builder.header(REQUIRE_LEADER_HEADER, "true")
			.retryDelay(NO_LEADER_RETRY_MILLIS)
			.retryMaxDelay(4 * NO_LEADER_RETRY_MILLIS);
	}

	/**
	 * Creates a manager under {@value #DEFAULT_PREFIX}.
	 * @param client the etcd client
	 */
	public EtcdLeaseStore(Client client) {
		this(client, DEFAULT_PREFIX, DEFAULT_CALL_TIMEOUT, "etcd");
	}

	/**
	 * Creates a manager.
	 * @param client the etcd client
	 * @param prefix prefix of every key the manager writes, not empty
	 * @param callTimeout how long one call to etcd may take
	 * @param endpoints the cluster's endpoints, for messages
	 */
	public EtcdLeaseStore(Client client, String prefix, Duration callTimeout, String endpoints) {
		this.client = Objects.requireNonNull(client, "client");
		this.prefix = EtcdKeyPrefix.check(prefix);
		this.callTimeout = Objects.requireNonNull(callTimeout, "callTimeout");
		this.endpoints = Objects.requireNonNull(endpoints, "endpoints");
	}

	@Override
	public String identity() {
		// The prefix only: the endpoints change when a member is added or replaced, and the cluster is the same.
		return "etcd lease store, key prefix " + this.prefix;
	}

	@Override
	public WorkerLease borrow(LeaseRequest request) {
		Objects.requireNonNull(request, "request");
		String namespace = request.namespace();
		String action = "borrow a worker ID of namespace '" + namespace + "'";
		return call(action, () -> {
			String base = namespaceKey(namespace);
			return LeaseStoreCall.untilTaken(action, store(base), MAX_BORROW_ATTEMPTS, () -> {
				SlotOrder.Candidate<@Nullable KeyValue> candidate = SlotOrder
					.first(SlotOrder.candidates(request, usedSlots(base)));
				if (candidate == null) {
					throw NoFreeWorkerIdException.allHeld(request, store(base));
				}
				SlotOrder.UsedSlot<@Nullable KeyValue> used = candidate.used();
				return tryTake(request, base, candidate.workerId(), (used != null) ? used.read() : null);
			});
		});
	}

	/**
	 * Reads a namespace's slots: a slot with a holder key is held; one with only its record is free since the
	 * revision of the record's last write (etcd's logical clock).
	 */
	private List<SlotOrder.UsedSlot<@Nullable KeyValue>> usedSlots(String base) throws Exception {
		Map<Integer, KeyValue> holders = range(base + "holders/");
		Map<Integer, KeyValue> slots = range(base + "slots/");
		Set<Integer> ids = new HashSet<>(holders.keySet());
		ids.addAll(slots.keySet());
		List<SlotOrder.UsedSlot<@Nullable KeyValue>> used = new ArrayList<>();
		for (int id : ids) {
			KeyValue slot = slots.get(id);
			used.add(holders.containsKey(id) ? SlotOrder.UsedSlot.held(id, slot)
					: new SlotOrder.UsedSlot<>(id, true, Objects.requireNonNull(slot).getModRevision(), slot));
		}
		return used;
	}

	private @Nullable WorkerLease tryTake(LeaseRequest request, String base, int workerId, @Nullable KeyValue slot)
			throws Exception {
		String recordKey = base + "slots/" + workerId;
		Record previous = (slot != null) ? Record.parse(slot.getValue(), recordKey) : null;
		long floor = (previous != null) ? previous.mark() : -1;
		String token = UUID.randomUUID().toString();
		long mark = Math.max(floor, request.timestampCeiling());
		long etcdLease = await(() -> this.client.getLeaseClient().grant(ttlSeconds(request.ttl()))).getID();
		TxnResponse response = await(() -> this.client.getKVClient()
			.txn()
			.If(new Cmp(bytes(base + "holders/" + workerId), Cmp.Op.EQUAL, CmpTarget.createRevision(0)),
					new Cmp(bytes(recordKey), Cmp.Op.EQUAL,
							CmpTarget.modRevision((slot != null) ? slot.getModRevision() : 0)))
			.Then(Op.put(bytes(base + "holders/" + workerId), bytes(token + " " + request.instance()),
					PutOption.builder().withLeaseId(etcdLease).build()),
					Op.put(bytes(recordKey), new Record(mark, token, request.instance()).bytes(), PutOption.DEFAULT))
			.commit());
		if (!response.isSucceeded()) {
			revokeQuietly(etcdLease);
			return null;
		}
		return new WorkerLease(request.namespace(), workerId, token, request.ttl(), floor, mark,
				System.currentTimeMillis());
	}

	@Override
	public WorkerLease renew(WorkerLease lease, long timestampCeiling) {
		Objects.requireNonNull(lease, "lease");
		String action = "renew worker ID " + lease.workerId() + " of namespace '" + lease.namespace() + "'";
		return call(action, () -> {
			String base = namespaceKey(lease.namespace());
			String holderKey = base + "holders/" + lease.workerId();
			String recordKey = base + "slots/" + lease.workerId();
			KeyValue slot = single(recordKey);
			if (slot == null) {
				throw lost(lease, "its record " + recordKey + " is gone");
			}
			Record record = Record.parse(slot.getValue(), recordKey);
			if (!record.owner().equals(lease.ownerToken())) {
				throw lost(lease, record.owner().equals(FREE) ? "it was released"
						: "instance '" + record.instance() + "' holds it now");
			}
			long mark = Math.max(record.mark(), timestampCeiling);
			ByteSequence updated = new Record(mark, lease.ownerToken(), record.instance()).bytes();
			KeyValue holder = single(holderKey);
			if (holder != null && !keepAlive(holder.getLease())) {
				holder = null;
			}
			Cmp recordUnchanged = new Cmp(bytes(recordKey), Cmp.Op.EQUAL, CmpTarget.modRevision(slot.getModRevision()));
			TxnResponse response;
			if (holder != null) {
				Cmp holderUnchanged = new Cmp(bytes(holderKey), Cmp.Op.EQUAL,
						CmpTarget.modRevision(holder.getModRevision()));
				response = await(() -> this.client.getKVClient()
					.txn()
					.If(holderUnchanged, recordUnchanged)
					.Then(Op.put(bytes(recordKey), updated, PutOption.DEFAULT))
					.commit());
			}
			else {
				// The etcd lease expired and nobody took the slot since: hold it under a fresh etcd lease.
				long etcdLease = await(() -> this.client.getLeaseClient().grant(ttlSeconds(lease.ttl()))).getID();
				response = await(() -> this.client.getKVClient()
					.txn()
					.If(new Cmp(bytes(holderKey), Cmp.Op.EQUAL, CmpTarget.createRevision(0)), recordUnchanged)
					.Then(Op.put(bytes(holderKey), bytes(lease.ownerToken() + " " + record.instance()),
							PutOption.builder().withLeaseId(etcdLease).build()),
							Op.put(bytes(recordKey), updated, PutOption.DEFAULT))
					.commit());
				if (!response.isSucceeded()) {
					revokeQuietly(etcdLease);
				}
			}
			if (!response.isSucceeded()) {
				throw lost(lease, "another node took it during this renewal");
			}
			return new WorkerLease(lease.namespace(), lease.workerId(), lease.ownerToken(), lease.ttl(),
					lease.timestampFloor(), mark, System.currentTimeMillis());
		});
	}

	@Override
	public void release(WorkerLease lease, long lastIssuedTimestamp) {
		Objects.requireNonNull(lease, "lease");
		String action = "release worker ID " + lease.workerId() + " of namespace '" + lease.namespace() + "'";
		call(action, () -> {
			String base = namespaceKey(lease.namespace());
			String holderKey = base + "holders/" + lease.workerId();
			String recordKey = base + "slots/" + lease.workerId();
			KeyValue slot = single(recordKey);
			if (slot == null) {
				return null;
			}
			Record record = Record.parse(slot.getValue(), recordKey);
			if (!record.owner().equals(lease.ownerToken())) {
				return null;
			}
			long reported = lease.releaseMark(lastIssuedTimestamp);
			long mark = (reported >= 0) ? reported : record.mark();
			KeyValue holder = single(holderKey);
			TxnResponse response = await(() -> this.client.getKVClient()
				.txn()
				.If(new Cmp(bytes(recordKey), Cmp.Op.EQUAL, CmpTarget.modRevision(slot.getModRevision())))
				.Then(Op.put(bytes(recordKey), new Record(mark, FREE, record.instance()).bytes(), PutOption.DEFAULT),
						Op.delete(bytes(holderKey), DeleteOption.DEFAULT))
				.commit());
			if (response.isSucceeded() && holder != null && holder.getLease() != 0) {
				revokeQuietly(holder.getLease());
			}
			return null;
		});
	}

	/**
	 * {@inheritDoc}
	 * <p>One transaction: if the {@code layout} key was never created, put it, else read it. Sending it twice (a lost
	 * answer) answers the same.
	 */
	@Override
	public String recordLayout(String namespace, String layout) {
		RecordedLayout.requireStorable("layout", layout);
		String action = "record the layout of namespace '" + namespace + "'";
		return call(action, () -> {
			ByteSequence key = bytes(namespaceKey(namespace) + "layout");
			TxnResponse response = await(() -> this.client.getKVClient()
				.txn()
				.If(new Cmp(key, Cmp.Op.EQUAL, CmpTarget.createRevision(0)))
				.Then(Op.put(key, bytes(layout), PutOption.DEFAULT))
				.Else(Op.get(key, GetOption.DEFAULT))
				.commit());
			if (response.isSucceeded()) {
				return layout;
			}
			List<KeyValue> kvs = response.getGetResponses().get(0).getKvs();
			if (kvs.isEmpty()) {
				throw new LeaseStoreException("could not " + action + ": etcd answered neither the write nor the "
						+ "recorded layout of key " + key.toString(StandardCharsets.UTF_8));
			}
			return kvs.get(0).getValue().toString(StandardCharsets.UTF_8);
		});
	}

	/**
	 * {@inheritDoc}
	 * <p>One get of the {@code layout} key.
	 */
	@Override
	public @Nullable String readLayout(String namespace) {
		String action = "read the layout of namespace '" + namespace + "'";
		return call(action, () -> {
			KeyValue recorded = single(namespaceKey(namespace) + "layout");
			return (recorded != null) ? recorded.getValue().toString(StandardCharsets.UTF_8) : null;
		});
	}

	/**
	 * {@inheritDoc}
	 * <p>One transaction that puts the replacement only if the {@code layout} key holds {@code expected} (etcd fails a
	 * value comparison on a key that does not exist).
	 */
	@Override
	public boolean replaceLayout(String namespace, String expected, String replacement) {
		Objects.requireNonNull(expected, "expected");
		RecordedLayout.requireStorable("replacement", replacement);
		String action = "replace the layout of namespace '" + namespace + "'";
		return call(action, () -> {
			ByteSequence key = bytes(namespaceKey(namespace) + "layout");
			TxnResponse response = await(() -> this.client.getKVClient()
				.txn()
				.If(new Cmp(key, Cmp.Op.EQUAL, CmpTarget.value(bytes(expected))))
				.Then(Op.put(key, bytes(replacement), PutOption.DEFAULT))
				.commit());
			return response.isSucceeded();
		});
	}

	/**
	 * {@inheritDoc}
	 * <p>Every record under {@code slots/}; a slot is held while its holder key exists, which etcd deletes when the
	 * holder's etcd lease expires.
	 */
	@Override
	public List<SlotMark> slotMarks(String namespace) {
		String action = "read the slot marks of namespace '" + namespace + "'";
		return call(action, () -> {
			String base = namespaceKey(namespace);
			Map<Integer, KeyValue> holders = range(base + "holders/");
			Map<Integer, KeyValue> slots = range(base + "slots/");
			List<SlotMark> marks = new ArrayList<>();
			for (Map.Entry<Integer, KeyValue> slot : slots.entrySet()) {
				String key = base + "slots/" + slot.getKey();
				Record record = Record.parse(slot.getValue().getValue(), key);
				marks.add(new SlotMark(slot.getKey(), record.mark(), holders.containsKey(slot.getKey())));
			}
			return marks;
		});
	}

	/**
	 * Extends an etcd lease once.
	 * @return {@code false} if etcd no longer knows it (it expired)
	 */
	private boolean keepAlive(long etcdLease) throws Exception {
		try {
			LeaseKeepAliveResponse response = repeatable(() -> this.client.getLeaseClient().keepAliveOnce(etcdLease));
			return response.getTTL() > 0;
		}
		catch (ExecutionException ex) {
			String message = String.valueOf(ex.getCause());
			if (message.contains("lease not found") || message.contains("NOT_FOUND")) {
				return false;
			}
			throw ex;
		}
	}

	private void revokeQuietly(long etcdLease) {
		try {
			await(() -> this.client.getLeaseClient().revoke(etcdLease));
		}
		catch (Exception ex) {
			// It expires by itself; nothing is attached to it.
			logger.debug("could not revoke etcd lease {}: {}", Long.toHexString(etcdLease), ex.toString());
			if (ex instanceof InterruptedException) {
				Thread.currentThread().interrupt();
			}
		}
	}

	private Map<Integer, KeyValue> range(String keyPrefix) throws Exception {
		GetResponse response = repeatable(() -> this.client.getKVClient()
			.get(bytes(keyPrefix), GetOption.builder().isPrefix(true).build()));
		Map<Integer, KeyValue> byId = new HashMap<>();
		for (KeyValue kv : response.getKvs()) {
			String key = kv.getKey().toString(StandardCharsets.UTF_8);
			try {
				byId.put(Integer.parseInt(key.substring(keyPrefix.length())), kv);
			}
			catch (NumberFormatException ex) {
				// not a slot
			}
		}
		return byId;
	}

	private @Nullable KeyValue single(String key) throws Exception {
		GetResponse response = repeatable(() -> this.client.getKVClient().get(bytes(key)));
		return response.getKvs().isEmpty() ? null : response.getKvs().get(0);
	}

	/**
	 * Sends a write (or anything that must not be sent twice once it may have been applied).
	 */
	private <T> T await(Supplier<CompletableFuture<T>> request) throws Exception {
		return send(request, false);
	}

	/**
	 * Sends a request that may be repeated: a read, or a keep-alive.
	 */
	private <T> T repeatable(Supplier<CompletableFuture<T>> request) throws Exception {
		return send(request, true);
	}

	/**
	 * Sends a request, and sends it again within the call timeout when a member without a leader refused it (it was
	 * not applied) or, if it may be repeated, when a share of the timeout passed without an answer. Each new request
	 * goes to the next member (the client's round-robin balancer), so a member cut off from the majority, or behind a
	 * connection that died silently, costs a refusal or a share of the timeout, not the whole call. Only the request
	 * is repeated, never the calls before it: a fixed number of calls per attempt could otherwise land on the same
	 * member every time.
	 */
	private <T> T send(Supplier<CompletableFuture<T>> request, boolean repeatable) throws Exception {
		long deadline = System.nanoTime() + this.callTimeout.toNanos();
		long attemptNanos = repeatable ? this.callTimeout.toNanos() / REPEATABLE_ATTEMPTS : this.callTimeout.toNanos();
		for (;;) {
			long left = deadline - System.nanoTime();
			CompletableFuture<T> future = request.get();
			try {
				return future.get(Math.max(1, Math.min(attemptNanos, left)), TimeUnit.NANOSECONDS);
			}
			catch (TimeoutException ex) {
				future.cancel(true);
				if (!repeatable || System.nanoTime() - deadline >= 0) {
					throw ex;
				}
			}
			catch (ExecutionException ex) {
				if (!refusedForWantOfALeader(ex) || System.nanoTime() - deadline >= 0) {
					throw ex;
				}
				logger.debug("an etcd member without a leader refused a request; sending it to the next member");
				Thread.sleep(NO_LEADER_RETRY_MILLIS);
			}
		}
	}

	/**
	 * Returns the etcd lease TTL: the lease's TTL rounded up to whole seconds, never shorter than asked.
	 */
	static long ttlSeconds(Duration ttl) {
		return Math.max(1, (ttl.toMillis() + 999) / 1000);
	}

	String namespaceKey(String namespace) {
		return this.prefix + URLEncoder.encode(namespace, StandardCharsets.UTF_8) + "/";
	}

	private static ByteSequence bytes(String text) {
		return ByteSequence.from(text, StandardCharsets.UTF_8);
	}

	private LeaseLostException lost(WorkerLease lease, String why) {
		return LeaseLostException.notHeld(lease, store(namespaceKey(lease.namespace())), why);
	}

	/** Where a namespace's slots are, in messages. */
	private String store(String base) {
		return "etcd " + this.endpoints + ", keys " + base + "*";
	}

	/**
	 * Returns whether a failure is a member's refusal for want of a leader ({@link #REQUIRE_LEADER_HEADER}): the
	 * request was not applied, and another member may take it.
	 * @param ex the failure, or one wrapping it
	 * @return whether it is such a refusal
	 */
	public static boolean refusedForWantOfALeader(Throwable ex) {
		for (Throwable cause = ex; cause != null; cause = cause.getCause()) {
			if (cause.getMessage() != null && cause.getMessage().contains(NO_LEADER)) {
				return true;
			}
		}
		return false;
	}

	private <T> T call(String action, LeaseStoreCall.Body<T> call) {
		return LeaseStoreCall.run(action, "etcd " + this.endpoints, call, (ex) -> {
			if (ex instanceof TimeoutException) {
				return new LeaseStoreException("etcd " + this.endpoints + " did not answer within "
						+ this.callTimeout.toMillis() + " ms when trying to " + action + "; check that a majority of the "
						+ "cluster is up and reachable from this node", ex);
			}
			Throwable cause = (ex instanceof ExecutionException && ex.getCause() != null) ? ex.getCause() : ex;
			return new LeaseStoreException("could not " + action + " on etcd " + this.endpoints + ": " + cause
					+ "; check that a majority of the cluster is up and reachable, and the user's rights on "
					+ this.prefix, cause);
		});
	}

	/**
	 * A slot's record: {@code <mark> <owner> <instance>}.
	 */
	record Record(long mark, String owner, String instance) {

		ByteSequence bytes() {
			return EtcdLeaseStore.bytes(this.mark + " " + this.owner + " " + this.instance);
		}

		static Record parse(ByteSequence value, String key) {
			String text = value.toString(StandardCharsets.UTF_8);
			String[] parts = text.split(" ", 3);
			try {
				return new Record(Long.parseLong(parts[0]), parts[1], (parts.length > 2) ? parts[2] : "");
			}
			catch (RuntimeException ex) {
				throw new LeaseStoreException("etcd key " + key + " does not hold a worker-id record ('" + text
						+ "'); another program writes under the id-starter prefix: give id-starter a prefix of its "
						+ "own (id-worker.etcd.prefix)", ex);
			}
		}

	}

}
