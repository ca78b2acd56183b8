package io.idstarter.store.zookeeper;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.UUID;

import io.idstarter.IdWorkerListener;
import io.idstarter.lease.LeaseRequest;
import io.idstarter.lease.LeaseSettings;
import io.idstarter.lease.NoFreeWorkerIdException;
import io.idstarter.lease.WorkerLease;
import io.idstarter.lease.WorkerLeaseKeeper;
import io.idstarter.snowflake.ClockBackwardsPolicy;
import io.idstarter.snowflake.SnowflakeIdGenerator;
import io.idstarter.snowflake.SnowflakeLayout;
import io.idstarter.testsupport.TestBackends;
import io.idstarter.time.TimeSource;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.CreateMode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * A Leaf Snowflake deployment on the real ensemble, its nodes written as Leaf writes them (persistent sequential
 * {@code /snowflake/<leaf.name>/forever/<ip>:<port>-}, JSON data {@code {ip, port, timestamp}}): id-starter nodes
 * never take a worker ID Leaf gave, except the node on a Leaf node's own ip:port, which continues above it.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class LeafSnowflakeMigrationIntegrationTests {

	private static final Duration TTL = Duration.ofSeconds(10);

	private final String leafName = "idstarter-test-" + UUID.randomUUID();

	private final String rootPath = "/idstarter-test/" + UUID.randomUUID();

	private CuratorFramework client;

	/** Leaf's nodes: worker 0, 1 and 2, in the order Leaf created them. */
	private final List<String> addresses = List.of("10.0.0.1:8080", "10.0.0.2:8080", "10.0.0.3:8080");

	private long reportedTimestamp;

	@BeforeAll
	void writeLeafNodes() throws Exception {
		this.client = ZooKeeperTestClients.start(TestBackends.zookeeper().connectString(), Duration.ofSeconds(20));
		this.reportedTimestamp = System.currentTimeMillis() - 1000;
		for (String address : this.addresses) {
			String ip = address.substring(0, address.indexOf(':'));
			String port = address.substring(address.indexOf(':') + 1);
			String json = "{\"ip\":\"" + ip + "\",\"port\":\"" + port + "\",\"timestamp\":" + this.reportedTimestamp
					+ "}";
			this.client.create()
				.creatingParentsIfNeeded()
				.withMode(CreateMode.PERSISTENT_SEQUENTIAL)
				.forPath(new LeafSnowflake(this.leafName, null).foreverPath() + "/" + address + "-",
						json.getBytes(StandardCharsets.UTF_8));
		}
		assertThat(this.client.getChildren().forPath(new LeafSnowflake(this.leafName, null).foreverPath()))
			.containsExactlyInAnyOrder("10.0.0.1:8080-0000000000", "10.0.0.2:8080-0000000001",
					"10.0.0.3:8080-0000000002");
	}

	@AfterAll
	void deleteNodes() {
		ZooKeeperLeaseStoreIntegrationTests.deleteQuietly(this.client, "/snowflake/" + this.leafName);
		ZooKeeperLeaseStoreIntegrationTests.deleteQuietly(this.client, this.rootPath);
		this.client.close();
	}

	@Test
	void everyWorkerIdLeafGaveIsHeldForOtherNodes() {
		ZooKeeperLeaseStore manager = new ZooKeeperLeaseStore(this.client, this.rootPath,
				new LeafSnowflake(this.leafName, "10.0.0.9:8080"));
		String namespace = "leaf-held-" + UUID.randomUUID();
		assertThat(manager.borrow(request(namespace, 7, -1)).workerId()).isEqualTo(3);
		assertThat(manager.borrow(request(namespace, 7, 1)).workerId()).as("Leaf's worker 1, preferred").isEqualTo(4);
		assertThatExceptionOfType(NoFreeWorkerIdException.class)
			.isThrownBy(() -> manager.borrow(request("leaf-full-" + UUID.randomUUID(), 2, -1)))
			.withMessageContaining("or by Leaf (3 worker IDs under /snowflake/" + this.leafName + "/forever)");
	}

	@Test
	void theNodeOnALeafNodesAddressTakesOverItsWorkerIdAboveItsReportAndIssuesAboveLeafsIds() {
		LeafSnowflake leaf = new LeafSnowflake(this.leafName, this.addresses.get(1));
		ZooKeeperLeaseStore manager = new ZooKeeperLeaseStore(this.client, this.rootPath, leaf);
		String namespace = "leaf-takeover-" + UUID.randomUUID();
		SnowflakeLayout layout = LeafSnowflake.layout();
		SnowflakeIdGenerator generator = new SnowflakeIdGenerator(layout, TimeSource.system(),
				ClockBackwardsPolicy.defaults(), IdWorkerListener.NONE);
		LeaseSettings settings = LeaseSettings.builder()
			.namespace(namespace)
			.ttl(TTL)
			.heartbeat(Duration.ofSeconds(2))
			.safetyMargin(Duration.ofSeconds(2))
			.instance("successor-of-10.0.0.2")
			.build();
		long leafFloor = this.reportedTimestamp + LeafSnowflake.REPORT_INTERVAL.toMillis();
		// The greatest ID Leaf's node 1 can have issued: its last report plus one report interval.
		long greatestLeafId = layout.compose(leafFloor, 1, layout.maxSequence());
		try (WorkerLeaseKeeper keeper = new WorkerLeaseKeeper(manager, generator, settings, TimeSource.system(),
				IdWorkerListener.NONE)) {
			keeper.start();
			assertThat(generator.workerId()).as("Leaf's worker id of 10.0.0.2:8080").hasValue(1);
			long id = generator.nextId();
			assertThat(layout.parse(id).timestamp().toEpochMilli()).isGreaterThan(leafFloor);
			assertThat(id).isGreaterThan(greatestLeafId);
		}
		WorkerLease again = manager.borrow(request(namespace, 1023, -1));
		assertThat(again.workerId()).as("taken over again by the same address after release").isEqualTo(1);
		assertThat(again.timestampFloor()).isGreaterThan(leafFloor);
		ZooKeeperLeaseStore other = new ZooKeeperLeaseStore(this.client, this.rootPath,
				new LeafSnowflake(this.leafName, null));
		manager.release(again, -1);
		assertThat(other.borrow(request(namespace, 1023, 1)).workerId())
			.as("Leaf's worker 1 stays reserved for its own address").isEqualTo(3);
	}

	private static LeaseRequest request(String namespace, int maxWorkerId, int preferred) {
		return new LeaseRequest(namespace, maxWorkerId, TTL, preferred, "host-a/1", System.currentTimeMillis());
	}

}
