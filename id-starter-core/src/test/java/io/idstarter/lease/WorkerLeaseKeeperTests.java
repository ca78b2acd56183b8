package io.idstarter.lease;

import io.idstarter.InvalidSettingException;

import java.util.Set;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

import io.idstarter.IdGenerationException;
import io.idstarter.IdWorkerListener;
import io.idstarter.StoreRegressionException;
import io.idstarter.lease.LeaseStatus.State;
import io.idstarter.snowflake.ClockBackwardsPolicy;
import io.idstarter.snowflake.RecordedLayout;
import io.idstarter.snowflake.SnowflakeIdGenerator;
import io.idstarter.snowflake.SnowflakeLayout;
import io.idstarter.snowflake.WorkerIdUnavailableException;
import io.idstarter.snowflake.WorkerIdUnavailableException.Reason;
import io.idstarter.time.ManualTimeSource;
import io.idstarter.time.TimeSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.awaitility.Awaitility.await;

@Timeout(60)
class WorkerLeaseKeeperTests {

	private static final Instant START = Instant.parse("2026-01-01T00:00:00Z");

	private static final long START_MILLIS = START.toEpochMilli();

	/** Two worker IDs: 0 and 1. */
	private static final SnowflakeLayout TWO_WORKERS = SnowflakeLayout.of(SnowflakeLayout.DEFAULT_EPOCH, 50, 1, 12);

	/** Four worker IDs: 0 to 3. */
	private static final SnowflakeLayout FOUR_WORKERS = SnowflakeLayout.of(SnowflakeLayout.DEFAULT_EPOCH, 49, 2, 12);

	private static final Duration TTL = Duration.ofSeconds(60);

	private static final Duration HEARTBEAT = Duration.ofSeconds(20);

	private static final Duration SAFETY_MARGIN = Duration.ofSeconds(5);

	private final String namespace = "test-" + UUID.randomUUID();

	private final ManualTimeSource storeClock = new ManualTimeSource(START);

	private final ManualTimeSource nodeClock = new ManualTimeSource(START);

	private final InMemoryLeaseStore manager = new InMemoryLeaseStore(this.storeClock);

	private final RecordingListener listener = new RecordingListener();

	private final List<WorkerLeaseKeeper> keepers = new ArrayList<>();

	private final ExecutorService executor = Executors.newCachedThreadPool();

	@TempDir
	Path directory;

	@AfterEach
	void closeKeepers() {
		this.keepers.forEach(WorkerLeaseKeeper::close);
		this.executor.shutdownNow();
	}

	private SnowflakeIdGenerator generator(SnowflakeLayout layout, TimeSource clock) {
		return new SnowflakeIdGenerator(layout, clock, ClockBackwardsPolicy.defaults(), IdWorkerListener.NONE);
	}

	private WorkerLeaseKeeper keeper(SnowflakeIdGenerator generator, TimeSource clock, String instance) {
		return keeper(generator, clock, instance, UnaryOperator.identity());
	}

	private WorkerLeaseKeeper keeper(SnowflakeIdGenerator generator, TimeSource clock, String instance,
			UnaryOperator<LeaseSettings.Builder> customizer) {
		LeaseSettings settings = customizer.apply(LeaseSettings.builder()
			.namespace(this.namespace)
			.ttl(TTL)
			.heartbeat(HEARTBEAT)
			.safetyMargin(SAFETY_MARGIN)
			.instance(instance)).build();
		WorkerLeaseKeeper keeper = new WorkerLeaseKeeper(this.manager, generator, settings, clock, this.listener);
		this.keepers.add(keeper);
		return keeper;
	}

	/**
	 * Borrows a slot as another node of the layout would, which records the layout first.
	 */
	private WorkerLease occupy(SnowflakeLayout layout, int workerId) {
		this.manager.recordLayout(this.namespace, new RecordedLayout(layout, null).format());
		WorkerLease lease = this.manager
			.borrow(new LeaseRequest(this.namespace, layout.maxWorkerId(), TTL, workerId, "other", START_MILLIS));
		assertThat(lease.workerId()).isEqualTo(workerId);
		return lease;
	}

	@Test
	void startLeasesAWorkerIdAndGrantsItToTheGenerator() {
		this.storeClock.advance(Duration.ofSeconds(2));
		SnowflakeIdGenerator generator = generator(TWO_WORKERS, this.nodeClock);
		WorkerLeaseKeeper keeper = keeper(generator, this.nodeClock, "node-a");
		assertThat(keeper.status().state()).isEqualTo(State.NOT_STARTED);
		keeper.start();
		assertThat(generator.workerId()).hasValue(0);
		assertThat(generator.parse(generator.nextId()).workerId()).isZero();
		assertThat(this.manager.holder(this.namespace, 0)).hasValue("node-a");
		assertThat(this.manager.highWaterMark(this.namespace, 0)).isEqualTo(START_MILLIS + TTL.toMillis());
		assertThat(keeper.status()).isEqualTo(new LeaseStatus(State.ACTIVE, this.namespace, 0,
				START.plus(TTL), START.plus(TTL).minus(SAFETY_MARGIN), START, 0, Duration.ofSeconds(2)));
		assertThat(this.listener.calls).containsExactly("borrow true");
		assertThat(this.listener.allCalls).containsExactly("read-layout true", "slot-marks true", "record-layout true",
				"borrow true", "read-layout true");
	}

	@Test
	void aRenewalReadsTheLayoutRecordAndWritesNoneOfIt() {
		WorkerLeaseKeeper keeper = keeper(generator(TWO_WORKERS, this.nodeClock), this.nodeClock, "node-a");
		keeper.start();
		this.listener.allCalls.clear();
		keeper.heartbeat();
		keeper.heartbeat();
		assertThat(this.listener.allCalls).as("no put-if-absent of a record that exists: on PostgreSQL a failed INSERT")
			.containsExactly("renew true", "read-layout true", "renew true", "read-layout true");
		WorkerLeaseKeeper second = keeper(generator(TWO_WORKERS, this.nodeClock), this.nodeClock, "node-b");
		this.listener.allCalls.clear();
		second.start();
		assertThat(this.listener.allCalls).as("a start that finds the record reads it")
			.containsExactly("read-layout true", "borrow true", "read-layout true");
	}

