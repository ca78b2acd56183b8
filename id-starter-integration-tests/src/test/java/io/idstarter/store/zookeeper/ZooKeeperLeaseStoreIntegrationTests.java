package io.idstarter.store.zookeeper;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import io.idstarter.lease.ISequenceManager;
import io.idstarter.lease.LeaseRequest;
import io.idstarter.lease.LeaseStoreException;
import io.idstarter.lease.WorkerLease;
import io.idstarter.store.ensemble.AbstractEnsembleLeaseStoreTests;
import io.idstarter.testsupport.TcpProxy;
import io.idstarter.testsupport.TestBackends;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * {@link ZooKeeperLeaseStore} against the three-member ensemble of {@code TestBackends.zookeeper()}, each class
 * run under a root path of its own.
 *
 * <p>A ZooKeeper lease ends when its holder's session expires, and Curator keeps a session alive with pings whether
 * or not the keeper renews: a lease that the contract lets expire is therefore borrowed on a session of its own (the
 * lease's TTL as session timeout) through a proxy, which is cut so that the session goes silent and the ensemble
 * expires it.
 */
class ZooKeeperLeaseStoreIntegrationTests extends AbstractEnsembleLeaseStoreTests {

	private final String rootPath = "/idstarter-test/" + java.util.UUID.randomUUID();

	private CuratorFramework admin;

	private TcpProxy silenced;

	@Override
	protected ISequenceManager connect(List<AutoCloseable> closeables) {
		CuratorFramework client = ZooKeeperTestClients.start(TestBackends.zookeeper().connectString(), TTL);
		closeables.add(client);
		if (this.admin == null) {
			this.admin = client;
		}
		return new ZooKeeperLeaseStore(client, this.rootPath, null);
	}

	@Override
	protected List<String> identityParts() {
		return List.of("ZooKeeper lease store, path " + this.rootPath);
	}

	@Test
	void identityLeavesOutTheMembersSoThatAGrowingEnsembleIsTheSameStore() {
		for (String member : TestBackends.zookeeper().members()) {
			assertThat(manager().identity()).doesNotContain(member);
		}
	}

	@AfterAll
	void deleteRootPath() {
		if (this.admin != null) {
			deleteQuietly(this.admin, this.rootPath);
		}
	}

	@Override
	protected ISequenceManager connectThrough(TcpProxy proxy, Duration ttl, List<AutoCloseable> closeables) {
		CuratorFramework client = ZooKeeperTestClients.start("127.0.0.1:" + proxy.port(), ttl);
		closeables.add(client);
		return new ZooKeeperLeaseStore(client, this.rootPath, null);
	}

	@Override
	protected WorkerLease borrowExpiring(LeaseRequest request) {
		this.silenced = proxyToAMember();
		opened().add(this.silenced);
		return connectThrough(this.silenced, request.ttl(), opened()).borrow(request);
	}

	@Override
	protected void letExpire(WorkerLease lease) throws InterruptedException {
		this.silenced.cut();
		super.letExpire(lease);
	}

	@Override
	protected TcpProxy proxyToAMember() {
		String first = TestBackends.zookeeper().members().get(0);
		return TcpProxy.start(first.substring(0, first.lastIndexOf(':')),
				Integer.parseInt(first.substring(first.lastIndexOf(':') + 1)));
	}

	@Override
	protected Map<String, String> snapshot(String namespace) {
		Map<String, String> nodes = new TreeMap<>();
		String base = new ZooKeeperLeaseStore(this.admin, this.rootPath, null).namespacePath(namespace);
		try {
			for (String dir : List.of("holders", "slots")) {
				for (String child : this.admin.getChildren().forPath(base + "/" + dir)) {
					Stat stat = new Stat();
					byte[] data = this.admin.getData().storingStatIn(stat).forPath(base + "/" + dir + "/" + child);
					nodes.put(dir + "/" + child, new String(data) + " @" + stat.getVersion());
				}
			}
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
		return nodes;
	}

	@Override
	protected boolean holderExists(String namespace, int workerId) {
		String base = new ZooKeeperLeaseStore(this.admin, this.rootPath, null).namespacePath(namespace);
		try {
			return this.admin.checkExists().forPath(base + "/holders/" + workerId) != null;
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
	}

	@Test
	void aLeaseLongerThanTheSessionIsRefusedNamingBothTimes() {
		CuratorFramework client = ZooKeeperTestClients.start(TestBackends.zookeeper().connectString(),
				Duration.ofSeconds(4));
		opened().add(client);
		ZooKeeperLeaseStore shortSession = new ZooKeeperLeaseStore(client, this.rootPath, null);
		assertThatExceptionOfType(LeaseStoreException.class)
			.isThrownBy(() -> shortSession.borrow(request(namespace(), 3, Duration.ofSeconds(5), -1, 0)))
			.withMessageContaining("lease TTL (5000 ms)")
			.withMessageContaining("session timeout the ensemble granted (4000 ms")
			.withMessageContaining("id-worker.lease.ttl");
		assertThat(shortSession.borrow(request(namespace(), 3, Duration.ofSeconds(4), -1, 0)).workerId()).isZero();
	}

	@Test
	void aNamespaceIsOnePathSegmentWhateverItsCharacters() throws Exception {
		ZooKeeperLeaseStore manager = (ZooKeeperLeaseStore) manager();
		String namespace = "a/b c/" + java.util.UUID.randomUUID();
		manager.borrow(request(namespace, 3, TTL, -1, 0));
		String path = manager.namespacePath(namespace);
		assertThat(path.substring(this.rootPath.length() + 1)).doesNotContain("/");
		assertThat(this.admin.getChildren().forPath(path)).containsExactlyInAnyOrder("holders", "slots");
		assertThat(manager.namespacePath("..")).isEqualTo(this.rootPath + "/%..");
	}

	@Test
	void aRecordWrittenByAnotherProgramIsReportedNotOverwritten() throws Exception {
		ZooKeeperLeaseStore manager = (ZooKeeperLeaseStore) manager();
		String namespace = namespace();
		String path = manager.namespacePath(namespace) + "/slots/0";
		this.admin.create().creatingParentsIfNeeded().forPath(path, "not a record".getBytes());
		manager.borrow(request(namespace, 1, TTL, -1, 0));
		assertThatExceptionOfType(LeaseStoreException.class)
			.isThrownBy(() -> manager.borrow(request(namespace, 1, TTL, 0, 0)))
			.withMessageContaining(path)
			.withMessageContaining("not a record")
			.withMessageContaining("id-worker.zookeeper.root-path");
		assertThat(new String(this.admin.getData().forPath(path))).isEqualTo("not a record");
	}

	@Test
	void theLayoutIsANodeBesideTheSlotsAndOneWrittenByAnotherToolIsReadAsItIs() throws Exception {
		ZooKeeperLeaseStore manager = (ZooKeeperLeaseStore) manager();
		String namespace = namespace();
		String path = manager.namespacePath(namespace) + "/layout";
		this.admin.create().creatingParentsIfNeeded().forPath(path, "written by zkCli".getBytes(StandardCharsets.UTF_8));
		assertThat(manager.recordLayout(namespace, "mine")).isEqualTo("written by zkCli");
		WorkerLease lease = manager.borrow(request(namespace, 0, TTL, -1, 0));
		assertThat(lease.workerId()).isZero();
		assertThat(this.admin.getChildren().forPath(manager.namespacePath(namespace)))
			.containsExactlyInAnyOrder("holders", "slots", "layout");
		assertThat(snapshot(namespace)).containsOnlyKeys("holders/0", "slots/0");
		assertThat(manager.replaceLayout(namespace, "written by zkCli", "mine")).isTrue();
		assertThat(new String(this.admin.getData().forPath(path), StandardCharsets.UTF_8)).isEqualTo("mine");
		this.admin.delete().forPath(path);
		assertThat(manager.replaceLayout(namespace, "mine", "other")).as("a deleted record is no record").isFalse();
		assertThat(manager.recordLayout(namespace, "other")).isEqualTo("other");
	}

	static void deleteQuietly(CuratorFramework client, String path) {
		try {
			client.delete().deletingChildrenIfNeeded().forPath(path);
		}
		catch (KeeperException.NoNodeException ex) {
			// nothing to delete
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
	}

}
