package io.idstarter.lease;

import java.time.Duration;
import java.time.Instant;

import io.idstarter.time.ManualTimeSource;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * What {@link InMemoryLeaseStore} adds to the lease contract (which {@code InMemoryLeaseStoreContractTests} in
 * id-starter-test-support checks): its test hooks (holder, high-water mark, early expiry, outages) and messages.
 */
class InMemoryLeaseStoreTests {

	private static final Instant START = Instant.parse("2026-01-01T00:00:00Z");

	private static final long START_MILLIS = START.toEpochMilli();

	private static final Duration TTL = Duration.ofSeconds(30);

	private final ManualTimeSource storeClock = new ManualTimeSource(START);

	private final InMemoryLeaseStore manager = new InMemoryLeaseStore(this.storeClock);

	private static LeaseRequest request(int maxWorkerId, int preferred, String instance, long ceiling) {
		return new LeaseRequest("ns", maxWorkerId, TTL, preferred, instance, ceiling);
	}

	@Test
	void aFirstBorrowTakesTheLowestSlotWithNoFloor() {
		WorkerLease lease = this.manager.borrow(request(3, -1, "a", START_MILLIS + 30_000));
		assertThat(lease.workerId()).isZero();
		assertThat(lease.timestampFloor()).isEqualTo(-1);
		assertThat(lease.timestampCeiling()).isEqualTo(START_MILLIS + 30_000);
		assertThat(lease.storeTimeMillis()).isEqualTo(START_MILLIS);
		assertThat(lease.ttl()).isEqualTo(TTL);
		assertThat(this.manager.holder("ns", 0)).hasValue("a");
		assertThat(this.manager.highWaterMark("ns", 0)).isEqualTo(START_MILLIS + 30_000);
		assertThat(this.manager.borrow(request(3, -1, "b", 0)).workerId()).isEqualTo(1);
	}

	@Test
	void whenEverySlotIsHeldBorrowingFailsNamingTheNamespaceAndSlotCount() {
		this.manager.borrow(request(1, -1, "a", 0));
		this.manager.borrow(request(1, -1, "b", 0));
		assertThatExceptionOfType(NoFreeWorkerIdException.class)
			.isThrownBy(() -> this.manager.borrow(request(1, -1, "c", 0)))
			.withMessage("no free worker ID in namespace 'ns': all 2 slots [0, 1] are held by live leases (in-memory "
					+ "lease store); use more worker bits, a separate namespace, or fewer instances (a stopped "
					+ "instance's worker ID is free again when its lease expires, within 30s)");
	}

	@Test
	void anExpiredLeaseFreesItsSlotAndTheNextOwnerStartsAboveItsCeiling() {
		WorkerLease first = this.manager.borrow(request(0, -1, "a", START_MILLIS + 30_000));
		WorkerLease renewed = this.manager.renew(first, START_MILLIS + 40_000);
		assertThat(renewed.timestampCeiling()).isEqualTo(START_MILLIS + 40_000);
		this.storeClock.advance(TTL.minusMillis(1));
		assertThatExceptionOfType(NoFreeWorkerIdException.class)
			.isThrownBy(() -> this.manager.borrow(request(0, -1, "b", 0)));
		this.storeClock.advanceMillis(1);
		WorkerLease second = this.manager.borrow(request(0, -1, "b", START_MILLIS + 35_000));
		assertThat(second.workerId()).isZero();
		assertThat(second.timestampFloor()).isEqualTo(START_MILLIS + 40_000);
		assertThat(second.timestampCeiling()).isEqualTo(START_MILLIS + 40_000);
		assertThat(second.ownerToken()).isNotEqualTo(first.ownerToken());
	}

	@Test
	void renewalExtendsTheLeaseFromTheStoresClockAndNeverLowersTheMark() {
		WorkerLease lease = this.manager.borrow(request(0, -1, "a", START_MILLIS + 30_000));
		this.storeClock.advanceMillis(20_000);
		WorkerLease renewed = this.manager.renew(lease, START_MILLIS + 10_000);
		assertThat(renewed.timestampCeiling()).isEqualTo(START_MILLIS + 30_000);
		assertThat(renewed.storeTimeMillis()).isEqualTo(START_MILLIS + 20_000);
		this.storeClock.advanceMillis(29_999);
		assertThat(this.manager.holder("ns", 0)).hasValue("a");
		this.storeClock.advanceMillis(1);
		assertThat(this.manager.holder("ns", 0)).isEmpty();
	}