	@Test
	void eachHeartbeatRenewsTheLeaseAndMovesTheGrantOn() {
		SnowflakeIdGenerator generator = generator(TWO_WORKERS, this.nodeClock);
		WorkerLeaseKeeper keeper = keeper(generator, this.nodeClock, "node-a");
		keeper.start();
		this.nodeClock.advance(HEARTBEAT);
		this.storeClock.advance(HEARTBEAT);
		assertThat(keeper.heartbeat()).isEqualTo(HEARTBEAT);
		assertThat(this.manager.highWaterMark(this.namespace, 0))
			.isEqualTo(START_MILLIS + HEARTBEAT.toMillis() + TTL.toMillis());
		assertThat(keeper.status().lastRenewal()).isEqualTo(START.plus(HEARTBEAT));
		// the grant lasts ttl - safety margin from the renewal
		this.nodeClock.advance(TTL.minus(SAFETY_MARGIN).minusMillis(1));
		generator.nextId();
		this.nodeClock.advanceMillis(1);
		assertThatExceptionOfType(WorkerIdUnavailableException.class).isThrownBy(generator::nextId)
			.satisfies((ex) -> assertThat(ex.reason()).isEqualTo(Reason.EXPIRED));
		assertThat(this.listener.calls).containsExactly("borrow true", "renew true");
	}

	@Test
	void aLeaseTakenByAnotherNodeStopsIssuingAtOnceAndIssuingResumesOnceALeaseIsHeldAgain() {
		SnowflakeIdGenerator generator = generator(TWO_WORKERS, this.nodeClock);
		WorkerLeaseKeeper keeper = keeper(generator, this.nodeClock, "node-a");
		keeper.start();
		long before = generator.nextId();
		WorkerLease other = occupy(TWO_WORKERS, 1);
		this.manager.expire(this.namespace, 0);
		occupy(TWO_WORKERS, 0);

		keeper.heartbeat();
		assertThat(keeper.status().state()).isEqualTo(State.LOST);
		assertThatExceptionOfType(WorkerIdUnavailableException.class).isThrownBy(generator::nextId)
			.withMessageStartingWith("worker ID 0 was revoked (lease lost: worker ID 0 of namespace '"
					+ this.namespace + "' is no longer leased to this owner: instance 'other")
			.satisfies((ex) -> assertThat(ex.reason()).isEqualTo(Reason.REVOKED));

		// every slot is held: still lost, and trying
		keeper.heartbeat();
		assertThat(keeper.status().state()).isEqualTo(State.LOST);
		assertThat(keeper.status().consecutiveFailures()).isEqualTo(2);
		assertThatExceptionOfType(WorkerIdUnavailableException.class).isThrownBy(generator::nextId);

		this.manager.release(other, -1);
		this.nodeClock.advanceMillis(1);
		keeper.heartbeat();
		assertThat(keeper.status().state()).isEqualTo(State.ACTIVE);
		assertThat(keeper.status().workerId()).isEqualTo(1);
		assertThat(keeper.status().consecutiveFailures()).isZero();
		long after = generator.nextId();
		assertThat(generator.parse(after).workerId()).isEqualTo(1);
		assertThat(after).isGreaterThan(before);
	}

	@Test
	void renewalsFailingPastTheGrantsValidityStopIssuingAndASuccessfulRenewalResumesIt() {
		SnowflakeIdGenerator generator = generator(TWO_WORKERS, this.nodeClock);
		WorkerLeaseKeeper keeper = keeper(generator, this.nodeClock, "node-a");
		keeper.start();
		this.manager.setAvailable(false);
		this.nodeClock.advance(HEARTBEAT);
		this.storeClock.advance(HEARTBEAT);

		assertThat(keeper.heartbeat()).isBetween(HEARTBEAT.dividedBy(8), HEARTBEAT.multipliedBy(3).dividedBy(8));
		assertThat(keeper.status().state()).isEqualTo(State.RENEWAL_FAILING);
		assertThat(keeper.status().consecutiveFailures()).isEqualTo(1);
		generator.nextId();

		// validity ran out: ttl - safety margin after the borrow was sent
		this.nodeClock.advance(TTL.minus(SAFETY_MARGIN).minus(HEARTBEAT));
		this.storeClock.advance(TTL.minus(SAFETY_MARGIN).minus(HEARTBEAT));
		assertThatExceptionOfType(WorkerIdUnavailableException.class).isThrownBy(generator::nextId)
			.withMessageStartingWith("the lease of worker ID 0 ran out 0 ms ago without a successful renewal")
			.withMessageContaining("(the latest renewal failed: in-memory lease store is unavailable")
			.satisfies((ex) -> assertThat(ex.reason()).isEqualTo(Reason.EXPIRED))
			.havingCause()
			.isInstanceOf(LeaseStoreException.class);
		assertThat(keeper.status().state()).isEqualTo(State.LOST);
		keeper.heartbeat();
		assertThat(keeper.status().consecutiveFailures()).isEqualTo(2);

		// the store is back before it let the lease expire: the same lease is renewed
		this.manager.setAvailable(true);
		keeper.heartbeat();
		assertThat(keeper.status().state()).isEqualTo(State.ACTIVE);
		assertThat(keeper.status().consecutiveFailures()).isZero();
		assertThat(generator.parse(generator.nextId()).workerId()).isZero();
		assertThat(this.listener.calls).containsExactly("borrow true", "renew false", "renew false", "renew true");
	}

