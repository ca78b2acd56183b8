package io.idstarter.store.jdbc;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import io.idstarter.IdWorkerListener;
import io.idstarter.lease.ClockSkewException;
import io.idstarter.lease.LeaseRequest;
import io.idstarter.lease.LeaseSettings;
import io.idstarter.lease.LeaseStatus.State;
import io.idstarter.lease.WorkerLease;
import io.idstarter.lease.WorkerLeaseKeeper;
import io.idstarter.snowflake.ClockBackwardsPolicy;
import io.idstarter.snowflake.SnowflakeIdGenerator;
import io.idstarter.snowflake.SnowflakeLayout;
import io.idstarter.snowflake.WorkerIdUnavailableException;
import io.idstarter.testsupport.TcpProxy;
import io.idstarter.time.TimeSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * {@link WorkerLeaseKeeper} over {@link JdbcLeaseStore} on a real PostgreSQL server: generators of several
 * "nodes" in one JVM, each with its own keeper, and a node cut off from the database by a {@link TcpProxy}. Works in a
 * lease table of its own, dropped at the end.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(60)
class JdbcWorkerLeaseKeeperPostgresIntegrationTests {

	/** Two worker IDs, so that a third node has to wait for one. */
	private static final SnowflakeLayout TWO_WORKERS = SnowflakeLayout.of(SnowflakeLayout.DEFAULT_EPOCH, 50, 1, 12);

	private TestDatabase database;

	private String table;

	private String segmentTable;

	private final List<AutoCloseable> closeables = new ArrayList<>();

	private final ExecutorService executor = Executors.newCachedThreadPool();

	@BeforeAll
	void createTable() {
		this.database = TestDatabase.postgres();
		this.table = TestDatabase.unique("id_worker_lease_");
		this.segmentTable = TestDatabase.unique("leaf_alloc_");
		JdbcSchema.initialize(this.database.dataSource(), this.segmentTable, this.table);
	}

	@AfterEach
	void closeKeepers() throws Exception {
		// keepers before the proxy they may talk through
		for (int i = this.closeables.size() - 1; i >= 0; i--) {
			this.closeables.get(i).close();
		}
		this.closeables.clear();
	}

	@AfterAll
	void dropTable() {
		this.executor.shutdownNow();
		if (this.database != null) {
			this.database.dropTables(this.table, this.segmentTable);
			this.database.close();
		}
	}

	private Node node(String namespace, String instance, JdbcLeaseStore manager) {
		return node(namespace, instance, manager, TimeSource.system());
	}

	private Node node(String namespace, String instance, JdbcLeaseStore manager, TimeSource clock) {
		SnowflakeIdGenerator generator = new SnowflakeIdGenerator(TWO_WORKERS, clock,
				ClockBackwardsPolicy.defaults(), IdWorkerListener.NONE);
		LeaseSettings settings = LeaseSettings.builder()
			.namespace(namespace)
			.ttl(Duration.ofSeconds(3))
			.heartbeat(Duration.ofMillis(400))
			.safetyMargin(Duration.ofSeconds(1))
			.instance(instance)
			.build();
		WorkerLeaseKeeper keeper = new WorkerLeaseKeeper(manager, generator, settings, clock, IdWorkerListener.NONE);
		this.closeables.add(keeper);
		return new Node(generator, keeper);
	}

	@Test
	void nodesThatLeaseTheirWorkerIdsIssueNoDuplicatesBetweenThem() throws Exception {
		String namespace = TestDatabase.unique("ns_");
		JdbcLeaseStore manager = new JdbcLeaseStore(this.database.dataSource(), this.table);
		Node a = node(namespace, "node-a", manager);
		Node b = node(namespace, "node-b", manager);
		a.keeper.start();
		b.keeper.start();
		assertThat(a.generator.workerId().getAsInt()).isNotEqualTo(b.generator.workerId().getAsInt());
		int perThread = 200_000;
		List<Future<long[]>> futures = new ArrayList<>();
		for (Node node : List.of(a, a, b, b)) {
			futures.add(this.executor.submit(() -> {
				long[] ids = new long[perThread];
				for (int i = 0; i < perThread; i++) {
					ids[i] = node.generator.nextId();
				}
				return ids;
			}));
		}
		long[] all = new long[4 * perThread];
		for (int i = 0; i < futures.size(); i++) {
			System.arraycopy(futures.get(i).get(30, TimeUnit.SECONDS), 0, all, i * perThread, perThread);
		}
		Arrays.sort(all);
		for (int i = 1; i < all.length; i++) {
			assertThat(all[i]).isNotEqualTo(all[i - 1]);
		}
	}

