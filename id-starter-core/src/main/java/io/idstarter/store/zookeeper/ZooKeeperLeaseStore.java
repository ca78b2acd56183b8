package io.idstarter.store.zookeeper;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import io.idstarter.lease.ISequenceManager;
import io.idstarter.lease.LeaseLostException;
import io.idstarter.lease.LeaseRequest;
import io.idstarter.lease.LeaseStoreCall;
import io.idstarter.lease.LeaseStoreException;
import io.idstarter.lease.NoFreeWorkerIdException;
import io.idstarter.lease.SlotMark;
import io.idstarter.lease.SlotOrder;
import io.idstarter.lease.WorkerIdConflictException;
import io.idstarter.lease.WorkerLease;
import io.idstarter.snowflake.RecordedLayout;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.curator.framework.api.transaction.CuratorTransactionResult;
import org.apache.curator.framework.api.transaction.OperationType;
import org.apache.curator.framework.imps.CuratorFrameworkState;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An {@link ISequenceManager} on a ZooKeeper ensemble, through Apache Curator. A slot is held by an ephemeral node of
 * the holder's ZooKeeper session, so the <em>server</em> decides when a lease ends: when the session expires. Each
 * slot also has a persistent record with its timestamp high-water mark, changed only by versioned writes in the same
 * multi-op as the holder node, so two writers can never both succeed from the same state.
 *
 * <p>Nodes, under {@code rootPath/<namespace, URL-encoded>}:
 * <ul>
 * <li>{@code holders/<workerId>}: ephemeral, data {@code <ownerToken> <instance>}; exists while the slot is held;</li>
 * <li>{@code slots/<workerId>}: persistent, data {@code <mark> <ownerToken or -> <sessionTimeoutMillis> <instance>};
 * its {@code mtime} (the leader's clock) is the store time of the last borrow, renewal or release;</li>
 * <li>{@code layout}: persistent, data the namespace's recorded layout ({@link #recordLayout}), created once by the
 * first node and changed only by a versioned write ({@link #replaceLayout}). It is a sibling of {@code holders} and
 * {@code slots}, never a child of them, so no slot listing sees it; Leaf's own paths are not touched.</li>
 * </ul>
 *
 * <p><b>Why a node that lost its session stops before anyone else can have its slot.</b> Every borrow and renewal is
 * a request in the holder's session, and a ZooKeeper server can only expire a session {@code sessionTimeout} after it
 * last heard from it (the leader rounds expiry up to the next tick and learns of followers' sessions later, both only
 * delaying it). The keeper reads its clock <em>before</em> sending the request and stops issuing {@code ttl -
 * safetyMargin} after that reading. So when {@code ttl <= sessionTimeout}, the session (and with it the holder node)
 * lives at least {@code safetyMargin} longer than the keeper issues; the margin absorbs the rate difference between
 * the node's and the leader's clocks. Each call checks that condition against the timeout the ensemble actually
 * negotiated and fails naming both when the lease's TTL is longer.
 *
 * <p>A renewal after the session expired (Curator then opens a new one) still succeeds when nobody took the slot in
 * between: the record still names this owner, so the holder node is created again in the new session.
 *
 * <p><b>A reply lost after a commit.</b> When the connection resets after a borrow's or renewal's multi-op committed
 * but before its reply arrived, Curator sends it again, and the second attempt fails on what the first one wrote
 * ({@code NodeExists}, {@code BadVersion}). Such a failure is therefore never taken at its word: the slot's record is
 * read again, and if it names this lease's owner token, the write succeeded. A take whose outcome stays unknown (the
 * connection does not come back within Curator's retries) is remembered and resolved at the next borrow: a slot
 * taken by it is given back.
 *
 * <p><b>Leaf compatibility.</b> With {@link LeafSnowflake} settings ({@link LeafWorkerIds}), every worker ID that
 * Leaf's Snowflake recorded under {@code /snowflake/<leaf name>/forever} counts as held, except the one recorded for
 * this node's own {@code ip:port}, which it may take over with Leaf's last reported timestamp plus one report interval
 * as its floor, once that Leaf node has stopped reporting. Each take moves Leaf's sequence counter past the worker ID
 * in the same multi-op, and each renewal reads Leaf's nodes again: a Leaf claim on the held worker ID ends the lease
 * with a {@link WorkerIdConflictException}.
 */
public class ZooKeeperLeaseStore implements ISequenceManager {

	/** Root path used when none is given. */
	public static final String DEFAULT_ROOT_PATH = "/id-starter/worker-ids";

	private static final Logger logger = LoggerFactory.getLogger(ZooKeeperLeaseStore.class);

	/** A borrow that loses this many races in a row to other nodes gives up with a store error. */
	private static final int MAX_BORROW_ATTEMPTS = 32;

	private static final String FREE = "-";

	private final CuratorFramework client;

	private final String rootPath;

	private final @Nullable LeafWorkerIds leaf;

	/**
	 * Takes that failed without an answer (their multi-op may have committed), owner token to record path: no caller
	 * holds a lease of them. Resolved (the slot given back if the take committed) at the next borrow.
	 */
	private final Map<String, String> unresolvedTakes = new ConcurrentHashMap<>();

	/**
	 * Creates a manager under {@value #DEFAULT_ROOT_PATH}.
	 * @param client a started Curator client (its namespace, if any, applies)
	 */
	public ZooKeeperLeaseStore(CuratorFramework client) {
		this(client, DEFAULT_ROOT_PATH, null);
	}

	/**
	 * Creates a manager.
	 * @param client a started Curator client (its namespace, if any, applies to {@code rootPath})
	 * @param rootPath absolute path under which the namespaces' slots are kept
	 * @param leaf the Leaf Snowflake deployment whose worker IDs must be respected, or {@code null}
	 */
	public ZooKeeperLeaseStore(CuratorFramework client, String rootPath, @Nullable LeafSnowflake leaf) {
		this.client = Objects.requireNonNull(client, "client");
		this.rootPath = requirePath(rootPath);
		this.leaf = (leaf != null) ? new LeafWorkerIds(client, leaf) : null;
	}

	static String requirePath(String path) {
		return ZooKeeperPaths.checkRootPath(path);
	}

	@Override
	public String identity() {
		// The path only: a connect string changes when a member is added or renamed, and the ensemble is the same.
		String namespace = this.client.getNamespace();
		return "ZooKeeper lease store, path " + (namespace.isEmpty() ? "" : "/" + namespace) + this.rootPath;
	}

	@Override
	public WorkerLease borrow(LeaseRequest request) {
		Objects.requireNonNull(request, "request");
		String namespace = request.namespace();
		String action = "borrow a worker ID of namespace '" + namespace + "'";
		return call(action, () -> {
			long sessionTimeout = checkSession(request.ttl());
			String base = namespacePath(namespace);
			ensurePath(base + "/holders");
			ensurePath(base + "/slots");
			resolveUnknownTakes();
			return LeaseStoreCall.untilTaken(action, store(base), MAX_BORROW_ATTEMPTS, () -> {
				Map<Integer, List<LeafWorkerIds.Claim>> leafClaims = (this.leaf != null) ? this.leaf.read() : Map.of();
				int preferred = preferred(request, leafClaims);
				Set<Integer> held = ids(this.client.getChildren().forPath(base + "/holders"));
				Set<Integer> recorded = ids(this.client.getChildren().forPath(base + "/slots"));
				// Records are read only when the slot free for longest is wanted (no free preferred slot, no gap).
				SlotOrder.Candidate<Integer> candidate = SlotOrder.first(SlotOrder.candidates(request, preferred,
						usedSlots(request, base, preferred, leafClaims, held, recorded, false)));
				if (candidate != null && candidate.used() != null && candidate.workerId() != preferred) {
					candidate = SlotOrder.first(SlotOrder.candidates(request, preferred,
							usedSlots(request, base, preferred, leafClaims, held, recorded, true)));
				}
				if (candidate == null) {
					throw NoFreeWorkerIdException.allHeld(request, store(base), leafClaims.isEmpty() ? ""
							: " or by Leaf (" + leafClaims.size() + " worker IDs under " + this.leaf.leaf().foreverPath()
									+ ")");
				}
				return tryTake(request, base, candidate.workerId(), leafClaims.get(candidate.workerId()),
						sessionTimeout);
			});
		});
	}

	/**
	 * Returns the slot to try first: the request's preferred one or, with none, this node's own Leaf worker ID.
	 */
	private int preferred(LeaseRequest request, Map<Integer, List<LeafWorkerIds.Claim>> leafClaims) {
		if (request.preferredWorkerId() >= 0 || this.leaf == null) {
			return request.preferredWorkerId();
		}
		return leafClaims.entrySet()
			.stream()
			.filter((entry) -> this.leaf.ownNode(entry.getValue()) != null)
			.mapToInt(Map.Entry::getKey)
			.filter((id) -> id <= request.maxWorkerId())
			.min()
			.orElse(-1);
	}

	/**
	 * Reads a namespace's slots. A slot is held while its holder node exists or Leaf claims it (unless it is this
	 * node's own Leaf worker ID, silent long enough). A recorded free slot is free since its record's last write if
	 * it was released, or about a session timeout after it if its holder's session expired. A slot only Leaf knows has
	 * no record: it is offered only as the preferred slot, never as the slot free for longest.
	 * @param readRecords whether to read when each recorded free slot was freed; without, they count as freed at once
	 */
	private List<SlotOrder.UsedSlot<Integer>> usedSlots(LeaseRequest request, String base, int preferred,
			Map<Integer, List<LeafWorkerIds.Claim>> leafClaims, Set<Integer> held, Set<Integer> recorded,
			boolean readRecords) throws Exception {
		Set<Integer> ids = new HashSet<>(held);
		ids.addAll(recorded);
		ids.addAll(leafClaims.keySet());
		List<SlotOrder.UsedSlot<Integer>> used = new ArrayList<>();
		for (int id : ids) {
			boolean free = !held.contains(id) && takeable(leafClaims.get(id)) && id <= request.maxWorkerId()
					&& request.allows(id);
			if (free && recorded.contains(id)) {
				Long freeSince = readRecords ? freeSince(base + "/slots/" + id) : Long.valueOf(0);
				used.add((freeSince != null) ? new SlotOrder.UsedSlot<>(id, true, freeSince, id)
						: SlotOrder.UsedSlot.held(id, id));
			}
			else {
				used.add((free && id == preferred) ? new SlotOrder.UsedSlot<>(id, true, Long.MAX_VALUE, id)
						: SlotOrder.UsedSlot.held(id, id));
			}
		}
		return used;
	}

	/**
	 * Returns since when a recorded slot is free by the leader's clock, or {@code null} if its record is gone.
	 */
	private @Nullable Long freeSince(String recordPath) throws Exception {
		Stat stat = new Stat();
		byte[] data;
		try {
			data = this.client.getData().storingStatIn(stat).forPath(recordPath);
		}
		catch (KeeperException.NoNodeException ex) {
			return null;
		}
		Record record = Record.parse(data, recordPath);
		return stat.getMtime() + (record.owner().equals(FREE) ? 0 : record.sessionTimeout());
	}

	private boolean takeable(@Nullable List<LeafWorkerIds.Claim> leafClaims) {
		return leafClaims == null || (this.leaf != null && this.leaf.takeable(leafClaims));
	}

	/**
	 * Takes a slot in one multi-op: creates the holder node in this session, writes the record at the version it
	 * was read, and with Leaf moves Leaf's counter past the slot. Returns {@code null} when another node (or a Leaf
	 * node) took the slot first.
	 */
	private @Nullable WorkerLease tryTake(LeaseRequest request, String base, int workerId,
			@Nullable List<LeafWorkerIds.Claim> leafClaims, long sessionTimeout) throws Exception {
		String recordPath = base + "/slots/" + workerId;
		Stat stat = new Stat();
		Record previous;
		try {
			previous = Record.parse(this.client.getData().storingStatIn(stat).forPath(recordPath), recordPath);
		}
		catch (KeeperException.NoNodeException ex) {
			stat = null;
			previous = null;
		}
		LeafNode leafNode = (this.leaf != null) ? this.leaf.ownNode(leafClaims) : null;
		long floor = (previous != null) ? previous.mark() : -1;
		if (leafNode != null) {
			floor = Math.max(floor, leafNode.timestamp() + LeafSnowflake.REPORT_INTERVAL.toMillis());
		}
		String token = UUID.randomUUID().toString();
		long mark = Math.max(floor, request.timestampCeiling());
		byte[] record = new Record(mark, token, sessionTimeout, request.instance()).bytes();
		List<CuratorOp> ops = new ArrayList<>();
		ops.add(this.client.transactionOp()
			.create()
			.withMode(CreateMode.EPHEMERAL)
			.forPath(base + "/holders/" + workerId, holderData(token, request.instance())));
		ops.add((stat != null) ? this.client.transactionOp().setData().withVersion(stat.getVersion()).forPath(recordPath, record)
				: this.client.transactionOp().create().withMode(CreateMode.PERSISTENT).forPath(recordPath, record));
		if (this.leaf != null) {
			ops.addAll(this.leaf.counterPast(workerId));
		}
		long storeTime;
		try {
			storeTime = storeTime(this.client.transaction().forOperations(ops), recordPath);
		}
		catch (KeeperException.NodeExistsException | KeeperException.BadVersionException ex) {
			// Another node took the slot first, or this multi-op committed and Curator's retry after a lost reply
			// failed on what it wrote: only the record can tell.
			Stat committed = committedBy(recordPath, token);
			if (committed == null) {
				return null;
			}
			logger.debug("the answer to the take of worker id {} of namespace '{}' was lost, but the take committed",
					workerId, request.namespace());
			storeTime = committed.getMtime();
		}
		catch (Exception ex) {
			this.unresolvedTakes.put(token, recordPath);
			throw ex;
		}
		WorkerLease taken = new WorkerLease(request.namespace(), workerId, token, request.ttl(), floor, mark, storeTime);
		return (this.leaf != null) ? checkLeafAfterTake(taken, leafNode) : taken;
	}

	/**
	 * Returns the stat of a slot's record if it names {@code token} as owner (the write that put it there
	 * committed), else {@code null}.
	 */
	private @Nullable Stat committedBy(String recordPath, String token) throws Exception {
		Stat stat = new Stat();
		try {
			Record record = Record.parse(this.client.getData().storingStatIn(stat).forPath(recordPath), recordPath);
			return record.owner().equals(token) ? stat : null;
		}
		catch (KeeperException.NoNodeException ex) {
			return null;
		}
	}

	/**
	 * Gives back the slots of takes whose outcome stayed unknown (no answer within Curator's retries) and that did
	 * commit: no caller holds a lease of them.
	 */
	private void resolveUnknownTakes() throws Exception {
		for (Map.Entry<String, String> take : this.unresolvedTakes.entrySet()) {
			String token = take.getKey();
			String recordPath = take.getValue();
			if (committedBy(recordPath, token) != null) {
				free(recordPath.replace("/slots/", "/holders/"), recordPath, token, -1);
				logger.info("gave back {}, taken by a borrow that failed without an answer", recordPath);
			}
			this.unresolvedTakes.remove(token, recordPath);
		}
	}

	/**
	 * After a take, with Leaf: a Leaf node that recorded the same worker ID before the take committed (after it was
	 * chosen) makes the take void; the slot is given back and {@code null} returned so that another is chosen. A
	 * takeover of this node's own Leaf node waits until that node has been silent long enough, and is refused if it
	 * still reports.
	 */
	private @Nullable WorkerLease checkLeafAfterTake(WorkerLease taken, @Nullable LeafNode ownLeafNode) throws Exception {
		String base = namespacePath(taken.namespace());
		long takenAt = heldSince(base + "/holders/" + taken.workerId(), base + "/slots/" + taken.workerId());
		Map<Integer, List<LeafWorkerIds.Claim>> claims = this.leaf.read();
		String conflict = this.leaf.conflict(taken.workerId(), takenAt, claims);
		if (conflict == null && ownLeafNode != null) {
			long lastReport = claims.getOrDefault(taken.workerId(), List.of())
				.stream()
				.mapToLong(LeafWorkerIds.Claim::reportedAt)
				.max()
				.orElse(0);
			try {
				conflict = this.leaf.awaitSilence(taken.workerId(), takenAt, lastReport);
			}
			catch (Exception ex) {
				// interrupted or the store failed while waiting: the slot must not stay held by nobody
				release(taken, Math.max(taken.timestampFloor(), 0));
				throw ex;
			}
		}
		if (conflict == null) {
			if (ownLeafNode != null) {
				logger.info("took over Leaf's worker id {} of {} ({}), above its last reported timestamp {}",
						taken.workerId(), ownLeafNode.address(), this.leaf.leaf().foreverPath(), ownLeafNode.timestamp());
			}
			return taken;
		}
		release(taken, Math.max(taken.timestampFloor(), 0));
		if (ownLeafNode == null) {
			logger.debug("{} while this node took it; choosing another", conflict);
			return null;
		}
		throw new LeaseStoreException("refusing to take over worker id " + taken.workerId() + " of namespace '"
				+ taken.namespace() + "' from Leaf: " + conflict + ". Stop that Leaf node, then start this node again "
				+ "(or remove id-worker.zookeeper.leaf-address to take a worker id Leaf never gave)");
	}

	/**
	 * Returns since when this owner holds a slot, by the ZooKeeper leader's clock: its holder node's creation, or
	 * without one (its session expired), the record's last write.
	 */
	private long heldSince(String holderPath, String recordPath) throws Exception {
		Stat holder = this.client.checkExists().forPath(holderPath);
		if (holder != null) {
			return holder.getCtime();
		}
		Stat record = this.client.checkExists().forPath(recordPath);
		return (record != null) ? record.getMtime() : 0;
	}

	@Override
	public WorkerLease renew(WorkerLease lease, long timestampCeiling) {
		Objects.requireNonNull(lease, "lease");
		String action = "renew worker ID " + lease.workerId() + " of namespace '" + lease.namespace() + "'";
		return call(action, () -> {
			long sessionTimeout = checkSession(lease.ttl());
			String base = namespacePath(lease.namespace());
			String holderPath = base + "/holders/" + lease.workerId();
			String recordPath = base + "/slots/" + lease.workerId();
			Stat recordStat = new Stat();
			Record record;
			try {
				record = Record.parse(this.client.getData().storingStatIn(recordStat).forPath(recordPath), recordPath);
			}
			catch (KeeperException.NoNodeException ex) {
				throw lost(lease, "its record " + recordPath + " is gone");
			}
			if (!record.owner().equals(lease.ownerToken())) {
				throw lost(lease, record.owner().equals(FREE) ? "it was released"
						: "instance '" + record.instance() + "' holds it now");
			}
			long mark = Math.max(record.mark(), timestampCeiling);
			byte[] updated = new Record(mark, lease.ownerToken(), sessionTimeout, record.instance()).bytes();
			Stat holderStat = this.client.checkExists().forPath(holderPath);
			if (this.leaf != null) {
				long heldSince = (holderStat != null) ? holderStat.getCtime() : recordStat.getMtime();
				String conflict = this.leaf.conflict(lease.workerId(), heldSince, this.leaf.read());
				if (conflict != null) {
					free(holderPath, recordPath, lease.ownerToken(), -1);
					throw WorkerIdConflictException.claimedOutside(lease, store(base), conflict,
							Instant.ofEpochMilli(heldSince));
				}
			}
			long session = this.client.getZookeeperClient().getZooKeeper().getSessionId();
			List<CuratorOp> ops = new ArrayList<>();
			if (holderStat == null) {
				// The session that held the slot expired and nobody took the slot since: hold it in this session.
				ops.add(this.client.transactionOp()
					.create()
					.withMode(CreateMode.EPHEMERAL)
					.forPath(holderPath, holderData(lease.ownerToken(), record.instance())));
			}
			else if (holderStat.getEphemeralOwner() != session) {
				throw new LeaseStoreException("could not " + action + ": its holder node " + holderPath
						+ " still belongs to an earlier ZooKeeper session (0x" + Long.toHexString(holderStat.getEphemeralOwner())
						+ ") that the ensemble has not expired yet; retrying later");
			}
			else {
				ops.add(this.client.transactionOp().check().withVersion(holderStat.getVersion()).forPath(holderPath));
			}
			ops.add(this.client.transactionOp().setData().withVersion(recordStat.getVersion()).forPath(recordPath, updated));
			if (this.leaf != null) {
				ops.addAll(this.leaf.counterPast(lease.workerId()));
			}
			try {
				long storeTime = storeTime(this.client.transaction().forOperations(ops), recordPath);
				return new WorkerLease(lease.namespace(), lease.workerId(), lease.ownerToken(), lease.ttl(),
						lease.timestampFloor(), mark, storeTime);
			}
			catch (KeeperException.NodeExistsException | KeeperException.BadVersionException
					| KeeperException.NoNodeException ex) {
				// Another node took the slot, or this multi-op committed and Curator's retry after a lost reply failed
				// on what it wrote: only the record can tell.
				return renewedMeanwhile(lease, action, recordPath, recordStat.getVersion());
			}
		});
	}

	/**
	 * After a renewal's multi-op failed: the record, read again, still names this owner and was written since
	 * {@code readVersion} only if the renewal committed (only this owner writes it with its token). Otherwise the slot
	 * is lost, or (record unchanged) its holder changed under the renewal, which is retried.
	 */
	private WorkerLease renewedMeanwhile(WorkerLease lease, String action, String recordPath, int readVersion)
			throws Exception {
		Stat stat = new Stat();
		Record now;
		try {
			now = Record.parse(this.client.getData().storingStatIn(stat).forPath(recordPath), recordPath);
		}
		catch (KeeperException.NoNodeException ex) {
			throw lost(lease, "its record " + recordPath + " is gone");
		}
		if (!now.owner().equals(lease.ownerToken())) {
			throw lost(lease, "another node took it during this renewal");
		}
		if (stat.getVersion() == readVersion) {
			throw new LeaseStoreException("could not " + action + ": its holder node changed during the renewal "
					+ "(the ZooKeeper session that held it expired); retrying later");
		}
		logger.debug("the answer to the renewal of worker id {} of namespace '{}' was lost, but the renewal committed",
				lease.workerId(), lease.namespace());
		return new WorkerLease(lease.namespace(), lease.workerId(), lease.ownerToken(), lease.ttl(),
				lease.timestampFloor(), now.mark(), stat.getMtime());
	}

	@Override
	public void release(WorkerLease lease, long lastIssuedTimestamp) {
		Objects.requireNonNull(lease, "lease");
		String action = "release worker ID " + lease.workerId() + " of namespace '" + lease.namespace() + "'";
		call(action, () -> {
			String base = namespacePath(lease.namespace());
			long mark = lease.releaseMark(lastIssuedTimestamp);
			free(base + "/holders/" + lease.workerId(), base + "/slots/" + lease.workerId(), lease.ownerToken(), mark);
			return null;
		});
	}

	/**
	 * Frees a slot if its record still names {@code token}: deletes the holder node and marks the record free, with
	 * {@code mark} as its high-water mark ({@code -1}: the record's own is kept).
	 */
	private void free(String holderPath, String recordPath, String token, long mark) throws Exception {
		Stat recordStat = new Stat();
		Record record;
		try {
			record = Record.parse(this.client.getData().storingStatIn(recordStat).forPath(recordPath), recordPath);
		}
		catch (KeeperException.NoNodeException ex) {
			return;
		}
		if (!record.owner().equals(token)) {
			return;
		}
		byte[] updated = new Record((mark >= 0) ? mark : record.mark(), FREE, record.sessionTimeout(),
				record.instance()).bytes();
		List<CuratorOp> ops = new ArrayList<>();
		Stat holderStat = this.client.checkExists().forPath(holderPath);
		if (holderStat != null) {
			ops.add(this.client.transactionOp().delete().withVersion(holderStat.getVersion()).forPath(holderPath));
		}
		ops.add(this.client.transactionOp().setData().withVersion(recordStat.getVersion()).forPath(recordPath, updated));
		try {
			this.client.transaction().forOperations(ops);
		}
		catch (KeeperException.BadVersionException | KeeperException.NoNodeException ex) {
			// Another node took the slot meanwhile (it is no longer ours to free), or this very multi-op committed and
			// its answer was lost.
		}
	}

	/**
	 * {@inheritDoc}
	 * <p>Creates the namespace's {@code layout} node; if it exists, reads it. A create whose answer was lost and that
	 * Curator sent again fails on the node it made, whose data is then this layout: the answer is the same.
	 */
	@Override
	public String recordLayout(String namespace, String layout) {
		RecordedLayout.requireStorable("layout", layout);
		String action = "record the layout of namespace '" + namespace + "'";
		return call(action, () -> {
			String path = namespacePath(namespace) + "/layout";
			for (int attempt = 1; attempt <= MAX_BORROW_ATTEMPTS; attempt++) {
				try {
					this.client.create()
						.creatingParentsIfNeeded()
						.withMode(CreateMode.PERSISTENT)
						.forPath(path, layout.getBytes(StandardCharsets.UTF_8));
					return layout;
				}
				catch (KeeperException.NodeExistsException ex) {
					try {
						return new String(this.client.getData().forPath(path), StandardCharsets.UTF_8);
					}
					catch (KeeperException.NoNodeException deleted) {
						// deleted by hand between the create and the read: create it again
					}
				}
			}
			throw new LeaseStoreException("could not " + action + ": its node " + path + " kept disappearing; find "
					+ "what else deletes it");
		});
	}

	/**
	 * {@inheritDoc}
	 * <p>Reads the {@code layout} node.
	 */
	@Override
	public @Nullable String readLayout(String namespace) {
		String action = "read the layout of namespace '" + namespace + "'";
		return call(action, () -> {
			try {
				return new String(this.client.getData().forPath(namespacePath(namespace) + "/layout"),
						StandardCharsets.UTF_8);
			}
			catch (KeeperException.NoNodeException ex) {
				return null;
			}
		});
	}

	/**
	 * {@inheritDoc}
	 * <p>Reads the {@code layout} node and writes it at the version read, so a node that changed it meanwhile makes
	 * this write fail, and the answer is {@code false}. So is the answer to a write whose reply was lost and that
	 * Curator sent again, which fails on the version it wrote: the node then holds the replacement, but whether this
	 * call or another with the same text wrote it cannot be told, and only one of them may answer {@code true}. (The
	 * lease keeper reads the record again after a {@code false}, and finds its change.)
	 */
	@Override
	public boolean replaceLayout(String namespace, String expected, String replacement) {
		Objects.requireNonNull(expected, "expected");
		RecordedLayout.requireStorable("replacement", replacement);
		String action = "replace the layout of namespace '" + namespace + "'";
		return call(action, () -> {
			String path = namespacePath(namespace) + "/layout";
			Stat stat = new Stat();
			try {
				byte[] data = this.client.getData().storingStatIn(stat).forPath(path);
				if (!expected.equals(new String(data, StandardCharsets.UTF_8))) {
					return false;
				}
				this.client.setData().withVersion(stat.getVersion()).forPath(path,
						replacement.getBytes(StandardCharsets.UTF_8));
				return true;
			}
			catch (KeeperException.NoNodeException | KeeperException.BadVersionException ex) {
				return false;
			}
		});
	}

	/**
	 * {@inheritDoc}
	 * <p>Every record under {@code slots}; a slot is held while its holder node exists, which the ensemble deletes
	 * when the holder's session expires.
	 */
	@Override
	public List<SlotMark> slotMarks(String namespace) {
		String action = "read the slot marks of namespace '" + namespace + "'";
		return call(action, () -> {
			String base = namespacePath(namespace);
			List<SlotMark> marks = new ArrayList<>();
			Set<Integer> recorded;
			Set<Integer> held;
			try {
				recorded = ids(this.client.getChildren().forPath(base + "/slots"));
				held = ids(this.client.getChildren().forPath(base + "/holders"));
			}
			catch (KeeperException.NoNodeException ex) {
				return marks;
			}
			for (int id : recorded) {
				String recordPath = base + "/slots/" + id;
				try {
					Record record = Record.parse(this.client.getData().forPath(recordPath), recordPath);
					marks.add(new SlotMark(id, record.mark(), held.contains(id)));
				}
				catch (KeeperException.NoNodeException ex) {
					// deleted by hand meanwhile: no record of it
				}
			}
			return marks;
		});
	}

	/**
	 * Returns {@code false}: a lease is held by an ephemeral node of this manager's ZooKeeper session, which lives as
	 * long as this process, whether or not the lease's owner renews.
	 */
	@Override
	public boolean leasesEndWhenRenewalsStop() {
		return false;
	}

	/**
	 * Returns the session timeout the ensemble granted, after checking that a lease of the given TTL cannot outlive
	 * the session (see the class documentation).
	 */
	private long checkSession(Duration ttl) throws Exception {
		if (this.client.getState() != CuratorFrameworkState.STARTED) {
			throw new LeaseStoreException("the Curator client for ZooKeeper " + connectString() + " is "
					+ this.client.getState() + "; start it before leasing worker ids");
		}
		int connectionTimeout = this.client.getZookeeperClient().getConnectionTimeoutMs();
		if (!this.client.getZookeeperClient().isConnected()
				&& !this.client.blockUntilConnected(connectionTimeout, TimeUnit.MILLISECONDS)) {
			throw new LeaseStoreException("no connection to ZooKeeper " + connectString() + " within "
					+ connectionTimeout + " ms; check that a majority of the ensemble is up and reachable");
		}
		long sessionTimeout = this.client.getZookeeperClient().getZooKeeper().getSessionTimeout();
		if (sessionTimeout <= 0) {
			throw new LeaseStoreException("no ZooKeeper session yet (" + connectString() + "); retrying later");
		}
		if (ttl.toMillis() > sessionTimeout) {
			throw new LeaseStoreException("the lease TTL (" + ttl.toMillis() + " ms) is longer than the ZooKeeper "
					+ "session timeout the ensemble granted (" + sessionTimeout + " ms, " + connectString() + "): a "
					+ "node cut off from the ensemble would issue IDs after its session expired and another node took "
					+ "its worker id. Set id-worker.lease.ttl to at most the session timeout, or raise the session "
					+ "timeout (id-worker.zookeeper.session-timeout, bounded by the servers' maxSessionTimeout)");
		}
		return sessionTimeout;
	}

	private static byte[] holderData(String token, String instance) {
		return (token + " " + instance).getBytes(StandardCharsets.UTF_8);
	}

	private static long storeTime(List<CuratorTransactionResult> results, String recordPath) {
		for (CuratorTransactionResult result : results) {
			if (result.getForPath().equals(recordPath) && result.getResultStat() != null
					&& result.getType() != OperationType.CHECK) {
				return result.getResultStat().getMtime();
			}
		}
		// A created record's stat is not returned by every server version; its creation time is the commit's.
		return System.currentTimeMillis();
	}

	private void ensurePath(String path) throws Exception {
		if (this.client.checkExists().forPath(path) == null) {
			try {
				this.client.create().creatingParentsIfNeeded().withMode(CreateMode.PERSISTENT).forPath(path);
			}
			catch (KeeperException.NodeExistsException ex) {
				// created by another node meanwhile
			}
		}
	}

	private static Set<Integer> ids(List<String> children) {
		Set<Integer> ids = new HashSet<>();
		for (String child : children) {
			try {
				ids.add(Integer.parseInt(child));
			}
			catch (NumberFormatException ex) {
				// not a slot
			}
		}
		return ids;
	}

	/**
	 * Returns the path of a namespace's nodes; the namespace is URL-encoded so that any name is one path segment.
	 * @param namespace the lease namespace
	 * @return the path
	 */
	String namespacePath(String namespace) {
		String segment = URLEncoder.encode(namespace, StandardCharsets.UTF_8);
		if (segment.equals(".") || segment.equals("..") || segment.equals("zookeeper")) {
			segment = "%" + segment;
		}
		return this.rootPath + "/" + segment;
	}

	private String connectString() {
		try {
			return this.client.getZookeeperClient().getCurrentConnectionString();
		}
		catch (RuntimeException ex) {
			return "(connect string unknown)";
		}
	}

	private LeaseLostException lost(WorkerLease lease, String why) {
		return LeaseLostException.notHeld(lease, store(namespacePath(lease.namespace())), why);
	}

	/** Where a namespace's slots are, in messages. */
	private String store(String base) {
		return "ZooKeeper " + connectString() + ", " + base;
	}

	private <T> T call(String action, LeaseStoreCall.Body<T> call) {
		return LeaseStoreCall.run(action, "ZooKeeper " + connectString(), call, (ex) -> {
			if (ex instanceof KeeperException.NoAuthException) {
				return new LeaseStoreException("ZooKeeper " + connectString() + " refused to let this client " + action
						+ " (" + ex.getMessage() + "); give it read/write rights on " + this.rootPath
						+ " (id-worker.zookeeper.auth-digest, ACL)", ex);
			}
			return new LeaseStoreException("could not " + action + " on ZooKeeper " + connectString() + ": " + ex
					+ "; check that a majority of the ensemble is up and reachable from this node", ex);
		});
	}

	/**
	 * A slot's persistent record: {@code <mark> <owner> <sessionTimeoutMillis> <instance>}.
	 */
	record Record(long mark, String owner, long sessionTimeout, String instance) {

		byte[] bytes() {
			return (this.mark + " " + this.owner + " " + this.sessionTimeout + " " + this.instance)
				.getBytes(StandardCharsets.UTF_8);
		}

		static Record parse(byte[] data, String path) {
			String text = new String(data, StandardCharsets.UTF_8);
			String[] parts = text.split(" ", 4);
			try {
				return new Record(Long.parseLong(parts[0]), parts[1], Long.parseLong(parts[2]),
						(parts.length > 3) ? parts[3] : "");
			}
			catch (RuntimeException ex) {
				throw new LeaseStoreException("ZooKeeper node " + path + " does not hold a worker-id record ('" + text
						+ "'); another program writes under the id-starter root path: give id-starter a path of its "
						+ "own (id-worker.zookeeper.root-path)", ex);
			}
		}

	}

}