	@Test
	void aLeaseThatExpiredInTheStoreDuringAnOutageIsRenewedIfNobodyTookItAndBorrowedAgainIfSomebodyDid() {
		occupy(TWO_WORKERS, 1);
		SnowflakeIdGenerator generator = generator(TWO_WORKERS, this.nodeClock);
		WorkerLeaseKeeper keeper = keeper(generator, this.nodeClock, "node-a");
		keeper.start();
		long before = generator.nextId();
		this.manager.setAvailable(false);
		this.nodeClock.advance(TTL.plusSeconds(1));
		this.storeClock.advance(TTL.plusSeconds(1));
		keeper.heartbeat();
		assertThat(keeper.status().state()).isEqualTo(State.LOST);
		this.manager.setAvailable(true);

		// nobody took slot 0 meanwhile: the same lease is renewed
		keeper.heartbeat();
		assertThat(keeper.status().state()).isEqualTo(State.ACTIVE);
		long renewed = generator.nextId();
		assertThat(renewed).isGreaterThan(before);

		// now it expires again and node B takes it before A's store comes back
		this.manager.setAvailable(false);
		this.nodeClock.advance(TTL.plusSeconds(1));
		this.storeClock.advance(TTL.plusSeconds(1));
		keeper.heartbeat();
		this.manager.setAvailable(true);
		WorkerLease taken = this.manager
			.borrow(new LeaseRequest(this.namespace, 1, TTL, 0, "node-b", this.storeClock.currentTimeMillis()));
		assertThat(taken.workerId()).isZero();
		assertThat(taken.timestampFloor()).isGreaterThanOrEqualTo(generator.lastTimestamp());
		keeper.heartbeat();
		assertThat(keeper.status().state()).isEqualTo(State.LOST);
		assertThatExceptionOfType(WorkerIdUnavailableException.class).isThrownBy(generator::nextId)
			.withMessageContaining("instance 'node-b' holds it now")
			.satisfies((ex) -> assertThat(ex.reason()).isEqualTo(Reason.REVOKED));

		// slot 1 expired too, nobody holds it: A borrows it and goes on above its own last timestamp
		keeper.heartbeat();
		assertThat(keeper.status().state()).isEqualTo(State.ACTIVE);
		assertThat(keeper.status().workerId()).isEqualTo(1);
		long after = generator.nextId();
		assertThat(after).isGreaterThan(renewed);
		assertThat(generator.parse(after).timestamp()).isAfter(START.plus(TTL.plus(TTL)));
	}

	@Test
	void aNewOwnerOfASlotIssuesAboveThePreviousOwnersCeilingEvenWithItsClockBehind() throws Exception {
		occupy(TWO_WORKERS, 1);
		ManualTimeSource clockA = this.nodeClock;
		SnowflakeIdGenerator generatorA = generator(TWO_WORKERS, clockA);
		keeper(generatorA, clockA, "node-a").start();
		long ceilingA = this.manager.highWaterMark(this.namespace, 0);
		assertThat(ceilingA).isEqualTo(START_MILLIS + TTL.toMillis());
		// node A is cut off from the store; its lease expires there, but A does not know yet
		this.manager.expire(this.namespace, 0);

		// node B's clock is 10 s behind A's (and the store's: the skew guard is off to show the floor alone)
		ManualTimeSource clockB = new ManualTimeSource(START.minusSeconds(10));
		WorkerLeaseKeeper impatient = keeper(generator(TWO_WORKERS, clockB), clockB, "node-b",
				(settings) -> settings.maxStartupWait(Duration.ZERO).maxClockSkew(null));
		assertThatExceptionOfType(IdGenerationException.class).isThrownBy(impatient::start)
			.withMessageStartingWith("[" + this.namespace + "/worker -] no worker ID can be used: the floors of free "
					+ "slots [0] are further ahead of this node's clock than maxStartupWait (0s), the nearest by "
					+ "70000 ms, and the store has no other free slot");
		assertThat(this.manager.holder(this.namespace, 0)).isEmpty();

		SnowflakeIdGenerator generatorB = generator(TWO_WORKERS, clockB);
		WorkerLeaseKeeper keeperB = keeper(generatorB, clockB, "node-b",
				(settings) -> settings.maxStartupWait(Duration.ofMinutes(2)).maxClockSkew(null));
		Future<?> starting = this.executor.submit(keeperB::start);
		Thread.sleep(200);
		assertThat(starting).as("start waits for the clock to pass the floor").isNotDone();
		clockB.advance(Duration.ofSeconds(70));
		Thread.sleep(100);
		assertThat(starting).isNotDone();
		clockB.advanceMillis(1);
		starting.get(5, TimeUnit.SECONDS);
		assertThat(generatorB.workerId()).hasValue(0);

		// both nodes now issue with worker ID 0: A below its ceiling, B above it
		clockA.stepWallClock(TTL);
		long[] idsA = generatorA.nextIds("any", 4096);
		long[] idsB = generatorB.nextIds("any", 4096);
		assertThat(generatorA.parse(idsA[0]).timestamp().toEpochMilli()).isEqualTo(ceilingA);
		assertThat(generatorA.parse(idsA[4095]).workerId()).isZero();
		assertThat(generatorB.parse(idsB[0]).timestamp().toEpochMilli()).isGreaterThan(ceilingA);
		assertThat(generatorB.parse(idsB[0]).workerId()).isZero();
		long[] all = new long[8192];
		System.arraycopy(idsA, 0, all, 0, 4096);
		System.arraycopy(idsB, 0, all, 4096, 4096);
		assertThat(Arrays.stream(all).distinct().count()).isEqualTo(8192);
		// and A stops at its ceiling, whatever its clock says
		assertThatExceptionOfType(WorkerIdUnavailableException.class).isThrownBy(generatorA::nextId)
			.satisfies((ex) -> assertThat(ex.reason()).isEqualTo(Reason.CEILING_REACHED));
	}

	@Test
	void aNodeWhoseClockIsFurtherFromTheStoresThanTheBoundRefusesToStartAndGivesTheSlotBack() {
		ManualTimeSource behind = new ManualTimeSource(START.minusSeconds(3));
		WorkerLeaseKeeper keeper = keeper(generator(TWO_WORKERS, behind), behind, "node-a");
		assertThatExceptionOfType(ClockSkewException.class).isThrownBy(keeper::start)
			.withMessage("[" + this.namespace + "/worker 0] this node's clock is 3000 ms behind the lease store's "
					+ "(measured over a 0 ms round trip), more than maxClockSkew (2s); fix clock synchronisation "
					+ "(NTP) on this node, or raise the bound")
			.satisfies((ex) -> assertThat(ex.offsetMillis()).isEqualTo(3000));
		assertThat(this.manager.holder(this.namespace, 0)).isEmpty();
		assertThat(keeper.status().clockOffset()).isEqualTo(Duration.ofSeconds(3));

		ManualTimeSource ahead = new ManualTimeSource(START.plusSeconds(2));
		WorkerLeaseKeeper withinBound = keeper(generator(TWO_WORKERS, ahead), ahead, "node-b");
		withinBound.start();
		assertThat(withinBound.status().state()).isEqualTo(State.ACTIVE);
		assertThat(withinBound.status().clockOffset()).isEqualTo(Duration.ofSeconds(-2));
	}

