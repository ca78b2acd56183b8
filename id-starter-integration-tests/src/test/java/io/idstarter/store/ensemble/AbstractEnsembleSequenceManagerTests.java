package io.idstarter.store.ensemble;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.IntStream;

import io.idstarter.IdWorkerListener;
import io.idstarter.lease.ISequenceManager;
import io.idstarter.lease.LeaseSettings;
import io.idstarter.lease.LeaseLostException;
import io.idstarter.lease.LeaseRequest;
import io.idstarter.lease.NoFreeWorkerIdException;
import io.idstarter.lease.WorkerLease;
import io.idstarter.lease.WorkerLeaseKeeper;
import io.idstarter.snowflake.ClockBackwardsPolicy;
import io.idstarter.snowflake.SnowflakeIdGenerator;
import io.idstarter.snowflake.SnowflakeLayout;
import io.idstarter.snowflake.WorkerIdUnavailableException;
import io.idstarter.testsupport.TcpProxy;
import io.idstarter.time.TimeSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * The lease contract as a store on a coordination service (ZooKeeper, etcd) must keep it, against a real three-member
 * ensemble: slot order, owner-token checks, expiry decided by the server, a mark that only rises except on release,
 * and concurrent borrowers that never share a slot. Subclasses connect; each test works in a namespace of its own.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class AbstractEnsembleSequenceManagerTests {

	protected static final Duration TTL = Duration.ofSeconds(20);

	/** TTL (and session timeout) of a holder that is cut off: the server expires it this long after the cut. */
	protected static final Duration SHORT_TTL = Duration.ofSeconds(2);

	private static final long NOW = System.currentTimeMillis();

	private final List<AutoCloseable> opened = new ArrayList<>();

	private ISequenceManager manager;

	/**
	 * Connects a manager to the ensemble.
	 * @param closeables collects what must be closed at the end
	 * @return the manager
	 */
	protected abstract ISequenceManager connect(List<AutoCloseable> closeables);

	/**
	 * Connects a manager to one member of the ensemble through a proxy, with sessions or etcd leases that expire
	 * {@link #SHORT_TTL} after the last renewal.
	 * @param proxy a proxy to one member, from {@link #proxyToAMember()}
	 * @param closeables collects what must be closed at the end
	 * @return the manager
	 */
	protected abstract ISequenceManager connectThrough(TcpProxy proxy, List<AutoCloseable> closeables);

	/**
	 * Starts a proxy in front of one member.
	 * @return the proxy
	 */
	protected abstract TcpProxy proxyToAMember();

	/**
	 * Returns everything the store holds for a namespace, with versions, to compare before and after.
	 * @param namespace the namespace
	 * @return key or path to value and version
	 */
	protected abstract Map<String, String> snapshot(String namespace);

	/**
	 * Returns whether the store still shows a holder of a slot.
	 * @param namespace the namespace
	 * @param workerId the slot
	 * @return whether its holder node or key exists
	 */
	protected abstract boolean holderExists(String namespace, int workerId);

	/**
	 * Returns how far {@link WorkerLease#storeTimeMillis()} may be from this JVM's clock.
	 * @return the tolerance
	 */
	protected Duration storeClockTolerance() {
		return Duration.ofSeconds(5);
	}

	@BeforeAll
	void connectManager() {
		this.manager = connect(this.opened);
	}

	@AfterAll
	void closeAll() throws Exception {
		for (int i = this.opened.size() - 1; i >= 0; i--) {
			this.opened.get(i).close();
		}
	}

	protected ISequenceManager manager() {
		return this.manager;
	}

	protected List<AutoCloseable> opened() {
		return this.opened;
	}

	@Test
	void aFreshNamespaceLendsSlotZeroWithNoFloorAndTheRequestedCeiling() {
		String namespace = namespace();
		WorkerLease lease = this.manager.borrow(request(namespace, 15, TTL, -1, NOW + 5000));
		assertThat(lease.namespace()).isEqualTo(namespace);
		assertThat(lease.workerId()).isZero();
		assertThat(lease.timestampFloor()).isEqualTo(-1);
		assertThat(lease.timestampCeiling()).isEqualTo(NOW + 5000);
		assertThat(lease.ttl()).isEqualTo(TTL);
		assertThat(lease.ownerToken()).isNotBlank();
		assertThat(Math.abs(lease.storeTimeMillis() - System.currentTimeMillis()))
			.isLessThan(storeClockTolerance().toMillis());
		assertThat(holderExists(namespace, 0)).isTrue();
	}

	@Test
	void slotsComePreferredFirstThenNeverUsedLowestFirstThenFreeLongestFirst() throws InterruptedException {
		String namespace = namespace();
		List<WorkerLease> leases = new ArrayList<>();
		for (int i = 0; i < 3; i++) {
			leases.add(this.manager.borrow(request(namespace, 4, TTL, -1, NOW)));
		}
		assertThat(leases).extracting(WorkerLease::workerId).containsExactly(0, 1, 2);
		this.manager.release(leases.get(1), -1);
		Thread.sleep(50);
		this.manager.release(leases.get(0), -1);
		Thread.sleep(50);
		this.manager.release(leases.get(2), -1);
		assertThat(this.manager.borrow(request(namespace, 4, TTL, 2, NOW)).workerId()).as("preferred and free")
			.isEqualTo(2);
		assertThat(this.manager.borrow(request(namespace, 4, TTL, 2, NOW)).workerId())
			.as("preferred but held: the lowest never used").isEqualTo(3);
		assertThat(this.manager.borrow(request(namespace, 4, TTL, -1, NOW)).workerId()).isEqualTo(4);
		assertThat(this.manager.borrow(request(namespace, 4, TTL, -1, NOW)).workerId()).as("free for longest")
			.isEqualTo(1);
		assertThat(this.manager.borrow(request(namespace, 4, TTL, -1, NOW)).workerId()).isEqualTo(0);
		assertThatExceptionOfType(NoFreeWorkerIdException.class)
			.isThrownBy(() -> this.manager.borrow(request(namespace, 4, TTL, 1, NOW)))
			.withMessageContaining("namespace '" + namespace + "'")
			.withMessageContaining("all 5 slots [0, 4]");
	}

	@Test
	void renewRaisesTheMarkButNeverLowersIt() {
		String namespace = namespace();
		WorkerLease lease = this.manager.borrow(request(namespace, 0, TTL, -1, NOW + 1000));
		WorkerLease raised = this.manager.renew(lease, NOW + 5000);
		assertThat(raised.timestampCeiling()).isEqualTo(NOW + 5000);
		assertThat(raised.timestampFloor()).isEqualTo(-1);
		assertThat(raised.ownerToken()).isEqualTo(lease.ownerToken());
		WorkerLease kept = this.manager.renew(raised, NOW + 2000);
		assertThat(kept.timestampCeiling()).as("max(mark, requested)").isEqualTo(NOW + 5000);
		this.manager.release(kept, -1);
		assertThat(this.manager.borrow(request(namespace, 0, TTL, -1, NOW)).timestampFloor()).isEqualTo(NOW + 5000);
	}

	@Test
	void renewAndReleaseWithAnotherOwnerTokenChangeNothing() {
		String namespace = namespace();
		WorkerLease lease = this.manager.borrow(request(namespace, 15, TTL, -1, NOW + 1000));
		WorkerLease impostor = new WorkerLease(namespace, 0, UUID.randomUUID().toString(), TTL, -1, NOW, NOW);
		Map<String, String> before = snapshot(namespace);
		assertThatExceptionOfType(LeaseLostException.class).isThrownBy(() -> this.manager.renew(impostor, NOW + 9000))
			.withMessageContaining("worker id 0 of namespace '" + namespace + "'")
			.withMessageContaining("host-a/1");
		this.manager.release(impostor, NOW + 9000);
		assertThat(snapshot(namespace)).isEqualTo(before);
		WorkerLease neverBorrowed = new WorkerLease(namespace, 7, "nobody", TTL, -1, NOW, NOW);
		assertThatExceptionOfType(LeaseLostException.class).isThrownBy(() -> this.manager.renew(neverBorrowed, NOW))
			.withMessageContaining("worker id 7");
		assertThat(this.manager.renew(lease, NOW + 2000).timestampCeiling()).isEqualTo(NOW + 2000);
	}

	@Test
	void releaseFreesTheSlotAndSetsTheMarkToWhatWasIssuedNeverBelowTheFloor() {
		String namespace = namespace();
		WorkerLease lease = this.manager.borrow(request(namespace, 0, TTL, -1, NOW + 10_000));
		this.manager.release(lease, NOW + 5_000);
		assertThat(holderExists(namespace, 0)).isFalse();
		assertThatExceptionOfType(LeaseLostException.class).isThrownBy(() -> this.manager.renew(lease, NOW))
			.withMessageContaining("released");

		WorkerLease next = this.manager.borrow(request(namespace, 0, TTL, -1, NOW));
		assertThat(next.timestampFloor()).as("lowered to what was really issued").isEqualTo(NOW + 5_000);
		this.manager.release(next, NOW + 1_000);
		WorkerLease third = this.manager.borrow(request(namespace, 0, TTL, -1, NOW));
		assertThat(third.timestampFloor()).as("never below the floor of the lease released").isEqualTo(NOW + 5_000);
		this.manager.release(this.manager.renew(third, NOW + 30_000), -1);
		assertThat(this.manager.borrow(request(namespace, 0, TTL, -1, NOW)).timestampFloor())
			.as("-1 keeps the mark").isEqualTo(NOW + 30_000);
	}

	@Test
	void concurrentBorrowersOnSeparateConnectionsNeverShareASlot() throws Exception {
		String namespace = namespace();
		List<ISequenceManager> managers = new ArrayList<>();
		for (int i = 0; i < 4; i++) {
			managers.add(connect(this.opened));
		}
		List<WorkerLease> first = borrowAllConcurrently(managers, namespace, NOW + 1000);
		for (WorkerLease lease : first) {
			this.manager.release(lease, -1);
		}
		List<WorkerLease> second = borrowAllConcurrently(managers, namespace, NOW);
		assertThat(second).extracting(WorkerLease::timestampFloor).containsOnly(NOW + 1000);
		assertThatExceptionOfType(NoFreeWorkerIdException.class)
			.isThrownBy(() -> this.manager.borrow(request(namespace, 15, TTL, 3, NOW)));
	}

	private List<WorkerLease> borrowAllConcurrently(List<ISequenceManager> managers, String namespace, long ceiling)
			throws Exception {
		ExecutorService pool = Executors.newFixedThreadPool(managers.size());
		try {
			List<Future<List<WorkerLease>>> futures = new ArrayList<>();
			for (ISequenceManager borrower : managers) {
				Callable<List<WorkerLease>> task = () -> {
					List<WorkerLease> mine = new ArrayList<>();
					while (true) {
						try {
							mine.add(borrower.borrow(request(namespace, 15, TTL, -1, ceiling)));
						}
						catch (NoFreeWorkerIdException ex) {
							return mine;
						}
					}
				};
				futures.add(pool.submit(task));
			}
			List<WorkerLease> all = new ArrayList<>();
			for (Future<List<WorkerLease>> future : futures) {
				all.addAll(future.get());
			}
			assertThat(all).extracting(WorkerLease::workerId)
				.containsExactlyInAnyOrderElementsOf(IntStream.rangeClosed(0, 15).boxed().toList());
			assertThat(all).extracting(WorkerLease::ownerToken).doesNotHaveDuplicates();
			return all;
		}
		finally {
			pool.shutdownNow();
		}
	}

	@Test
	void aHolderCutOffIsExpiredByTheServerAndTheNextOwnerStartsAboveItsMark() {
		String namespace = namespace();
		try (TcpProxy proxy = proxyToAMember()) {
			ISequenceManager cutOff = connectThrough(proxy, this.opened);
			WorkerLease held = cutOff.borrow(request(namespace, 0, SHORT_TTL, -1, NOW + 1000));
			held = cutOff.renew(held, NOW + 3000);
			assertThatExceptionOfType(NoFreeWorkerIdException.class)
				.isThrownBy(() -> this.manager.borrow(request(namespace, 0, TTL, -1, NOW)));
			long cutAt = System.nanoTime();
			proxy.cut();
			WorkerLease next = await().atMost(Duration.ofSeconds(30))
				.pollInterval(Duration.ofMillis(50))
				.ignoreException(NoFreeWorkerIdException.class)
				.until(() -> this.manager.borrow(request(namespace, 0, TTL, -1, NOW)), (lease) -> true);
			long tookMillis = (System.nanoTime() - cutAt) / 1_000_000;
			assertThat(tookMillis).as("the server expires the holder no sooner than its TTL after its last call")
				.isGreaterThanOrEqualTo(SHORT_TTL.toMillis());
			assertThat(next.timestampFloor()).as("the mark survives expiry").isEqualTo(NOW + 3000);
			proxy.restore();
			WorkerLease stale = held;
			await().atMost(Duration.ofSeconds(30))
				.pollInterval(Duration.ofMillis(100))
				.untilAsserted(() -> assertThatExceptionOfType(LeaseLostException.class)
					.isThrownBy(() -> cutOff.renew(stale, NOW + 9000)));
			assertThat(this.manager.renew(next, NOW + 4000).timestampCeiling()).isEqualTo(NOW + 4000);
		}
	}

	@Test
	void aHolderWhoseLeaseExpiredRenewsItWhenNobodyTookTheSlot() {
		String namespace = namespace();
		try (TcpProxy proxy = proxyToAMember()) {
			ISequenceManager cutOff = connectThrough(proxy, this.opened);
			WorkerLease held = cutOff.borrow(request(namespace, 0, SHORT_TTL, -1, NOW + 1000));
			proxy.cut();
			await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50))
				.until(() -> !holderExists(namespace, 0));
			proxy.restore();
			WorkerLease renewed = await().atMost(Duration.ofSeconds(30))
				.pollInterval(Duration.ofMillis(100))
				.ignoreExceptionsMatching((ex) -> !(ex instanceof LeaseLostException))
				.until(() -> cutOff.renew(held, NOW + 2000), (lease) -> true);
			assertThat(renewed.timestampCeiling()).isEqualTo(NOW + 2000);
			assertThat(holderExists(namespace, 0)).isTrue();
			assertThatExceptionOfType(NoFreeWorkerIdException.class)
				.isThrownBy(() -> this.manager.borrow(request(namespace, 0, TTL, -1, NOW)));
		}
	}

	@Test
	void aKeeperCutOffRefusesBeforeAnotherNodeCanHoldItsWorkerIdAndTheNextOneStartsAboveItsCeiling() throws Exception {
		String namespace = namespace();
		// Two slots: A takes 0, a filler takes 1, so B can only ever get A's.
		SnowflakeLayout layout = SnowflakeLayout.of(SnowflakeLayout.DEFAULT_EPOCH, 41, 1, 21);
		LeaseSettings settings = LeaseSettings.builder()
			.namespace(namespace)
			.ttl(SHORT_TTL)
			.heartbeat(Duration.ofMillis(500))
			.safetyMargin(Duration.ofMillis(500))
			.instance("node-a")
			.build();
		try (TcpProxy proxy = proxyToAMember()) {
			ISequenceManager cutOff = connectThrough(proxy, this.opened);
			SnowflakeIdGenerator generator = new SnowflakeIdGenerator(layout, TimeSource.system(),
					ClockBackwardsPolicy.defaults(), IdWorkerListener.NONE);
			try (WorkerLeaseKeeper keeper = new WorkerLeaseKeeper(cutOff, generator, settings, TimeSource.system(),
					IdWorkerListener.NONE)) {
				keeper.start();
				assertThat(generator.workerId()).hasValue(0);
				this.manager.borrow(request(namespace, 1, TTL, -1, System.currentTimeMillis()));
				long lastId = generator.nextId();
				Thread.sleep(1200);
				long cutAt = System.nanoTime();
				proxy.cut();
				long refusedAt = 0;
				while (refusedAt == 0) {
					try {
						lastId = generator.nextId();
						Thread.sleep(1);
					}
					catch (WorkerIdUnavailableException ex) {
						refusedAt = System.nanoTime();
					}
				}
				WorkerLease next = await().atMost(Duration.ofSeconds(30))
					.pollInterval(Duration.ofMillis(20))
					.ignoreException(NoFreeWorkerIdException.class)
					.until(() -> this.manager.borrow(request(namespace, 1, TTL, -1, System.currentTimeMillis())),
							(lease) -> true);
				long takenAt = System.nanoTime();
				long lastTimestamp = layout.parse(lastId).timestamp().toEpochMilli();
				assertThat(next.workerId()).isZero();
				assertThat(refusedAt).as("A refused before B held its worker ID").isLessThan(takenAt);
				assertThat(next.timestampFloor()).as("B's floor: A's last ceiling, at or above A's last ID")
					.isGreaterThanOrEqualTo(lastTimestamp);
				System.out.printf("%s: cut off; A refused after %d ms, B held worker 0 after %d ms (%d ms later); "
						+ "A's last timestamp %d, B's floor %d (+%d ms)%n", getClass().getSimpleName(),
						(refusedAt - cutAt) / 1_000_000, (takenAt - cutAt) / 1_000_000,
						(takenAt - refusedAt) / 1_000_000, lastTimestamp, next.timestampFloor(),
						next.timestampFloor() - lastTimestamp);
				proxy.restore();
			}
		}
	}

	protected static String namespace() {
		return "ns-" + UUID.randomUUID();
	}

	protected static LeaseRequest request(String namespace, int maxWorkerId, Duration ttl, int preferred,
			long ceiling) {
		return new LeaseRequest(namespace, maxWorkerId, ttl, preferred, "host-a/1", ceiling);
	}

}
