package io.idstarter.store.zookeeper;

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
import java.util.concurrent.TimeUnit;

import io.idstarter.lease.ISequenceManager;
import io.idstarter.lease.LeaseLostException;
import io.idstarter.lease.LeaseRequest;
import io.idstarter.lease.LeaseStoreException;
import io.idstarter.lease.NoFreeWorkerIdException;
import io.idstarter.lease.WorkerLease;
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
 * its {@code mtime} (the leader's clock) is the store time of the last borrow, renewal or release.</li>
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
 * <p><b>Leaf compatibility.</b> With {@link LeafSnowflake} settings, every worker ID that Leaf's Snowflake recorded
 * under {@code /snowflake/<leaf name>/forever} counts as held, except the one recorded for this node's own
 * {@code ip:port}, which it may take over with Leaf's last reported timestamp plus one report interval as its floor.
 */
public class ZooKeeperSequenceManager implements ISequenceManager {

	/** Root path used when none is given. */
	public static final String DEFAULT_ROOT_PATH = "/id-starter/worker-ids";

	private static final Logger logger = LoggerFactory.getLogger(ZooKeeperSequenceManager.class);

	/** A borrow that loses this many races in a row to other nodes gives up with a store error. */
	private static final int MAX_BORROW_ATTEMPTS = 32;

	private static final String FREE = "-";

	private final CuratorFramework client;

	private final String rootPath;

	private final @Nullable LeafSnowflake leaf;

	/**
	 * Creates a manager under {@value #DEFAULT_ROOT_PATH}.
	 * @param client a started Curator client (its namespace, if any, applies)
	 */
	public ZooKeeperSequenceManager(CuratorFramework client) {
		this(client, DEFAULT_ROOT_PATH, null);
	}

	/**
	 * Creates a manager.
	 * @param client a started Curator client (its namespace, if any, applies to {@code rootPath})
	 * @param rootPath absolute path under which the namespaces' slots are kept
	 * @param leaf the Leaf Snowflake deployment whose worker IDs must be respected, or {@code null}
	 */
	public ZooKeeperSequenceManager(CuratorFramework client, String rootPath, @Nullable LeafSnowflake leaf) {
		this.client = Objects.requireNonNull(client, "client");
		this.rootPath = requirePath(rootPath);
		this.leaf = leaf;
	}

	static String requirePath(String path) {
		Objects.requireNonNull(path, "rootPath");
		if (!path.startsWith("/") || path.length() < 2 || path.endsWith("/") || path.contains("//")) {
			throw new IllegalArgumentException("rootPath must be an absolute ZooKeeper path such as '"
					+ DEFAULT_ROOT_PATH + "' (no trailing or double slash): '" + path + "'");
		}
		return path;
	}

	@Override
	public WorkerLease borrow(LeaseRequest request) {
		Objects.requireNonNull(request, "request");
		String namespace = request.namespace();
		String action = "borrow a worker id of namespace '" + namespace + "'";
		return call(action, () -> {
			long sessionTimeout = checkSession(request.ttl());
			String base = namespacePath(namespace);
			ensurePath(base + "/holders");
			ensurePath(base + "/slots");
			Map<Integer, LeafNode> leafNodes = (this.leaf != null) ? readLeafNodes(this.leaf) : Map.of();
			for (int attempt = 1; attempt <= MAX_BORROW_ATTEMPTS; attempt++) {
				Set<Integer> held = ids(this.client.getChildren().forPath(base + "/holders"));
				Set<Integer> recorded = ids(this.client.getChildren().forPath(base + "/slots"));
				int candidate = choose(request, held, recorded, leafNodes, base, sessionTimeout);
				WorkerLease lease = tryTake(request, base, candidate, leafNodes.get(candidate), sessionTimeout);
				if (lease != null) {
					return lease;
				}
				logger.debug("worker id {} of namespace '{}' was taken by another node meanwhile; choosing again",
						candidate, namespace);
			}
			throw new LeaseStoreException("could not " + action + " on ZooKeeper " + connectString() + ": lost "
					+ MAX_BORROW_ATTEMPTS + " races in a row to other nodes borrowing at the same time; retry later");
		});
	}

	/**
	 * Slot order: the preferred slot (or, with none, this node's own Leaf worker ID) if free, then the lowest slot
	 * never used, then the slot free for longest; never a slot the request excludes.
	 */
	private int choose(LeaseRequest request, Set<Integer> held, Set<Integer> recorded, Map<Integer, LeafNode> leafNodes,
			String base, long sessionTimeout) throws Exception {
		int preferred = request.preferredWorkerId();
		if (preferred < 0 && this.leaf != null) {
			preferred = leafNodes.entrySet()
				.stream()
				.filter((entry) -> entry.getValue().address().equals(this.leaf.ownAddress()))
				.mapToInt(Map.Entry::getKey)
				.filter((id) -> id <= request.maxWorkerId())
				.min()
				.orElse(-1);
		}
		if (preferred >= 0 && request.allows(preferred) && !held.contains(preferred)
				&& takeable(leafNodes.get(preferred))) {
			return preferred;
		}
		for (int id = 0; id <= request.maxWorkerId(); id++) {
			if (request.allows(id) && !held.contains(id) && !recorded.contains(id) && !leafNodes.containsKey(id)) {
				return id;
			}
			if (id == Integer.MAX_VALUE) {
				break;
			}
		}
		int longestFree = -1;
		long longestFreeSince = Long.MAX_VALUE;
		for (int id : recorded) {
			if (id > request.maxWorkerId() || !request.allows(id) || held.contains(id)
					|| !takeable(leafNodes.get(id))) {
				continue;
			}
			Stat stat = new Stat();
			byte[] data;
			try {
				data = this.client.getData().storingStatIn(stat).forPath(base + "/slots/" + id);
			}
			catch (KeeperException.NoNodeException ex) {
				continue;
			}
			Record record = Record.parse(data, base + "/slots/" + id);
			// A released slot is free since its last write; one whose holder's session expired, about a session
			// timeout after its last renewal.
			long freeSince = stat.getMtime() + (record.owner().equals(FREE) ? 0 : record.sessionTimeout());
			if (freeSince < longestFreeSince || (freeSince == longestFreeSince && id < longestFree)) {
				longestFree = id;
				longestFreeSince = freeSince;
			}
		}
		if (longestFree < 0) {
			throw new NoFreeWorkerIdException("no free worker id in namespace '" + request.namespace() + "': all "
					+ (request.maxWorkerId() + 1L) + " slots [0, " + request.maxWorkerId() + "] are held by live leases "
					+ "(ZooKeeper sessions)" + ((leafNodes.isEmpty()) ? "" : " or by Leaf (" + leafNodes.size()
							+ " worker ids under " + this.leaf.foreverPath() + ")")
					+ " (" + connectString() + ", " + base + "); use more worker bits, a separate namespace, or "
					+ "fewer instances");
		}
		return longestFree;
	}

	private boolean takeable(@Nullable LeafNode leafNode) {
		return leafNode == null || (this.leaf != null && leafNode.address().equals(this.leaf.ownAddress()));
	}

	/**
	 * Takes a slot in one multi-op: creates the holder node in this session and writes the record at the version it
	 * was read. Returns {@code null} when another node changed either first.
	 */
	private @Nullable WorkerLease tryTake(LeaseRequest request, String base, int workerId, @Nullable LeafNode leafNode,
			long sessionTimeout) throws Exception {
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
		List<CuratorTransactionResult> results;
		try {
			results = this.client.transaction().forOperations(ops);
		}
		catch (KeeperException.NodeExistsException | KeeperException.BadVersionException ex) {
			return null;
		}
		long storeTime = storeTime(results, recordPath);
		if (leafNode != null) {
			logger.info("took over Leaf's worker id {} of {} ({}), above its last reported timestamp {}", workerId,
					leafNode.address(), this.leaf.foreverPath(), leafNode.timestamp());
		}
		return new WorkerLease(request.namespace(), workerId, token, request.ttl(), floor, mark, storeTime);
	}

	@Override
	public WorkerLease renew(WorkerLease lease, long timestampCeiling) {
		Objects.requireNonNull(lease, "lease");
		String action = "renew worker id " + lease.workerId() + " of namespace '" + lease.namespace() + "'";
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
				throw new LeaseLostException(lost(lease, "its record " + recordPath + " is gone"));
			}
			if (!record.owner().equals(lease.ownerToken())) {
				throw new LeaseLostException(lost(lease, record.owner().equals(FREE) ? "it was released"
						: "it is now leased to " + record.instance()));
			}
			long mark = Math.max(record.mark(), timestampCeiling);
			byte[] updated = new Record(mark, lease.ownerToken(), sessionTimeout, record.instance()).bytes();
			Stat holderStat = this.client.checkExists().forPath(holderPath);
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
			List<CuratorTransactionResult> results;
			try {
				results = this.client.transaction().forOperations(ops);
			}
			catch (KeeperException.NodeExistsException | KeeperException.BadVersionException
					| KeeperException.NoNodeException ex) {
				throw new LeaseLostException(lost(lease, "another node took it during this renewal"));
			}
			return new WorkerLease(lease.namespace(), lease.workerId(), lease.ownerToken(), lease.ttl(),
					lease.timestampFloor(), mark, storeTime(results, recordPath));
		});
	}

	@Override
	public void release(WorkerLease lease, long lastIssuedTimestamp) {
		Objects.requireNonNull(lease, "lease");
		String action = "release worker id " + lease.workerId() + " of namespace '" + lease.namespace() + "'";
		call(action, () -> {
			String base = namespacePath(lease.namespace());
			String holderPath = base + "/holders/" + lease.workerId();
			String recordPath = base + "/slots/" + lease.workerId();
			Stat recordStat = new Stat();
			Record record;
			try {
				record = Record.parse(this.client.getData().storingStatIn(recordStat).forPath(recordPath), recordPath);
			}
			catch (KeeperException.NoNodeException ex) {
				return null;
			}
			if (!record.owner().equals(lease.ownerToken())) {
				return null;
			}
			long mark = (lastIssuedTimestamp >= 0) ? Math.max(lastIssuedTimestamp, lease.timestampFloor())
					: record.mark();
			byte[] updated = new Record(mark, FREE, record.sessionTimeout(), record.instance()).bytes();
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
				// Another node took the slot meanwhile: it is no longer ours to free.
			}
			return null;
		});
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

	private Map<Integer, LeafNode> readLeafNodes(LeafSnowflake leaf) throws Exception {
		CuratorFramework root = this.client.usingNamespace(null);
		List<String> children;
		try {
			children = root.getChildren().forPath(leaf.foreverPath());
		}
		catch (KeeperException.NoNodeException ex) {
			return Map.of();
		}
		Map<Integer, LeafNode> nodes = new HashMap<>();
		for (String child : children) {
			LeafNode node = LeafNode.parse(child, root.getData().forPath(leaf.foreverPath() + "/" + child),
					leaf.foreverPath());
			nodes.merge(node.workerId(), node, (a, b) -> (a.timestamp() >= b.timestamp()) ? a : b);
		}
		return nodes;
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

	private static String lost(WorkerLease lease, String why) {
		return "worker id " + lease.workerId() + " of namespace '" + lease.namespace()
				+ "' is no longer leased to this owner (" + why + "); stop issuing and borrow again";
	}

	private <T> T call(String action, ZooKeeperCall<T> call) {
		try {
			return call.run();
		}
		catch (LeaseLostException | LeaseStoreException | NoFreeWorkerIdException ex) {
			throw ex;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new LeaseStoreException("interrupted while trying to " + action + " on ZooKeeper " + connectString(),
					ex);
		}
		catch (KeeperException.NoAuthException ex) {
			throw new LeaseStoreException("ZooKeeper " + connectString() + " refused to let this client " + action
					+ " (" + ex.getMessage() + "); give it read/write rights on " + this.rootPath
					+ " (id-worker.zookeeper.auth-digest, ACL)", ex);
		}
		catch (Exception ex) {
			throw new LeaseStoreException("could not " + action + " on ZooKeeper " + connectString() + ": " + ex
					+ "; check that a majority of the ensemble is up and reachable from this node", ex);
		}
	}

	@FunctionalInterface
	private interface ZooKeeperCall<T> {

		T run() throws Exception;

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