	@Test
	void aStartRefusedByTheClockSkewGuardLeavesTheSlotsMarkAsItFoundIt() {
		SnowflakeIdGenerator usedGenerator = generator(TWO_WORKERS, this.nodeClock);
		WorkerLeaseKeeper used = keeper(usedGenerator, this.nodeClock, "node-a");
		used.start();
		usedGenerator.nextId();
		used.close();
		occupy(TWO_WORKERS, 1);
		assertThat(this.manager.highWaterMark(this.namespace, 0)).isEqualTo(START_MILLIS);

		// a VM booted before NTP sync, its clock a day ahead
		ManualTimeSource dayAhead = new ManualTimeSource(START.plus(Duration.ofDays(1)));
		WorkerLeaseKeeper refused = keeper(generator(TWO_WORKERS, dayAhead), dayAhead, "node-f");
		assertThatExceptionOfType(ClockSkewException.class).isThrownBy(refused::start);
		assertThat(this.manager.highWaterMark(this.namespace, 0)).isEqualTo(START_MILLIS);
		assertThat(this.manager.holder(this.namespace, 0)).isEmpty();

		this.nodeClock.advanceMillis(1);
		SnowflakeIdGenerator healthy = generator(TWO_WORKERS, this.nodeClock);
		WorkerLeaseKeeper keeper = keeper(healthy, this.nodeClock, "node-h");
		keeper.start();
		assertThat(keeper.status().workerId()).isZero();
		assertThat(healthy.parse(healthy.nextId()).timestamp()).isEqualTo(START.plusMillis(1));
	}

	@Test
	void aRefusedStartOnASlotNeverUsedLeavesItsMarkBelowAnyClock() {
		ManualTimeSource dayAhead = new ManualTimeSource(START.plus(Duration.ofDays(1)));
		WorkerLeaseKeeper refused = keeper(generator(TWO_WORKERS, dayAhead), dayAhead, "node-f");
		assertThatExceptionOfType(ClockSkewException.class).isThrownBy(refused::start);
		assertThat(this.manager.highWaterMark(this.namespace, 0)).isZero();
	}

	@Test
	void aSlotWhoseFloorIsOutOfReachIsGivenBackUnchangedAndAnotherSlotIsBorrowed() throws Exception {
		long farAhead = START.plus(Duration.ofDays(1)).toEpochMilli();
		WorkerLease poisoned = this.manager
			.borrow(new LeaseRequest(this.namespace, 3, TTL, 0, "node-f", farAhead));
		this.manager.release(poisoned, -1);
		Path cacheFile = this.directory.resolve("worker-id");
		Files.writeString(cacheFile, this.namespace + "=0\n");

		SnowflakeIdGenerator generator = generator(FOUR_WORKERS, this.nodeClock);
		WorkerLeaseKeeper keeper = keeper(generator, this.nodeClock, "node-h",
				(settings) -> settings.cacheFile(cacheFile));
		keeper.start();
		assertThat(keeper.status().workerId()).isEqualTo(1);
		assertThat(generator.parse(generator.nextId()).timestamp()).isEqualTo(START);
		assertThat(this.manager.highWaterMark(this.namespace, 0)).isEqualTo(farAhead);
		assertThat(this.manager.holder(this.namespace, 0)).isEmpty();
		assertThat(this.listener.calls).containsExactly("borrow true", "release true", "borrow true");
	}

	@Test
	void excludedWorkerIdsAreNeverBorrowedNotEvenTheOneTheCacheFileRemembers() throws Exception {
		Path cacheFile = this.directory.resolve("worker-id");
		Files.writeString(cacheFile, this.namespace + "=1\n");
		SnowflakeIdGenerator generator = generator(FOUR_WORKERS, this.nodeClock);
		WorkerLeaseKeeper keeper = keeper(generator, this.nodeClock, "node-x",
				(settings) -> settings.cacheFile(cacheFile).excludedWorkerIds(Set.of(0, 1, 2)));
		keeper.start();
		assertThat(keeper.status().workerId()).isEqualTo(3);
		assertThat(generator.parse(generator.nextId()).workerId()).isEqualTo(3);
		assertThat(this.manager.holder(this.namespace, 1)).isEmpty();
	}

	@Test
	void whenEveryFreeWorkerIdIsExcludedStartFailsNamingTheExcludedOnes() {
		occupy(FOUR_WORKERS, 3);
		WorkerLeaseKeeper keeper = keeper(generator(FOUR_WORKERS, this.nodeClock), this.nodeClock, "node-x",
				(settings) -> settings.excludedWorkerIds(Set.of(0, 1, 2)));
		assertThatExceptionOfType(NoFreeWorkerIdException.class).isThrownBy(keeper::start)
			.withMessageContaining("excluded by this node ([0, 1, 2])");
	}

	@Test
	void excludedWorkerIdsOutsideTheLayoutOrCoveringItAreRefusedNamingTheSetting() {
		assertThatExceptionOfType(InvalidSettingException.class)
			.isThrownBy(() -> keeper(generator(FOUR_WORKERS, this.nodeClock), this.nodeClock, "node-x",
					(settings) -> settings.excludedWorkerIds(Set.of(4))))
			.satisfies((ex) -> assertThat(ex.getSetting()).isEqualTo("excludedWorkerIds"))
			.withMessageContaining("worker ID 4 is above the layout's greatest worker ID 3");
		assertThatExceptionOfType(InvalidSettingException.class)
			.isThrownBy(() -> keeper(generator(FOUR_WORKERS, this.nodeClock), this.nodeClock, "node-x",
					(settings) -> settings.excludedWorkerIds(Set.of(0, 1, 2, 3))))
			.withMessageContaining("excludes all 4 worker IDs");
	}

	@Test
	void whenEveryFreeSlotsFloorIsOutOfReachStartFailsNamingThem() {
		long farAhead = START.plus(Duration.ofDays(1)).toEpochMilli();
		for (int workerId = 0; workerId <= 1; workerId++) {
			WorkerLease poisoned = this.manager
				.borrow(new LeaseRequest(this.namespace, 1, TTL, workerId, "node-f", farAhead + workerId));
			this.manager.release(poisoned, -1);
		}
		WorkerLeaseKeeper keeper = keeper(generator(TWO_WORKERS, this.nodeClock), this.nodeClock, "node-h");
		assertThatExceptionOfType(IdGenerationException.class).isThrownBy(keeper::start)
			.withMessageStartingWith("[" + this.namespace + "/worker -] no worker ID can be used: the floors of free "
					+ "slots [0, 1] are further ahead of this node's clock than maxStartupWait (60s), the nearest by "
					+ "86400000 ms, and the store has no other free slot (no free worker ID in namespace '"
					+ this.namespace + "': all 2 slots [0, 1] are held by live leases or excluded by this node "
					+ "([0, 1]) (in-memory lease store)");
		assertThat(this.manager.highWaterMark(this.namespace, 0)).isEqualTo(farAhead);
		assertThat(this.manager.highWaterMark(this.namespace, 1)).isEqualTo(farAhead + 1);
	}

