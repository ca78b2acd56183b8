package io.idstarter.crossprocess;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.idstarter.IdWorkerListener;
import io.idstarter.lease.ClockSkewException;
import io.idstarter.lease.ISequenceManager;
import io.idstarter.lease.LeaseRequest;
import io.idstarter.lease.LeaseSettings;
import io.idstarter.lease.LeaseStoreException;
import io.idstarter.lease.WorkerIdCache;
import io.idstarter.lease.WorkerLease;
import io.idstarter.lease.WorkerLeaseKeeper;
import io.idstarter.snowflake.ClockBackwardsPolicy;
import io.idstarter.snowflake.SnowflakeIdGenerator;
import io.idstarter.snowflake.SnowflakeLayout;
import io.idstarter.snowflake.WorkerIdUnavailableException;
import io.idstarter.time.ManualTimeSource;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Two nodes whose clocks disagree by seconds share one real lease store. Node A holds worker ID 0, issues IDs, and
 * dies without giving it back (from then on its store calls fail, as for a killed or cut-off process). Once A's lease
 * has expired by the store's clock, node B, whose clock is {@value #SKEW_SECONDS} s behind A's, takes worker ID 0.
 * B never issues a timestamp at or below the greatest A may have used: A's stored ceiling, the high-water mark A
 * reported plus the TTL it may have gone on issuing for. The clock-skew guard would stop B first (that is checked
 * too); the nodes run with it off, because the floor is what must hold when the skew is below the guard's bound or
 * the guard is off.
 *
 * <p>Both nodes run in this JVM, each with its own {@link ManualTimeSource} that the test moves forward; the store and
 * its clock are real (for MongoDB, possibly the in-JVM {@code mongo-java-server}).
 */
class ClockDisagreementIntegrationTests {

	private static final Logger logger = LoggerFactory.getLogger(ClockDisagreementIntegrationTests.class);

	/** How far node B's clock is behind node A's. */
	private static final int SKEW_SECONDS = 4;

	private static final Duration TTL = Duration.ofSeconds(3);

	private static final SnowflakeLayout LAYOUT = DrillLayout.of(2);

	@TempDir
	Path temp;

