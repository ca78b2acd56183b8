package io.idstarter.store.ensemble;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

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
import io.idstarter.testsupport.contract.AbstractLeaseStoreContractTests;
import io.idstarter.time.TimeSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * A store on a coordination service (ZooKeeper, etcd) against a real three-member ensemble: the lease contract of
 * {@link AbstractLeaseStoreContractTests}, with expiry decided by the server (a lease the kit lets expire ends
 * when the server drops its holder: a ZooKeeper session gone silent, an etcd lease not kept alive), and what only an
 * ensemble can show: holders the server expires after a client is cut off, and a keeper that refuses before another
 * node can hold its worker ID. Subclasses connect; each test works in a namespace
 * of its own.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class AbstractEnsembleLeaseStoreTests extends AbstractLeaseStoreContractTests {

	/** TTL (and session timeout) of a holder that is cut off: the server expires it this long after the cut. */
	protected static final Duration CUT_OFF_TTL = Duration.ofSeconds(2);

	private final List<AutoCloseable> opened = new ArrayList<>();

	private ISequenceManager manager;

	/**
	 * Connects a manager to the ensemble, for leases of up to {@link #TTL}.
	 * @param closeables collects what must be closed at the end
	 * @return the manager
	 */
	protected abstract ISequenceManager connect(List<AutoCloseable> closeables);

	/**
	 * Connects a manager to one member of the ensemble through a proxy, for leases of the given TTL: its ZooKeeper
	 * session times out after that TTL; an etcd lease has the TTL of each lease anyway.
	 * @param proxy a proxy to one member, from {@link #proxyToAMember()}
	 * @param ttl the TTL of the leases to borrow through it
	 * @param closeables collects what must be closed at the end
	 * @return the manager
	 */
	protected abstract ISequenceManager connectThrough(TcpProxy proxy, Duration ttl, List<AutoCloseable> closeables);

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

	@Override
	protected ISequenceManager createManager() {
		return this.manager;
	}

	/**
	 * Waits the lease's TTL, then until the server has dropped its holder: the server expires holders on a schedule
	 * of its own (etcd raises a TTL to its minimum and revokes expired leases in batches; ZooKeeper expires sessions
	 * on its ticks).
	 */
	@Override
	protected void letExpire(WorkerLease lease) throws InterruptedException {
		long started = System.nanoTime();
		Thread.sleep(lease.ttl().toMillis());
		await().atMost(Duration.ofSeconds(30))
			.pollInterval(Duration.ofMillis(50))
			.until(() -> !holderExists(lease.namespace(), lease.workerId()));
		System.out.printf("%s: a lease of %d ms was dropped by the server %d ms after it was let expire%n",
				getClass().getSimpleName(), lease.ttl().toMillis(), (System.nanoTime() - started) / 1_000_000);
	}

	protected List<AutoCloseable> opened() {
		return this.opened;
	}

	@Test
	void aLeaseIsAHolderInTheStoreStampedWithTheStoresTimeAndReleaseRemovesIt() {
		String namespace = namespace();
		WorkerLease lease = manager().borrow(request(namespace, 15, TTL, -1, NOW));
		assertThat(Math.abs(lease.storeTimeMillis() - System.currentTimeMillis()))
			.isLessThan(storeClockTolerance().toMillis());
		assertThat(holderExists(namespace, 0)).isTrue();
		manager().release(lease, NOW);
		assertThat(holderExists(namespace, 0)).isFalse();
		assertThatExceptionOfType(LeaseLostException.class).isThrownBy(() -> manager().renew(lease, NOW))
			.withMessageContaining("released");
	}

	@Test
	void renewAndReleaseWithAnotherOwnerTokenWriteNothing() {
		String namespace = namespace();
		manager().borrow(request(namespace, 15, TTL, -1, NOW + 1000));
		WorkerLease impostor = new WorkerLease(namespace, 0, UUID.randomUUID().toString(), TTL, -1, NOW, NOW);
		Map<String, String> before = snapshot(namespace);
		assertThatExceptionOfType(LeaseLostException.class).isThrownBy(() -> manager().renew(impostor, NOW + 9000))
			.withMessageContaining("worker ID 0 of namespace '" + namespace + "'")
			.withMessageContaining("host-a/1");
		manager().release(impostor, NOW + 9000);
		assertThat(snapshot(namespace)).as("not one node or key written, not even its version").isEqualTo(before);
	}

	@Test
	void aHolderCutOffIsExpiredByTheServerAndTheNextOwnerStartsAboveItsMark() {
		String namespace = namespace();
		try (TcpProxy proxy = proxyToAMember()) {
			ISequenceManager cutOff = connectThrough(proxy, SHORT_TTL, this.opened);
			WorkerLease held = cutOff.borrow(request(namespace, 0, SHORT_TTL, -1, NOW + 1000));
			held = cutOff.renew(held, NOW + 3000);
			assertThatExceptionOfType(NoFreeWorkerIdException.class)
				.isThrownBy(() -> manager().borrow(request(namespace, 0, TTL, -1, NOW)));
			long cutAt = System.nanoTime();
			proxy.cut();
			WorkerLease next = await().atMost(Duration.ofSeconds(30))
				.pollInterval(Duration.ofMillis(50))
				.ignoreException(NoFreeWorkerIdException.class)
				.until(() -> manager().borrow(request(namespace, 0, TTL, -1, NOW)), (lease) -> true);
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
			assertThat(manager().renew(next, NOW + 4000).timestampCeiling()).isEqualTo(NOW + 4000);
		}
	}

	@Test
	void aKeeperCutOffRefusesBeforeAnotherNodeCanHoldItsWorkerIdAndTheNextOneStartsAboveItsCeiling() throws Exception {
		String namespace = namespace();
		// Two slots: A takes 0, a filler takes 1, so B can only ever get A's.
		SnowflakeLayout layout = SnowflakeLayout.of(SnowflakeLayout.DEFAULT_EPOCH, 41, 1, 21);
		LeaseSettings settings = LeaseSettings.builder()
			.namespace(namespace)
			.ttl(CUT_OFF_TTL)
			.heartbeat(Duration.ofMillis(500))
			.safetyMargin(Duration.ofMillis(500))
			.instance("node-a")
			.build();
		try (TcpProxy proxy = proxyToAMember()) {
			ISequenceManager cutOff = connectThrough(proxy, CUT_OFF_TTL, this.opened);
			SnowflakeIdGenerator generator = new SnowflakeIdGenerator(layout, TimeSource.system(),
					ClockBackwardsPolicy.defaults(), IdWorkerListener.NONE);
			try (WorkerLeaseKeeper keeper = new WorkerLeaseKeeper(cutOff, generator, settings, TimeSource.system(),
					IdWorkerListener.NONE)) {
				keeper.start();
				assertThat(generator.workerId()).hasValue(0);
				manager().borrow(request(namespace, 1, TTL, -1, System.currentTimeMillis()));
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
					.until(() -> manager().borrow(request(namespace, 1, TTL, -1, System.currentTimeMillis())),
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

	protected static LeaseRequest request(String namespace, int maxWorkerId, Duration ttl, int preferred,
			long ceiling) {
		return new LeaseRequest(namespace, maxWorkerId, ttl, preferred, "host-a/1", ceiling);
	}

}