	@Test
	void aClockThatDriftsBeyondTheBoundStopsIssuingAtTheNextRenewalAndIssuingResumesOnceItIsBack() {
		SnowflakeIdGenerator generator = generator(TWO_WORKERS, this.nodeClock);
		WorkerLeaseKeeper keeper = keeper(generator, this.nodeClock, "node-a");
		keeper.start();
		generator.nextId();

		this.nodeClock.stepWallClock(Duration.ofSeconds(5));
		this.storeClock.advance(HEARTBEAT);
		this.nodeClock.advance(HEARTBEAT);
		keeper.heartbeat();
		assertThat(keeper.status().state()).isEqualTo(State.CLOCK_SKEWED);
		assertThat(keeper.status().clockOffset()).isEqualTo(Duration.ofSeconds(-5));
		assertThat(this.manager.holder(this.namespace, 0)).as("the lease itself stays held").contains("node-a");
		assertThatExceptionOfType(WorkerIdUnavailableException.class).isThrownBy(generator::nextId)
			.withMessageContaining("5000 ms ahead of the lease store's")
			.satisfies((ex) -> assertThat(ex.reason()).isEqualTo(Reason.REVOKED));

		this.nodeClock.stepWallClock(Duration.ofSeconds(-5));
		this.storeClock.advance(HEARTBEAT);
		this.nodeClock.advance(HEARTBEAT);
		keeper.heartbeat();
		assertThat(keeper.status().state()).isEqualTo(State.ACTIVE);
		assertThat(generator.nextId()).isPositive();
	}

	@Test
	void theClockSkewGuardCanBeTurnedOff() {
		ManualTimeSource behind = new ManualTimeSource(START.minusSeconds(60));
		WorkerLeaseKeeper keeper = keeper(generator(TWO_WORKERS, behind), behind, "node-a",
				(settings) -> settings.maxClockSkew(null));
		keeper.start();
		assertThat(keeper.status().state()).isEqualTo(State.ACTIVE);
	}

	@Test
	void whenEverySlotIsTakenStartFailsNamingTheNamespaceAndSlotCount() {
		keeper(generator(TWO_WORKERS, this.nodeClock), this.nodeClock, "node-a").start();
		keeper(generator(TWO_WORKERS, this.nodeClock), this.nodeClock, "node-b").start();
		SnowflakeIdGenerator generator = generator(TWO_WORKERS, this.nodeClock);
		WorkerLeaseKeeper third = keeper(generator, this.nodeClock, "node-c");
		assertThatExceptionOfType(NoFreeWorkerIdException.class).isThrownBy(third::start)
			.withMessage("no free worker ID in namespace '" + this.namespace + "': all 2 slots [0, 1] are held by live "
					+ "leases (in-memory lease store); use more worker bits, a separate namespace, or fewer instances "
					+ "(a stopped instance's worker ID is free again when its lease expires, within 60s)");
		assertThat(third.status().state()).isEqualTo(State.NOT_STARTED);
		assertThat(third.status().consecutiveFailures()).isEqualTo(1);
		assertThatExceptionOfType(WorkerIdUnavailableException.class).isThrownBy(generator::nextId)
			.satisfies((ex) -> assertThat(ex.reason()).isEqualTo(Reason.NOT_GRANTED));
	}

	@Test
	void theCacheFileGivesBackTheSameSlotOnRestart() throws Exception {
		Path cacheFile = this.directory.resolve("worker-id");
		WorkerLease zero = occupy(FOUR_WORKERS, 0);
		WorkerLease one = occupy(FOUR_WORKERS, 1);
		WorkerLeaseKeeper first = keeper(generator(FOUR_WORKERS, this.nodeClock), this.nodeClock, "node-a",
				(settings) -> settings.cacheFile(cacheFile));
		first.start();
		assertThat(first.status().workerId()).isEqualTo(2);
		assertThat(Files.readString(cacheFile)).contains(this.namespace + "=2");
		this.manager.release(zero, -1);
		this.manager.release(one, -1);
		first.close();

		this.nodeClock.advanceMillis(1);
		WorkerLeaseKeeper restarted = keeper(generator(FOUR_WORKERS, this.nodeClock), this.nodeClock, "node-a",
				(settings) -> settings.cacheFile(cacheFile));
		restarted.start();
		assertThat(restarted.status().workerId()).isEqualTo(2);
		restarted.close();

		// without the cache file the store would have chosen a slot never used
		this.nodeClock.advanceMillis(1);
		WorkerLeaseKeeper forgetful = keeper(generator(FOUR_WORKERS, this.nodeClock), this.nodeClock, "node-a");
		forgetful.start();
		assertThat(forgetful.status().workerId()).isEqualTo(3);
	}

	@Test
	void closeGivesTheSlotBackSoAnotherKeeperTakesItAtOnce() {
		SnowflakeIdGenerator generatorA = generator(TWO_WORKERS, this.nodeClock);
		WorkerLeaseKeeper keeperA = keeper(generatorA, this.nodeClock, "node-a");
		keeperA.start();
		keeper(generator(TWO_WORKERS, this.nodeClock), this.nodeClock, "node-c").start();
		long[] idsA = generatorA.nextIds("any", 1000);

		keeperA.close();
		assertThat(keeperA.status().state()).isEqualTo(State.CLOSED);
		assertThat(this.manager.holder(this.namespace, 0)).isEmpty();
		assertThat(this.manager.highWaterMark(this.namespace, 0)).isEqualTo(START_MILLIS);
		assertThatExceptionOfType(WorkerIdUnavailableException.class).isThrownBy(generatorA::nextId)
			.withMessage("worker ID 0 was revoked (closed); issuing resumes once a lease is held again");
		keeperA.close();
		assertThat(this.listener.calls).containsOnlyOnce("release true");

		this.nodeClock.advanceMillis(1);
		SnowflakeIdGenerator generatorB = generator(TWO_WORKERS, this.nodeClock);
		WorkerLeaseKeeper keeperB = keeper(generatorB, this.nodeClock, "node-b");
		keeperB.start();
		assertThat(keeperB.status().workerId()).isZero();
		assertThat(generatorB.nextId()).isGreaterThan(idsA[999]);
		assertThatIllegalStateException().isThrownBy(keeperA::start).withMessageContaining("keeper is closed");
		assertThatIllegalStateException().isThrownBy(keeperB::start).withMessageContaining("already started");
	}