	@Test
	void renewingALeaseThatAnotherOwnerHoldsNowFails() {
		WorkerLease stale = this.manager.borrow(request(0, -1, "a", 0));
		this.manager.expire("ns", 0);
		this.manager.borrow(request(0, 0, "thief", 0));
		assertThatExceptionOfType(LeaseLostException.class).isThrownBy(() -> this.manager.renew(stale, 0))
			.withMessage("worker ID 0 of namespace 'ns' is no longer leased to this owner: instance 'thief' holds it now "
					+ "(this lease expired at 2026-01-01T00:00:30Z by the store's clock, or earlier) (in-memory lease "
					+ "store); stop issuing IDs under it and borrow a worker ID again");
	}

	@Test
	void anExpiredLeaseThatNobodyTookIsStillRenewedByItsOwner() {
		WorkerLease lease = this.manager.borrow(request(0, -1, "a", START_MILLIS + 30_000));
		this.storeClock.advance(TTL.plusSeconds(10));
		assertThat(this.manager.holder("ns", 0)).isEmpty();
		WorkerLease renewed = this.manager.renew(lease, START_MILLIS + 70_000);
		assertThat(renewed.timestampCeiling()).isEqualTo(START_MILLIS + 70_000);
		assertThat(this.manager.holder("ns", 0)).hasValue("a");
	}

	@Test
	void releaseFreesTheSlotAtOnceAndRecordsWhatWasReallyIssued() {
		WorkerLease lease = this.manager.borrow(request(0, -1, "a", START_MILLIS + 30_000));
		this.manager.release(lease, START_MILLIS + 5);
		assertThat(this.manager.holder("ns", 0)).isEmpty();
		assertThat(this.manager.highWaterMark("ns", 0)).isEqualTo(START_MILLIS + 5);
		assertThatExceptionOfType(LeaseLostException.class).isThrownBy(() -> this.manager.renew(lease, 0))
			.withMessageContaining("no longer leased to this owner: it was released");
		WorkerLease next = this.manager.borrow(request(0, -1, "b", START_MILLIS + 30_000));
		assertThat(next.timestampFloor()).isEqualTo(START_MILLIS + 5);
		// unknown: the mark stays
		this.manager.release(next, -1);
		assertThat(this.manager.highWaterMark("ns", 0)).isEqualTo(START_MILLIS + 30_000);
	}

	@Test
	void aStaleOwnerCannotReleaseTheSlotOfTheNewOwner() {
		WorkerLease stale = this.manager.borrow(request(0, -1, "a", START_MILLIS + 30_000));
		this.manager.expire("ns", 0);
		WorkerLease current = this.manager.borrow(request(0, -1, "b", START_MILLIS + 60_000));
		this.manager.release(stale, START_MILLIS);
		assertThat(this.manager.holder("ns", 0)).hasValue("b");
		assertThat(this.manager.highWaterMark("ns", 0)).isEqualTo(START_MILLIS + 60_000);
		assertThat(this.manager.renew(current, 0).workerId()).isZero();
	}

	@Test
	void anOutageFailsEveryCall() {
		WorkerLease lease = this.manager.borrow(request(3, -1, "a", 0));
		this.manager.setAvailable(false);
		assertThatExceptionOfType(LeaseStoreException.class).isThrownBy(() -> this.manager.borrow(request(3, -1, "b", 0)))
			.withMessageContaining("unavailable (simulated outage)");
		assertThatExceptionOfType(LeaseStoreException.class).isThrownBy(() -> this.manager.renew(lease, 0));
		assertThatExceptionOfType(LeaseStoreException.class).isThrownBy(() -> this.manager.release(lease, -1));
		this.manager.setAvailable(true);
		assertThat(this.manager.renew(lease, 0).workerId()).isZero();
	}

}
