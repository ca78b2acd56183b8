package io.idstarter.store.zookeeper;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.idstarter.lease.LeaseStoreException;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.data.Stat;
import org.jspecify.annotations.Nullable;

/**
 * The worker IDs a Leaf Snowflake deployment claims on the ensemble, and the three rules that keep id-starter's slots
 * apart from them: a worker ID Leaf recorded is held by Leaf (except for the node on its own {@code ip:port}); a
 * takeover waits until that Leaf node has stopped reporting; and Leaf's sequential counter is moved past every worker
 * ID id-starter takes, so that a Leaf node started later on a new {@code ip:port} gets a worker ID above it.
 *
 * <p>Leaf's worker ID is the sequence number ZooKeeper appends to a {@code PERSISTENT_SEQUENTIAL} node under
 * {@link LeafSnowflake#foreverPath()}: the number of children ever created there. ZooKeeper reports that parent's
 * {@code cversion} as creations plus deletions, so the next sequence number is {@code (cversion + numChildren) / 2};
 * creating and deleting a child in one multi-op raises it by one, and nobody ever sees that child.
 */
final class LeafWorkerIds {

	/**
	 * How long a Leaf node must have been silent before its worker ID is taken over: it reports every
	 * {@link LeafSnowflake#REPORT_INTERVAL} (measured from the end of one report to the next), plus two seconds for
	 * the report's own round trip and the leader's tick.
	 */
	static final long SILENCE_MILLIS = LeafSnowflake.REPORT_INTERVAL.toMillis() + 2000;

	/** The child created and deleted in one multi-op to raise Leaf's sequence number; never visible. */
	private static final String COUNTER_STEP = "id-starter-counter-step";

	private final CuratorFramework root;

	private final LeafSnowflake leaf;

	/**
	 * @param client the manager's client; Leaf's nodes are read outside its namespace
	 * @param leaf the Leaf deployment
	 */
	LeafWorkerIds(CuratorFramework client, LeafSnowflake leaf) {
		this.root = client.usingNamespace(null);
		this.leaf = leaf;
	}

	LeafSnowflake leaf() {
		return this.leaf;
	}

	/**
	 * Reads every worker ID Leaf recorded, with the ZooKeeper time of each node's last report.
	 * @return the claims by worker ID (more than one only if Leaf's nodes are inconsistent)
	 */
	Map<Integer, List<Claim>> read() throws Exception {
		List<String> children;
		try {
			children = this.root.getChildren().forPath(this.leaf.foreverPath());
		}
		catch (KeeperException.NoNodeException ex) {
			return Map.of();
		}
		Map<Integer, List<Claim>> claims = new HashMap<>();
		for (String child : children) {
			Stat stat = new Stat();
			byte[] data;
			try {
				data = this.root.getData().storingStatIn(stat).forPath(this.leaf.foreverPath() + "/" + child);
			}
			catch (KeeperException.NoNodeException ex) {
				continue;
			}
			LeafNode node = LeafNode.parse(child, data, this.leaf.foreverPath());
			claims.computeIfAbsent(node.workerId(), (id) -> new ArrayList<>()).add(new Claim(node, stat.getMtime()));
		}
		return claims;
	}

	/**
	 * Whether a worker ID may be taken by this node: Leaf never recorded it, or only for this node's own address.
	 */
	boolean takeable(@Nullable List<Claim> claims) {
		return claims == null || claims.stream().allMatch(this::own);
	}

	/**
	 * Returns this node's own Leaf node among the claims on a worker ID, if any.
	 */
	@Nullable LeafNode ownNode(@Nullable List<Claim> claims) {
		if (claims == null) {
			return null;
		}
		return claims.stream().filter(this::own).map(Claim::node).findFirst().orElse(null);
	}

	private boolean own(Claim claim) {
		return claim.node().address().equals(this.leaf.ownAddress());
	}

	/**
	 * Describes Leaf's claim on a worker ID held since {@code heldSince} (ZooKeeper time), or returns {@code null}
	 * when there is none: a Leaf node of another address recorded it, or this node's own Leaf node reported after the
	 * slot was taken over (the Leaf process runs again).
	 */
	@Nullable String conflict(int workerId, long heldSince, Map<Integer, List<Claim>> claims) {
		for (Claim claim : claims.getOrDefault(workerId, List.of())) {
			if (!own(claim)) {
				return "Leaf node " + claim.node().address() + " (" + this.leaf.foreverPath() + ") recorded worker id "
						+ workerId + " for itself";
			}
			if (claim.reportedAt() > heldSince) {
				return "Leaf node " + claim.node().address() + " (" + this.leaf.foreverPath() + "), whose worker id "
						+ workerId + " this node took over, reported its timestamp again at " + claim.reportedAt()
						+ " (after the takeover at " + heldSince + "): that Leaf process is running";
			}
		}
		return null;
	}

	/**
	 * After a takeover at {@code takenAt} (ZooKeeper time): waits until the Leaf node has been silent for
	 * {@link #SILENCE_MILLIS}, and returns the conflict if it reported after the takeover.
	 */
	@Nullable String awaitSilence(int workerId, long takenAt, long lastReport) throws Exception {
		long wait = lastReport + SILENCE_MILLIS - takenAt;
		if (wait > 0) {
			TimeUnit.MILLISECONDS.sleep(wait);
		}
		return conflict(workerId, takenAt, read());
	}

	/**
	 * Returns the operations that, appended to a multi-op, move Leaf's next sequence number past {@code workerId};
	 * none when it is past already. Creates Leaf's parent node if it is missing, so that a Leaf node started later
	 * finds the counter moved.
	 */
	List<CuratorOp> counterPast(int workerId) throws Exception {
		Stat stat = this.root.checkExists().forPath(this.leaf.foreverPath());
		if (stat == null) {
			try {
				// open, as Leaf creates it: a Leaf node must still be able to record itself there
				this.root.create()
					.creatingParentsIfNeeded()
					.withMode(CreateMode.PERSISTENT)
					.withACL(ZooDefs.Ids.OPEN_ACL_UNSAFE, true)
					.forPath(this.leaf.foreverPath());
			}
			catch (KeeperException.NodeExistsException ex) {
				// created by Leaf or another node meanwhile
			}
			stat = this.root.checkExists().forPath(this.leaf.foreverPath());
			if (stat == null) {
				throw new LeaseStoreException("Leaf's node " + this.leaf.foreverPath() + " vanished right after it was "
						+ "created; is another program deleting it?");
			}
		}
		long steps = workerId + 1L - nextSequence(stat);
		List<CuratorOp> ops = new ArrayList<>();
		String step = this.leaf.foreverPath() + "/" + COUNTER_STEP;
		for (long i = 0; i < steps; i++) {
			ops.add(this.root.transactionOp().create().withMode(CreateMode.PERSISTENT).forPath(step));
			ops.add(this.root.transactionOp().delete().forPath(step));
		}
		return ops;
	}

	/**
	 * Returns the sequence number ZooKeeper gives the next sequential child of a node.
	 */
	private static long nextSequence(Stat stat) {
		return ((long) stat.getCversion() + stat.getNumChildren()) / 2;
	}

	/**
	 * A worker ID Leaf recorded, and when its node last reported, by the ZooKeeper leader's clock.
	 */
	record Claim(LeafNode node, long reportedAt) {
	}

}