	@Test
	void aStoreOutageAtStartFailsStart() {
		this.manager.setAvailable(false);
		WorkerLeaseKeeper keeper = keeper(generator(TWO_WORKERS, this.nodeClock), this.nodeClock, "node-a");
		assertThatExceptionOfType(LeaseStoreException.class).isThrownBy(keeper::start);
		this.manager.setAvailable(true);
		keeper.start();
		assertThat(keeper.status().state()).isEqualTo(State.ACTIVE);
	}

	@Test
	void theKeeperRenewsOnItsOwnThreadAndRidesOutAShortOutage() {
		InMemoryLeaseStore store = new InMemoryLeaseStore();
		SnowflakeIdGenerator generator = generator(TWO_WORKERS, TimeSource.system());
		LeaseSettings settings = LeaseSettings.builder()
			.namespace(this.namespace)
			.ttl(Duration.ofSeconds(3))
			.heartbeat(Duration.ofMillis(200))
			.safetyMargin(Duration.ofSeconds(1))
			.build();
		WorkerLeaseKeeper keeper = new WorkerLeaseKeeper(store, generator, settings, TimeSource.system(),
				this.listener);
		this.keepers.add(keeper);
		keeper.start();
		Instant started = keeper.status().lastRenewal();
		await().atMost(Duration.ofSeconds(3)).until(() -> keeper.status().lastRenewal().isAfter(started)
				&& this.listener.calls.contains("renew true"));

		store.setAvailable(false);
		await().atMost(Duration.ofSeconds(3)).until(() -> keeper.status().state() == State.RENEWAL_FAILING);
		generator.nextId();
		await().atMost(Duration.ofSeconds(3)).until(() -> keeper.status().state() == State.LOST);
		assertThatExceptionOfType(WorkerIdUnavailableException.class).isThrownBy(generator::nextId)
			.satisfies((ex) -> assertThat(ex.reason()).isEqualTo(Reason.EXPIRED));

		store.setAvailable(true);
		await().atMost(Duration.ofSeconds(3)).until(() -> keeper.status().state() == State.ACTIVE);
		assertThat(generator.parse(generator.nextId()).workerId()).isEqualTo(keeper.status().workerId());
	}

	@Test
	void aHungRenewalNeitherHidesTheExpiryNorBlocksCloseAndCannotReviveTheGrantAfterClose() throws Exception {
		HangingStore store = new HangingStore(this.manager);
		SnowflakeIdGenerator generator = generator(TWO_WORKERS, this.nodeClock);
		LeaseSettings settings = LeaseSettings.builder()
			.namespace(this.namespace)
			.ttl(TTL)
			.heartbeat(HEARTBEAT)
			.safetyMargin(SAFETY_MARGIN)
			.instance("node-a")
			.build();
		WorkerLeaseKeeper keeper = new WorkerLeaseKeeper(store, generator, settings, this.nodeClock, this.listener);
		this.keepers.add(keeper);
		keeper.start();
		keeper.closeTimeout(Duration.ofMillis(200));
		try {
			store.hang = true;
			Future<Duration> heartbeat = this.executor.submit(keeper::heartbeat);
			assertThat(store.entered.await(5, TimeUnit.SECONDS)).isTrue();
			// the hung call holds the keeper's lock; the grant runs out by the monotonic clock all the same
			this.nodeClock.advance(TTL.minus(SAFETY_MARGIN));
			assertThat(keeper.status().state()).isEqualTo(State.LOST);
			assertThatExceptionOfType(WorkerIdUnavailableException.class).isThrownBy(generator::nextId)
				.satisfies((ex) -> assertThat(ex.reason()).isEqualTo(Reason.EXPIRED));

			assertThat(this.executor.submit(keeper::close)).succeedsWithin(Duration.ofSeconds(5));
			assertThat(keeper.status().state()).isEqualTo(State.CLOSED);
			assertThatExceptionOfType(WorkerIdUnavailableException.class).isThrownBy(generator::nextId)
				.withMessageContaining("was revoked (closed)");
			// not given back: the slot expires
			assertThat(this.manager.holder(this.namespace, 0)).hasValue("node-a");

			store.release.countDown();
			assertThat(heartbeat).succeedsWithin(Duration.ofSeconds(5));
			assertThat(this.listener.calls).contains("renew true");
			assertThatExceptionOfType(WorkerIdUnavailableException.class).isThrownBy(generator::nextId)
				.withMessageContaining("was revoked (closed)");
			assertThat(keeper.status().state()).isEqualTo(State.CLOSED);
		}
		finally {
			store.release.countDown();
		}
	}

	@Test
	void aStoreThatLostASlotsMarkIsRefusedAtStartToldTheKnownMarkAndUsedAgainAboveIt() {
		Path cacheFile = this.directory.resolve("worker-id");
		SnowflakeIdGenerator before = generator(TWO_WORKERS, this.nodeClock);
		WorkerLeaseKeeper crashed = keeper(before, this.nodeClock, "node-a", (settings) -> settings.cacheFile(cacheFile));
		crashed.start();
		long last = before.nextId();
		long ceiling = START_MILLIS + TTL.toMillis();
		assertThat(this.directory.resolve("id-worker-slot-marks")).content()
			.contains(this.namespace + "/0=" + ceiling);

		// the process dies without closing; the store restarts without its data
		InMemoryLeaseStore emptied = new InMemoryLeaseStore(this.storeClock);
		this.nodeClock.advanceMillis(10);
		SnowflakeIdGenerator generator = generator(TWO_WORKERS, this.nodeClock);
		LeaseSettings settings = LeaseSettings.builder()
			.namespace(this.namespace)
			.ttl(TTL)
			.heartbeat(HEARTBEAT)
			.safetyMargin(SAFETY_MARGIN)
			.instance("node-a")
			.cacheFile(cacheFile)
			.build();
		WorkerLeaseKeeper restarted = new WorkerLeaseKeeper(emptied, generator, settings, this.nodeClock,
				this.listener);
		this.keepers.add(restarted);
		assertThatExceptionOfType(StoreRegressionException.class).isThrownBy(restarted::start)
			.satisfies((ex) -> {
				assertThat(ex.subject()).isEqualTo("worker slot 0 of namespace '" + this.namespace + "'");
				assertThat(ex.knownMark()).isEqualTo(ceiling);
				assertThat(ex.storeMark()).isEqualTo(-1);
			})
			.withMessageContaining("the lease store answered a timestamp floor of -1 for worker slot 0");
		assertThat(restarted.status().state()).isEqualTo(State.STORE_REGRESSED);
		assertThatExceptionOfType(WorkerIdUnavailableException.class).isThrownBy(generator::nextId);
		assertThat(emptied.highWaterMark(this.namespace, 0)).isEqualTo(ceiling);

		// once this node's clock has passed the mark it reported back, the slot is used again above it
		this.nodeClock.advance(TTL);
		this.storeClock.advance(TTL);
		restarted.start();
		assertThat(restarted.status().state()).isEqualTo(State.ACTIVE);
		assertThat(generator.workerId()).hasValue(0);
		long first = generator.nextId();
		assertThat(generator.parse(first).timestamp().toEpochMilli()).isGreaterThan(ceiling);
		assertThat(first).isGreaterThan(last);
	}