	@Test
	void aNodeCutOffFromTheDatabaseStopsBeforeAnotherTakesItsSlotAndResumesWhenOneIsFree() throws Exception {
		String namespace = TestDatabase.unique("ns_");
		JdbcLeaseStore direct = new JdbcLeaseStore(this.database.dataSource(), this.table);
		TcpProxy proxy = this.database.startProxy();
		this.closeables.add(proxy);
		Node a = node(namespace, "node-a", new JdbcLeaseStore(this.database.dataSourceThrough(proxy), this.table));
		Node c = node(namespace, "node-c", direct);
		a.keeper.start();
		c.keeper.start();
		int slotA = a.generator.workerId().getAsInt();
		long lastA = a.generator.nextId();

		proxy.cut();
		await().atMost(Duration.ofSeconds(5)).until(() -> a.keeper.status().state() == State.LOST);
		assertThatExceptionOfType(WorkerIdUnavailableException.class).isThrownBy(a.generator::nextId);

		// node B gets A's slot only once the database has let A's lease expire: after A stopped issuing
		Node b = node(namespace, "node-b", direct);
		await().atMost(Duration.ofSeconds(5)).ignoreExceptions().until(() -> {
			b.keeper.start();
			return true;
		});
		assertThat(b.generator.workerId()).hasValue(slotA);
		long firstB = b.generator.nextId();
		assertThat(b.generator.parse(firstB).timestamp()).isAfter(a.generator.parse(lastA).timestamp());

		// A is back, finds its slot taken and both slots held: it stays stopped until one is free
		proxy.restore();
		await().atMost(Duration.ofSeconds(5))
			.until(() -> a.keeper.status().consecutiveFailures() >= 3 && a.keeper.status().state() == State.LOST);
		assertThatExceptionOfType(WorkerIdUnavailableException.class).isThrownBy(a.generator::nextId);
		c.keeper.close();
		await().atMost(Duration.ofSeconds(5)).until(() -> a.keeper.status().state() == State.ACTIVE);
		long resumed = a.generator.nextId();
		assertThat(a.generator.parse(resumed).workerId()).isNotEqualTo(slotA);
		assertThat(resumed).isGreaterThan(lastA);
	}

	@Test
	void aHealthyNodeStartsRightAfterABootRefusedForAClockADayAhead() {
		String namespace = TestDatabase.unique("ns_");
		JdbcLeaseStore manager = new JdbcLeaseStore(this.database.dataSource(), this.table);
		Node first = node(namespace, "node-a", manager);
		first.keeper.start();
		long last = first.generator.nextId();
		// the other slot stays held, so that the released one is the only slot a borrower can get
		node(namespace, "node-b", manager).keeper.start();
		first.keeper.close();
		int slot = first.generator.parse(last).workerId();
		long mark = markOf(manager, namespace, slot);

		// a VM that booted before NTP sync takes the slot just released, and the skew guard refuses it
		Node ahead = node(namespace, "node-f", manager, offset(Duration.ofDays(1)));
		assertThatExceptionOfType(ClockSkewException.class).isThrownBy(ahead.keeper::start);
		assertThat(markOf(manager, namespace, slot)).isEqualTo(mark);

		Node healthy = node(namespace, "node-h", manager);
		healthy.keeper.start();
		assertThat(healthy.generator.workerId()).hasValue(slot);
		assertThat(healthy.generator.nextId()).isGreaterThan(last);
	}

	@Test
	void aNodeGivesBackASlotWhoseFloorItsClockCannotReachAndTakesAnother() {
		String namespace = TestDatabase.unique("ns_");
		JdbcLeaseStore manager = new JdbcLeaseStore(this.database.dataSource(), this.table);
		long farAhead = System.currentTimeMillis() + Duration.ofDays(1).toMillis();
		// a slot poisoned by an earlier version that kept a refused node's ceiling
		WorkerLease poisoned = manager.borrow(new LeaseRequest(namespace, 1, Duration.ofSeconds(3), 0, "old",
				farAhead));
		manager.release(poisoned, -1);
		// slot 1 used and given back later, so that the poisoned slot 0 is the one free for longest: taken first
		WorkerLease used = manager.borrow(new LeaseRequest(namespace, 1, Duration.ofSeconds(3), 1, "old",
				System.currentTimeMillis()));
		manager.release(used, -1);

		Node healthy = node(namespace, "node-h", manager);
		healthy.keeper.start();
		assertThat(healthy.generator.workerId()).hasValue(1);
		healthy.generator.nextId();
		assertThat(markOf(manager, namespace, 0)).isEqualTo(farAhead);
	}

	/** Reads a slot's mark the way a borrower sees it: borrow it as the preferred slot, then release it unchanged. */
	private static long markOf(JdbcLeaseStore manager, String namespace, int slot) {
		WorkerLease probe = manager.borrow(new LeaseRequest(namespace, 1, Duration.ofSeconds(3), slot, "probe", 0));
		assertThat(probe.workerId()).isEqualTo(slot);
		manager.release(probe, probe.timestampFloor());
		return probe.timestampFloor();
	}

	private static TimeSource offset(Duration offset) {
		return new TimeSource() {

			@Override
			public long currentTimeMillis() {
				return System.currentTimeMillis() + offset.toMillis();
			}

			@Override
			public long nanoTime() {
				return System.nanoTime();
			}

		};
	}

	private record Node(SnowflakeIdGenerator generator, WorkerLeaseKeeper keeper) {
	}

}
