package io.idstarter.store.zookeeper;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import io.idstarter.IdWorkerListener;
import io.idstarter.lease.LeaseRequest;
import io.idstarter.lease.LeaseSettings;
import io.idstarter.lease.LeaseStatus;
import io.idstarter.lease.LeaseStoreException;
import io.idstarter.lease.WorkerIdConflictException;
import io.idstarter.lease.WorkerLease;
import io.idstarter.lease.WorkerLeaseKeeper;
import io.idstarter.snowflake.ClockBackwardsPolicy;
import io.idstarter.snowflake.SnowflakeIdGenerator;
import io.idstarter.testsupport.TestBackends;
import io.idstarter.time.TimeSource;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.CreateMode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * A Leaf Snowflake deployment that keeps running beside id-starter on the real ensemble, its nodes written as Leaf
 * writes them ({@code PERSISTENT_SEQUENTIAL} under {@code /snowflake/<leaf.name>/forever}, JSON data reported every
 * 3 s): a Leaf node started on a new address gets a worker ID above every one id-starter took, a Leaf claim on a held
 * worker ID ends the lease with an alarm, and a Leaf node that still reports cannot be taken over. Each test has a
 * Leaf deployment of its own.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class LeafCoexistenceIntegrationTests {

	private static final Duration TTL = Duration.ofSeconds(10);

	private final String rootPath = "/idstarter-test/" + UUID.randomUUID();

	private CuratorFramework client;

	private String leafName;

	private ScheduledExecutorService reporter;

	@BeforeAll
	void connect() {
		this.client = ZooKeeperTestClients.start(TestBackends.zookeeper().connectString(), Duration.ofSeconds(20));
	}

	@AfterEach
	void stopReporterAndDeleteLeafNodes() {
		if (this.reporter != null) {
			this.reporter.shutdownNow();
			this.reporter = null;
		}
		if (this.leafName != null) {
			ZooKeeperLeaseStoreIntegrationTests.deleteQuietly(this.client, "/snowflake/" + this.leafName);
		}
	}

	@AfterAll
	void deleteRootPath() {
		ZooKeeperLeaseStoreIntegrationTests.deleteQuietly(this.client, this.rootPath);
		this.client.close();
	}

	@Test
	void aLeafNodeStartedOnANewAddressAfterIdStarterJoinedGetsAWorkerIdAboveEveryHeldOne() throws Exception {
		LeafSnowflake leaf = newLeaf(null);
		startLeafNode("10.0.0.1:8080");
		ZooKeeperLeaseStore manager = new ZooKeeperLeaseStore(this.client, this.rootPath, leaf);
		String namespace = "leaf-counter-" + UUID.randomUUID();
		assertThat(manager.borrow(request(namespace, -1)).workerId()).isEqualTo(1);
		assertThat(manager.borrow(request(namespace, 5)).workerId()).isEqualTo(5);
		assertThat(startLeafNode("10.0.0.2:8080")).as("worker id of a Leaf node started afterwards").isEqualTo(6);
		assertThat(manager.borrow(request(namespace, -1)).workerId()).as("worker ids Leaf never gave, lowest first")
			.isEqualTo(2);
		assertThat(startLeafNode("10.0.0.3:8080")).isEqualTo(7);
	}

	@Test
	void aLeafNodeThatStartsWhereNoLeafNodeEverRanGetsAWorkerIdAboveTheHeldOne() throws Exception {
		LeafSnowflake leaf = newLeaf(null);
		ZooKeeperLeaseStore manager = new ZooKeeperLeaseStore(this.client, this.rootPath, leaf);
		String namespace = "leaf-none-" + UUID.randomUUID();
		assertThat(manager.borrow(request(namespace, -1)).workerId()).isZero();
		assertThat(startLeafNode("10.0.0.1:8080")).isEqualTo(1);
	}

	@Test
	void theLayoutRecordIsNeitherALeafWorkerIdNorASlot() throws Exception {
		LeafSnowflake leaf = newLeaf(null);
		startLeafNode("10.0.0.1:8080");
		ZooKeeperLeaseStore manager = new ZooKeeperLeaseStore(this.client, this.rootPath, leaf);
		String namespace = "leaf-layout-" + UUID.randomUUID();
		assertThat(manager.recordLayout(namespace, "leaf-layout")).isEqualTo("leaf-layout");
		assertThat(this.client.getChildren().forPath(leaf.foreverPath())).as("Leaf's nodes")
			.singleElement()
			.satisfies((node) -> assertThat(node).startsWith("10.0.0.1:8080-"));
		assertThat(manager.slotMarks(namespace)).isEmpty();
		assertThat(manager.borrow(request(namespace, -1)).workerId()).isEqualTo(1);
		assertThat(startLeafNode("10.0.0.2:8080")).as("Leaf's next worker id").isEqualTo(2);
		assertThat(manager.slotMarks(namespace)).extracting((mark) -> mark.workerId()).containsExactly(1);
		assertThat(manager.recordLayout(namespace, "other")).isEqualTo("leaf-layout");
	}

	@Test
	void aLeafClaimOnTheHeldWorkerIdEndsTheLeaseWithAnAlarmAndFreesTheSlot() throws Exception {
		LeafSnowflake leaf = newLeaf(null);
		ZooKeeperLeaseStore manager = new ZooKeeperLeaseStore(this.client, this.rootPath, leaf);
		String namespace = "leaf-claim-" + UUID.randomUUID();
		SnowflakeIdGenerator generator = new SnowflakeIdGenerator(LeafSnowflake.layout(), TimeSource.system(),
				ClockBackwardsPolicy.defaults(), IdWorkerListener.NONE);
		LeaseSettings settings = LeaseSettings.builder()
			.namespace(namespace)
			.ttl(TTL)
			.heartbeat(Duration.ofMillis(300))
			.safetyMargin(Duration.ofSeconds(2))
			.instance("beside-leaf")
			.build();
		try (WorkerLeaseKeeper keeper = new WorkerLeaseKeeper(manager, generator, settings, TimeSource.system(),
				IdWorkerListener.NONE)) {
			keeper.start();
			assertThat(generator.workerId()).hasValue(0);
			assertThat(keeper.alarm()).isNull();
			// A Leaf whose counter was reset (its parent node deleted and created again) records worker id 0.
			ZooKeeperLeaseStoreIntegrationTests.deleteQuietly(this.client, leaf.foreverPath());
			assertThat(startLeafNode("10.0.0.7:8080")).as("Leaf's worker id after its counter was reset").isZero();
			await().atMost(Duration.ofSeconds(10)).until(() -> keeper.alarm() != null);
			assertThat(keeper.alarm()).contains("Leaf node 10.0.0.7:8080").contains("worker id 0")
				.contains("may have been issued by both");
			await().atMost(Duration.ofSeconds(10)).until(() -> keeper.status().state() == LeaseStatus.State.ACTIVE);
			assertThat(generator.workerId()).as("the worker id borrowed instead").hasValue(1);
			assertThat(keeper.alarm()).as("the alarm stays").isNotNull();
			String record = new String(this.client.getData()
				.forPath(manager.namespacePath(namespace) + "/slots/0"), StandardCharsets.UTF_8);
			assertThat(record.split(" ")[1]).as("owner of the slot Leaf claimed").isEqualTo("-");
		}
	}

	@Test
	void aTakeoverOfALeafNodeThatStillReportsIsRefusedAndOfOneThatStoppedSucceeds() throws Exception {
		LeafSnowflake leaf = newLeaf("10.0.0.2:8080");
		startLeafNode("10.0.0.1:8080");
		String node = leaf.foreverPath() + "/10.0.0.2:8080-" + String.format("%010d", startLeafNode("10.0.0.2:8080"));
		this.reporter = Executors.newSingleThreadScheduledExecutor();
		this.reporter.scheduleWithFixedDelay(() -> report(node), 0, 3, TimeUnit.SECONDS);
		ZooKeeperLeaseStore manager = new ZooKeeperLeaseStore(this.client, this.rootPath, leaf);
		String namespace = "leaf-live-" + UUID.randomUUID();
		assertThatExceptionOfType(LeaseStoreException.class).isThrownBy(() -> manager.borrow(request(namespace, -1)))
			.withMessageContaining("refusing to take over worker id 1")
			.withMessageContaining("Leaf node 10.0.0.2:8080")
			.withMessageContaining("Stop that Leaf node");
		assertThat(this.client.checkExists().forPath(manager.namespacePath(namespace) + "/holders/1"))
			.as("holder of the refused slot").isNull();
		this.reporter.shutdownNow();
		this.reporter.awaitTermination(5, TimeUnit.SECONDS);
		WorkerLease lease = manager.borrow(request(namespace, -1));
		assertThat(lease.workerId()).as("the stopped Leaf node's worker id").isEqualTo(1);
	}

	@Test
	void aTakenOverLeafNodeThatReportsAgainEndsTheLeaseWithAnAlarm() throws Exception {
		LeafSnowflake leaf = newLeaf("10.0.0.2:8080");
		int leafWorkerId = startLeafNode("10.0.0.2:8080");
		String node = leaf.foreverPath() + "/10.0.0.2:8080-" + String.format("%010d", leafWorkerId);
		ZooKeeperLeaseStore manager = new ZooKeeperLeaseStore(this.client, this.rootPath, leaf);
		String namespace = "leaf-back-" + UUID.randomUUID();
		WorkerLease lease = manager.borrow(request(namespace, -1));
		assertThat(lease.workerId()).as("the Leaf node's worker id, taken over").isEqualTo(leafWorkerId);
		lease = manager.renew(lease, System.currentTimeMillis() + TTL.toMillis());
		report(node);
		WorkerLease held = lease;
		assertThatExceptionOfType(WorkerIdConflictException.class)
			.isThrownBy(() -> manager.renew(held, System.currentTimeMillis() + TTL.toMillis()))
			.withMessageContaining("Leaf node 10.0.0.2:8080")
			.withMessageContaining("reported its timestamp again")
			.withMessageContaining("may have been issued by both");
		assertThat(this.client.checkExists().forPath(manager.namespacePath(namespace) + "/holders/" + leafWorkerId))
			.as("holder of the slot the Leaf node runs on again").isNull();
	}

	private LeafSnowflake newLeaf(String ownAddress) {
		this.leafName = "idstarter-test-" + UUID.randomUUID();
		return new LeafSnowflake(this.leafName, ownAddress);
	}

	/**
	 * Starts a Leaf node as Leaf does on an address it never ran on: a persistent sequential node.
	 * @return its worker id, the sequence number ZooKeeper gave
	 */
	private int startLeafNode(String address) throws Exception {
		String path = this.client.create()
			.creatingParentsIfNeeded()
			.withMode(CreateMode.PERSISTENT_SEQUENTIAL)
			.forPath("/snowflake/" + this.leafName + "/forever/" + address + "-", json(address));
		return Integer.parseInt(path.substring(path.lastIndexOf('-') + 1));
	}

	private void report(String node) {
		try {
			this.client.setData().forPath(node, json(node.substring(node.lastIndexOf('/') + 1, node.lastIndexOf('-'))));
		}
		catch (Exception ex) {
			// stopped
		}
	}

	private static byte[] json(String address) {
		String ip = address.substring(0, address.indexOf(':'));
		String port = address.substring(address.indexOf(':') + 1);
		return ("{\"ip\":\"" + ip + "\",\"port\":\"" + port + "\",\"timestamp\":" + System.currentTimeMillis() + "}")
			.getBytes(StandardCharsets.UTF_8);
	}

	private static LeaseRequest request(String namespace, int preferred) {
		return new LeaseRequest(namespace, 1023, TTL, preferred, "host-a/1", System.currentTimeMillis());
	}

}