	@Test
	void aCacheFileOfAnotherStoreFailsTheStartNamingBothBeforeItsMarksAreBelievedAndBorrowsNothing() throws Exception {
		Path cacheFile = this.directory.resolve("worker-id");
		Path marksFile = this.directory.resolve("id-worker-slot-marks");
		Named production = new Named(this.manager, "store of production");
		SnowflakeIdGenerator generator = generator(TWO_WORKERS, this.nodeClock);
		WorkerLeaseKeeper running = keeper(production, generator, "node-a", cacheFile);
		running.start();
		generator.nextId();
		String marks = Files.readString(marksFile);
		assertThat(marks).contains("@store:" + this.namespace + "/store+of+production=0");
		assertThat(Files.readString(cacheFile)).contains("@store:" + this.namespace + "/store+of+production=0");

		// staging is started from the same data directory, with the same namespace, on its own store
		InMemoryLeaseStore stagingSlots = new InMemoryLeaseStore(this.storeClock);
		WorkerLeaseKeeper staging = keeper(new Named(stagingSlots, "store of staging"),
				generator(TWO_WORKERS, this.nodeClock), "node-b", cacheFile);
		assertThatExceptionOfType(LeaseFileOfAnotherStoreException.class).isThrownBy(staging::start)
			.satisfies((ex) -> {
				assertThat(ex.file()).isIn(cacheFile, marksFile);
				assertThat(ex.namespace()).isEqualTo(this.namespace);
				assertThat(ex.recorded()).isEqualTo("store of production");
				assertThat(ex.identity()).isEqualTo("store of staging");
			})
			.withMessageContaining("from store of production, and this node uses store of staging")
			.withMessageContaining("id-worker.lease.cache-file");
		assertThat(stagingSlots.holder(this.namespace, 0)).as("nothing borrowed from staging's store").isEmpty();
		assertThat(stagingSlots.highWaterMark(this.namespace, 0)).as("production's mark not reported to staging")
			.isEqualTo(-1);
		assertThat(Files.readString(marksFile)).isEqualTo(marks);
		assertThat(running.status().state()).isEqualTo(State.ACTIVE);
	}

	@Test
	void aFileWithoutAStoreOrOfAnotherNamespaceOrAStoreThatCannotSayIsUsedAndNamesTheStoreAtItsNextWrite()
			throws Exception {
		Path cacheFile = this.directory.resolve("worker-id");
		Path marksFile = this.directory.resolve("id-worker-slot-marks");
		// written before the files named their store; another namespace of another store shares them
		Files.writeString(cacheFile, this.namespace + "=1\n@store:other/store+of+staging=0\nother=0\n");
		Files.writeString(marksFile, "@store:other/store+of+staging=0\nother/0=" + START_MILLIS + "\n");
		WorkerLeaseKeeper first = keeper(new Named(this.manager, "store of production"),
				generator(TWO_WORKERS, this.nodeClock), "node-a", cacheFile);
		first.start();
		assertThat(first.status().workerId()).as("the cached worker ID is still preferred").isEqualTo(1);
		assertThat(Files.readString(marksFile)).contains("@store:" + this.namespace + "/store+of+production=0")
			.contains("@store:other/store+of+staging=0")
			.contains("other/0=" + START_MILLIS);
		assertThat(Files.readString(cacheFile)).contains("@store:" + this.namespace + "/store+of+production=0")
			.contains(this.namespace + "=1")
			.contains("other=0");
		first.close();

		// a store that cannot say what it is checks nothing
		this.nodeClock.advanceMillis(1);
		WorkerLeaseKeeper unknown = keeper(this.manager, generator(TWO_WORKERS, this.nodeClock), "node-a", cacheFile);
		unknown.start();
		assertThat(unknown.status().workerId()).isEqualTo(1);
	}

	@Test
	void withoutACacheFileTheStoreIsNotAskedWhatItIs() {
		SnowflakeIdGenerator generator = generator(TWO_WORKERS, this.nodeClock);
		// A store that fails when asked its identity, as a database that is down would.
		ISequenceManager unaskable = new Named(this.manager, () -> {
			throw new LeaseStoreException("asked for its identity");
		});
		WorkerLeaseKeeper keeper = new WorkerLeaseKeeper(unaskable, generator,
				LeaseSettings.builder().namespace(this.namespace).ttl(TTL).heartbeat(HEARTBEAT).build(), this.nodeClock,
				this.listener);
		this.keepers.add(keeper);
		keeper.start();
		assertThat(keeper.status().state()).isEqualTo(State.ACTIVE);
	}

	private WorkerLeaseKeeper keeper(ISequenceManager store, SnowflakeIdGenerator generator, String instance,
			Path cacheFile) {
		LeaseSettings settings = LeaseSettings.builder()
			.namespace(this.namespace)
			.ttl(TTL)
			.heartbeat(HEARTBEAT)
			.safetyMargin(SAFETY_MARGIN)
			.instance(instance)
			.cacheFile(cacheFile)
			.build();
		WorkerLeaseKeeper keeper = new WorkerLeaseKeeper(store, generator, settings, this.nodeClock, this.listener);
		this.keepers.add(keeper);
		return keeper;
	}