	static List<StoreKind> stores() {
		return StoreKind.singleServers();
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("stores")
	void aNodeWhoseClockIsBehindNeverIssuesAtOrBelowWhatThePreviousOwnerOfItsWorkerIdMayHaveUsed(StoreKind kind)
			throws Exception {
		StoreSpec spec = kind.locate("xc_" + UUID.randomUUID().toString().replace("-", "").substring(0, 10));
		logger.info("Clock disagreement on {} from {}", spec, kind.origin());
		try (DrillStore store = DrillStore.open(spec)) {
			store.createSchema();
			try {
				run(store, spec);
			}
			finally {
				store.dropAll();
			}
		}
	}

	private void run(DrillStore store, StoreSpec spec) throws Exception {
		// Node A: holds worker ID 0 and issues under it.
		ManualTimeSource clockA = new ManualTimeSource(Instant.now());
		EventLog.MemoryLog logA = EventLog.inMemory("A");
		Severable severableA = new Severable(store.sequenceManager());
		SnowflakeIdGenerator generatorA = generator(clockA);
		WorkerLeaseKeeper keeperA = new WorkerLeaseKeeper(new RecordingLeaseStore(severableA, logA), generatorA,
				settings(spec, "node-a", null, TTL, null), clockA, IdWorkerListener.NONE);
		keeperA.start();
		try {
			assertThat(generatorA.workerId()).hasValue(0);
			long[] idsA = issue(generatorA, clockA, 20, 1000, 50);
			long issuedAfter = System.currentTimeMillis();
			awaitEvent(logA, "lease-renew-ok", issuedAfter);

			// A dies: its store calls fail from now on, and it never gives worker ID 0 back.
			severableA.sever();
			long severedAt = System.nanoTime();
			LeaseHistory.Lease leaseA = awaitExpiry(logA);
			clockA.advance(Duration.ofNanos(System.nanoTime() - severedAt));
			assertThatExceptionOfType(WorkerIdUnavailableException.class).as("A issuing after its lease ran out")
				.isThrownBy(generatorA::nextId);
			long ceilingA = leaseA.ceiling;
			long greatestA = timestamps(idsA)[1];
			assertThat(greatestA).as("greatest timestamp A issued").isLessThanOrEqualTo(ceilingA);

			// Node B, 4 s behind A, asks for worker ID 0 (its cache file says so).
			Path cache = this.temp.resolve("node-b.worker-id");
			new WorkerIdCache(cache).write(spec.name(), 0);
			ManualTimeSource clockB = new ManualTimeSource(clockA.instant().minusSeconds(SKEW_SECONDS));
			long clockBAtStart = clockB.currentTimeMillis();
			assertThat(clockBAtStart).as("B's clock, behind what A may have used").isLessThan(ceilingA);

			// With the clock-skew guard on (the default), B refuses to start: its clock is 4 s from the store's.
			SnowflakeIdGenerator guarded = generator(clockB);
			try (WorkerLeaseKeeper keeper = new WorkerLeaseKeeper(store.sequenceManager(), guarded,
					settings(spec, "node-b", cache, TTL, LeaseSettings.DEFAULT_MAX_CLOCK_SKEW), clockB,
					IdWorkerListener.NONE)) {
				assertThatExceptionOfType(ClockSkewException.class).isThrownBy(keeper::start)
					.withMessageContaining("maxClockSkew");
			}

			// The guard off, the timestamp floor is what protects A's IDs. Not allowed to wait for its clock to pass
			// the floor, B gives worker ID 0 back as it found it and takes the other one.
			SnowflakeIdGenerator impatient = generator(clockB);
			try (WorkerLeaseKeeper keeper = new WorkerLeaseKeeper(store.sequenceManager(), impatient,
					settings(spec, "node-b", cache, Duration.ZERO, null), clockB, IdWorkerListener.NONE)) {
				keeper.start();
				assertThat(impatient.workerId()).as("worker ID of B, not allowed to wait").hasValue(1);
			}
			new WorkerIdCache(cache).write(spec.name(), 0);

			// Allowed to wait, B starts once its clock has passed A's ceiling, and issues above it.
			EventLog.MemoryLog logB = EventLog.inMemory("B");
			SnowflakeIdGenerator generatorB = generator(clockB);
			try (WorkerLeaseKeeper keeperB = new WorkerLeaseKeeper(new RecordingLeaseStore(
					store.sequenceManager(), logB), generatorB,
					settings(spec, "node-b", cache, Duration.ofSeconds(60), null), clockB, IdWorkerListener.NONE)) {
				startWhileTimePasses(keeperB, clockB);
				assertThat(generatorB.workerId()).as("B's worker ID").hasValue(0);
				DrillEvent borrowB = logB.events().stream().filter((event) -> event.kind().equals("lease-borrow-ok"))
					.findFirst().orElseThrow();
				assertThat(borrowB.longField("floor")).as("floor of worker ID 0 given to B: A's stored ceiling")
					.isEqualTo(ceilingA);
				long[] idsB = issue(generatorB, clockB, 20, 1000, 1);
				long leastB = timestamps(idsB)[0];
				assertThat(leastB).as("least timestamp B issued, above A's ceiling %s (A's greatest was %s)",
						ceilingA, greatestA).isGreaterThan(ceilingA);
				Map<String, long[]> ids = new LinkedHashMap<>();
				ids.put("A", idsA);
				ids.put("B", idsB);
				IdSet all = IdSet.of(ids);
				assertThat(all.duplicateCount()).as("duplicates: %s", all.describeDuplicates(5)).isZero();
				assertThat(all.workerTimestampOverlaps(LAYOUT)).isEmpty();
				logger.info("Clock disagreement on {}: A issued up to {} under ceiling {}; B, {} s behind, started at "
						+ "{} and issued from {} ({} ms above A's ceiling); {} IDs, 0 duplicates", spec.kind(),
						greatestA, ceilingA, SKEW_SECONDS, clockBAtStart, leastB, leastB - ceilingA, all.size());
			}
		}
		finally {
			keeperA.close();
		}
	}

	private static SnowflakeIdGenerator generator(ManualTimeSource clock) {
		return new SnowflakeIdGenerator(LAYOUT, clock, ClockBackwardsPolicy.defaults(), IdWorkerListener.NONE);
	}

	private static LeaseSettings settings(StoreSpec spec, String instance, @Nullable Path cache,
			Duration maxStartupWait, @Nullable Duration maxClockSkew) {
		return LeaseSettings.builder()
			.namespace(spec.name())
			.ttl(TTL)
			.heartbeat(Duration.ofSeconds(1))
			.safetyMargin(Duration.ofSeconds(1))
			.instance(instance)
			.cacheFile(cache)
			.maxStartupWait(maxStartupWait)
			.maxClockSkew(maxClockSkew)
			.build();
	}

	/**
	 * Issues {@code rounds} x {@code perRound} IDs, moving the clock on by {@code stepMillis} after each round.
	 */
	private static long[] issue(SnowflakeIdGenerator generator, ManualTimeSource clock, int rounds, int perRound,
			long stepMillis) {
		long[] ids = new long[rounds * perRound];
		for (int round = 0; round < rounds; round++) {
			for (int i = 0; i < perRound; i++) {
				ids[round * perRound + i] = generator.nextId();
			}
			clock.advanceMillis(stepMillis);
		}
		return ids;
	}

	/**
	 * Returns the least and greatest timestamp of some IDs.
	 */
	private static long[] timestamps(long[] ids) {
		long least = Long.MAX_VALUE;
		long greatest = Long.MIN_VALUE;
		for (long id : ids) {
			long timestamp = LAYOUT.parse(id).timestamp().toEpochMilli();
			least = Math.min(least, timestamp);
			greatest = Math.max(greatest, timestamp);
		}
		return new long[] { least, greatest };
	}

	private static void awaitEvent(EventLog.MemoryLog log, String kind, long after) throws InterruptedException {
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
		while (log.events().stream().noneMatch((event) -> event.kind().equals(kind) && event.at() >= after)) {
			assertThat(System.nanoTime() - deadline).as("waiting for %s", kind).isNegative();
			Thread.sleep(20);
		}
	}

	/**
	 * Waits until A's lease has expired by the store's clock: the start of its last successful call plus the TTL.
	 * @return A's lease as last confirmed
	 */
	private static LeaseHistory.Lease awaitExpiry(EventLog.MemoryLog log) throws InterruptedException {
		// Calls in flight when A was cut off finish within the TTL; read the history after that.
		Thread.sleep(TTL.toMillis());
		LeaseHistory history = LeaseHistory.of(TTL,
				List.of(new LeaseHistory.Source("A", log.events(), null, System.currentTimeMillis())));
		LeaseHistory.Lease lease = history.leasesOf("A").get(0);
		long wait = history.freeFrom(lease) + 200 - System.currentTimeMillis();
		if (wait > 0) {
			Thread.sleep(wait);
		}
		return lease;
	}

	/**
	 * Starts a keeper on another thread while this one lets time pass on its clock, 50 ms every 5 ms.
	 */
	private static void startWhileTimePasses(WorkerLeaseKeeper keeper, ManualTimeSource clock) throws Exception {
		CompletableFuture<Void> started = CompletableFuture.runAsync(keeper::start);
		for (int i = 0; i < 4000 && !started.isDone(); i++) {
			clock.advanceMillis(50);
			Thread.sleep(5);
		}
		started.get(1, TimeUnit.SECONDS);
	}

	/**
	 * A lease store that can be cut off for good: every call after {@link #sever()} fails, as for a dead node.
	 */
	private static final class Severable implements ISequenceManager {

		private final ISequenceManager delegate;

		private volatile boolean severed;

		Severable(ISequenceManager delegate) {
			this.delegate = delegate;
		}

		void sever() {
			this.severed = true;
		}

		@Override
		public WorkerLease borrow(LeaseRequest request) {
			check();
			return this.delegate.borrow(request);
		}

		@Override
		public WorkerLease renew(WorkerLease lease, long timestampCeiling) {
			check();
			return this.delegate.renew(lease, timestampCeiling);
		}

		@Override
		public void release(WorkerLease lease, long lastIssuedTimestamp) {
			check();
			this.delegate.release(lease, lastIssuedTimestamp);
		}

		private void check() {
			if (this.severed) {
				throw new LeaseStoreException("node is cut off from the store (test)");
			}
		}

	}

}