	/** Another store's slots under a name of its own; an identity that throws is a store that cannot be asked. */
	record Named(ISequenceManager delegate, Supplier<String> name) implements ISequenceManager {

		Named(ISequenceManager delegate, String identity) {
			this(delegate, () -> identity);
		}

		@Override
		public WorkerLease borrow(LeaseRequest request) {
			return this.delegate.borrow(request);
		}

		@Override
		public WorkerLease renew(WorkerLease lease, long timestampCeiling) {
			return this.delegate.renew(lease, timestampCeiling);
		}

		@Override
		public void release(WorkerLease lease, long lastIssuedTimestamp) {
			this.delegate.release(lease, lastIssuedTimestamp);
		}

		@Override
		public String identity() {
			return this.name.get();
		}

	}

	@Test
	void aGracefulCloseLowersThisNodesMarkWithTheStoresSoARestartIsNotTakenForARegression() {
		Path cacheFile = this.directory.resolve("worker-id");
		SnowflakeIdGenerator generator = generator(TWO_WORKERS, this.nodeClock);
		WorkerLeaseKeeper first = keeper(generator, this.nodeClock, "node-a", (settings) -> settings.cacheFile(cacheFile));
		first.start();
		generator.nextId();
		first.close();
		assertThat(this.manager.highWaterMark(this.namespace, 0)).isEqualTo(START_MILLIS);

		this.nodeClock.advanceMillis(1);
		WorkerLeaseKeeper restarted = keeper(generator(TWO_WORKERS, this.nodeClock), this.nodeClock, "node-a",
				(settings) -> settings.cacheFile(cacheFile));
		restarted.start();
		assertThat(restarted.status().state()).isEqualTo(State.ACTIVE);
		assertThat(restarted.status().workerId()).isZero();
	}

	@Test
	void aRenewalAnsweredBelowTheGrantedCeilingStopsIssuingUntilTheStoreHoldsTheMarkAgain() {
		LyingStore store = new LyingStore(this.manager);
		SnowflakeIdGenerator generator = generator(TWO_WORKERS, this.nodeClock);
		LeaseSettings settings = LeaseSettings.builder()
			.namespace(this.namespace)
			.ttl(TTL)
			.heartbeat(HEARTBEAT)
			.safetyMargin(SAFETY_MARGIN)
			.instance("node-a")
			.build();
		WorkerLeaseKeeper keeper = new WorkerLeaseKeeper(store, generator, settings, this.nodeClock, this.listener);
		this.keepers.add(keeper);
		keeper.start();
		long ceiling = START_MILLIS + TTL.toMillis();

		store.ceiling = START_MILLIS;
		this.nodeClock.advance(HEARTBEAT);
		this.storeClock.advance(HEARTBEAT);
		keeper.heartbeat();
		assertThat(keeper.status().state()).isEqualTo(State.STORE_REGRESSED);
		assertThatExceptionOfType(WorkerIdUnavailableException.class).isThrownBy(generator::nextId)
			.withMessageContaining("below " + ceiling);

		store.ceiling = null;
		keeper.heartbeat();
		assertThat(keeper.status().state()).isEqualTo(State.ACTIVE);
		assertThat(store.requested).isGreaterThanOrEqualTo(ceiling);
		generator.nextId();
	}

	/**
	 * Answers renewals with a ceiling of its choosing, as a store that lost its writes would.
	 */
	static final class LyingStore implements ISequenceManager {

		private final ISequenceManager delegate;

		volatile @org.jspecify.annotations.Nullable Long ceiling;

		volatile long requested;

		LyingStore(ISequenceManager delegate) {
			this.delegate = delegate;
		}

		@Override
		public WorkerLease borrow(LeaseRequest request) {
			return this.delegate.borrow(request);
		}

		@Override
		public WorkerLease renew(WorkerLease lease, long timestampCeiling) {
			this.requested = timestampCeiling;
			WorkerLease renewed = this.delegate.renew(lease, timestampCeiling);
			Long lie = this.ceiling;
			return (lie == null) ? renewed : new WorkerLease(renewed.namespace(), renewed.workerId(),
					renewed.ownerToken(), renewed.ttl(), renewed.timestampFloor(), lie, renewed.storeTimeMillis());
		}

		@Override
		public void release(WorkerLease lease, long lastIssuedTimestamp) {
			this.delegate.release(lease, lastIssuedTimestamp);
		}

	}

	/**
	 * Lets renewals hang, as a store call does when packets are dropped, until {@link #release} is counted down.
	 */
	static final class HangingStore implements ISequenceManager {

		final java.util.concurrent.CountDownLatch entered = new java.util.concurrent.CountDownLatch(1);

		final java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);

		volatile boolean hang;

		private final ISequenceManager delegate;

		HangingStore(ISequenceManager delegate) {
			this.delegate = delegate;
		}

		@Override
		public WorkerLease borrow(LeaseRequest request) {
			return this.delegate.borrow(request);
		}

		@Override
		public WorkerLease renew(WorkerLease lease, long timestampCeiling) {
			if (this.hang) {
				this.entered.countDown();
				boolean interrupted = false;
				for (;;) {
					try {
						this.release.await();
						break;
					}
					catch (InterruptedException ex) {
						// a hung socket read does not answer interrupts either
						interrupted = true;
					}
				}
				if (interrupted) {
					Thread.currentThread().interrupt();
				}
			}
			return this.delegate.renew(lease, timestampCeiling);
		}

		@Override
		public void release(WorkerLease lease, long lastIssuedTimestamp) {
			this.delegate.release(lease, lastIssuedTimestamp);
		}

	}

	/**
	 * Records store calls as "operation success".
	 */
	static final class RecordingListener implements IdWorkerListener {

		final List<String> calls = new CopyOnWriteArrayList<>();

		/** Every store call, the looks at the layout record included. */
		final List<String> allCalls = new CopyOnWriteArrayList<>();

		@Override
		public void storeCall(String key, String operation, long nanos, boolean success) {
			this.allCalls.add(operation + " " + success);
			// the layout record is looked at around every borrow and renewal, and the slots when it is missing
			// (LayoutRegistrationTests)
			if (!operation.endsWith("-layout") && !operation.equals("slot-marks")) {
				this.calls.add(operation + " " + success);
			}
		}

	}

}
