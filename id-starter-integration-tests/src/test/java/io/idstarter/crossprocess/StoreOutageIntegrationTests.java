package io.idstarter.crossprocess;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import io.idstarter.IdWorkerListener;
import io.idstarter.lease.LeaseSettings;
import io.idstarter.lease.LeaseStatus;
import io.idstarter.lease.NoFreeWorkerIdException;
import io.idstarter.lease.WorkerLeaseKeeper;
import io.idstarter.segment.DynamicStep;
import io.idstarter.segment.SegmentBufferView;
import io.idstarter.segment.SegmentIdGenerator;
import io.idstarter.segment.SegmentOptions;
import io.idstarter.segment.SegmentStoreException;
import io.idstarter.segment.SegmentsExhaustedException;
import io.idstarter.snowflake.ClockBackwardsPolicy;
import io.idstarter.snowflake.SnowflakeIdGenerator;
import io.idstarter.snowflake.SnowflakeLayout;
import io.idstarter.snowflake.WorkerIdUnavailableException;
import io.idstarter.testsupport.TcpProxy;
import io.idstarter.time.TimeSource;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.fail;

/**
 * A real store goes away for one node and comes back, through a {@link TcpProxy} between the node and the store (the
 * shared server itself keeps running for everyone else), under each {@link NetworkFault}: connections cut, a black
 * hole (stall), or every byte arriving seconds late. Segment IDs are served from the ranges in memory until they are
 * spent, then refused with an error naming the key and the store's failure; Snowflake IDs are issued while the lease
 * is provably valid, then refused; both recover when the fault ends, and no ID is issued twice.
 *
 * <p>The node runs in this JVM with short driver timeouts ({@link DrillStore#SHORT}). For MongoDB the server may be
 * the in-JVM {@code mongo-java-server}.
 */
class StoreOutageIntegrationTests {

	private static final Logger logger = LoggerFactory.getLogger(StoreOutageIntegrationTests.class);

	private static final String KEY = "outage";

	private static final int STEP = 1000;

	private static final Duration TTL = Duration.ofSeconds(3);

	private static final Duration HEARTBEAT = Duration.ofSeconds(1);

	private static final Duration MARGIN = Duration.ofSeconds(1);

	/** How long a store that is back may take to be used again: pools and clients reconnect, retries back off. */
	private static final Duration RECOVERY = Duration.ofSeconds(20);

	/** Refused calls of the node under test since the fault began (JUnit makes an instance per test). */
	private long refusals;

	static Stream<Arguments> storesAndFaults() {
		List<Arguments> arguments = new ArrayList<>();
		for (StoreKind store : StoreKind.singleServers()) {
			for (NetworkFault fault : NetworkFault.values()) {
				arguments.add(Arguments.of(store, fault));
			}
		}
		return arguments.stream();
	}

	@ParameterizedTest(name = "{0}, {1}")
	@MethodSource("storesAndFaults")
	void segmentModeServesFromItsBuffersThroughAnOutageAndSaysWhenTheyAreSpent(StoreKind kind, NetworkFault fault)
			throws Exception {
		try (Outage outage = Outage.on(kind, "xo_")) {
			outage.admin.keyAdmin().createKey(KEY, 1, STEP, "outage drill");
			// A fixed step, so that the ranges in memory are known.
			SegmentOptions options = SegmentOptions.builder()
				.maxWait(Duration.ofMillis(300))
				.dynamicStep(new DynamicStep(DynamicStep.DEFAULT_EXPAND_BELOW, DynamicStep.DEFAULT_SHRINK_ABOVE, STEP))
				.build();
			LongList ids = new LongList();
			try (SegmentIdGenerator node = new SegmentIdGenerator(outage.cutOff.segmentStore(), options);
					SegmentIdGenerator other = new SegmentIdGenerator(outage.admin.segmentStore(), options)) {
				node.start();
				other.start();
				// The first range of a new connection may take longer than maxWait on a busy machine.
				ids.add(await("the first ID of the node", () -> tryNextId(node)));
				ids.add(await("the first ID of the other node", () -> tryNextId(other)));
				for (int i = 1; i < STEP / 5; i++) {
					ids.add(node.nextId(KEY));
				}
				SegmentBufferView loaded = await("the next range of the cut-off node", () -> node.view(KEY)
					.filter((view) -> view.next() != null && !view.fetchInFlight()));
				long buffered = loaded.current().remaining() + loaded.next().remaining();

				fault.apply(outage.proxy);
				this.refusals = 0;
				long cutAt = System.nanoTime();
				// Another node, still connected, takes ranges meanwhile.
				ids.addAll(other.nextIds(KEY, 3 * STEP));
				long served = 0;
				SegmentsExhaustedException spent = null;
				while (spent == null) {
					try {
						ids.add(node.nextId(KEY));
						served++;
					}
					catch (SegmentsExhaustedException ex) {
						this.refusals++;
						spent = ex;
					}
				}
				assertThat(served).as("IDs served from memory while the store was cut off").isEqualTo(buffered);
				assertThat(spent.getKey()).isEqualTo(KEY);
				assertThat(spent).hasMessageContaining("'" + KEY + "'").hasMessageContaining("used up");
				SegmentsExhaustedException withCause = awaitFailureWithCause(node);
				assertThat(withCause.getKey()).isEqualTo(KEY);
				assertThat(withCause).hasMessageContaining("last store error")
					.hasCauseInstanceOf(SegmentStoreException.class);
				long outageMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - cutAt);

				outage.proxy.restore();
				long restoredAt = System.nanoTime();
				ids.add(await("an ID after the store returned", () -> tryNextId(node)));
				long recoveryMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - restoredAt);
				ids.addAll(node.nextIds(KEY, 2 * STEP));
				ids.addAll(other.nextIds(KEY, 2 * STEP));

				IdSet all = IdSet.of(Map.of("all", ids.toArray()));
				assertThat(all.duplicateCount()).as("duplicates: %s", all.describeDuplicates(5)).isZero();
				logger.info("Segment outage on {} ({}): served {} buffered IDs, refused after {} ms ({}), recovered {} "
						+ "ms after the store returned; {} refusals, {} IDs checked, 0 duplicates", kind, fault, served,
						outageMillis, withCause.getCause(), recoveryMillis, this.refusals, all.size());
			}
		}
	}

	@ParameterizedTest(name = "{0}, {1}")
	@MethodSource("storesAndFaults")
	void snowflakeModeIssuesWhileItsLeaseIsProvablyValidThenRefusesAndRecoversWhenTheStoreReturns(StoreKind kind,
			NetworkFault fault) throws Exception {
		try (Outage outage = Outage.on(kind, "xs_")) {
			EventLog.MemoryLog log = EventLog.inMemory("node");
			SnowflakeLayout layout = DrillLayout.of(2);
			SnowflakeIdGenerator generator = generator(layout);
			LongList ids = new LongList();
			try (WorkerLeaseKeeper keeper = new WorkerLeaseKeeper(new RecordingLeaseStore(
					outage.cutOff.sequenceManager(), log), generator, settings(outage.spec, "node"),
					TimeSource.system(), IdWorkerListener.NONE)) {
				keeper.start();
				int workerId = generator.workerId().orElseThrow();
				awaitFirstId(generator, ids);
				issueFor(generator, ids, Duration.ofMillis(1500));

				fault.apply(outage.proxy);
				this.refusals = 0;
				long cutAt = System.currentTimeMillis();
				int before = ids.size();
				WorkerIdUnavailableException refused = issueUntilRefused(generator, ids);
				long refusedAt = System.currentTimeMillis();
				LeaseHistory.Lease lease = history("node", log).leasesOf("node").get(0);
				long freeFrom = history("node", log).freeFrom(lease);
				long[] duringOutage = timestamps(layout, ids.toArray(), before);
				assertThat(refused.reason()).isEqualTo(WorkerIdUnavailableException.Reason.EXPIRED);
				assertThat(refused).hasMessageContaining("worker ID " + workerId).hasMessageContaining("ran out");
				assertThat(keeper.status().state()).isEqualTo(LeaseStatus.State.LOST);
				assertThat(ids.size() - before).as("IDs issued after the cut").isPositive();
				assertThat(duringOutage[1]).as("greatest timestamp issued while cut off: issuing went on until the "
						+ "lease's validity (last renewal sent at %s + TTL - margin)", lease.lastConfirmedStart)
					.isGreaterThanOrEqualTo(lease.lastConfirmedStart + TTL.minus(MARGIN).toMillis() - 750);
				assertThat(duringOutage[1]).as("greatest timestamp issued while cut off, below the store's earliest "
						+ "expiry of the lease").isLessThan(freeFrom);

				// Still refused after the store has let the lease expire.
				sleepUntil(freeFrom + 300);
				assertThatExceptionOfType(WorkerIdUnavailableException.class).isThrownBy(generator::nextId);
				this.refusals++;

				outage.proxy.restore();
				long restoredAt = System.nanoTime();
				ids.add(await("an ID after the store returned", () -> tryNextId(generator)));
				long recoveryMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - restoredAt);
				assertThat(keeper.status().state()).isEqualTo(LeaseStatus.State.ACTIVE);
				assertThat(generator.workerId()).as("worker ID after recovery").hasValue(workerId);
				issueFor(generator, ids, Duration.ofMillis(300));

				IdSet all = IdSet.of(Map.of("node", ids.toArray()));
				assertThat(all.duplicateCount()).as("duplicates: %s", all.describeDuplicates(5)).isZero();
				assertThat(all.filesNotIncreasing()).isEmpty();
				boolean reborrowed = log.events().stream()
					.filter((event) -> event.kind().equals("lease-borrow-ok"))
					.count() > 1;
				logger.info("Snowflake outage on {} ({}): fault {} ms after the last renewal was sent, issued for {} ms "
						+ "more (until {} ms before the store's earliest expiry), refused {} ms after the fault began; "
						+ "recovered {} ms after it ended, by {}; {} refusals, {} IDs checked, 0 duplicates", kind,
						fault, cutAt - lease.lastConfirmedStart, duringOutage[1] - cutAt, freeFrom - duringOutage[1],
						refusedAt - cutAt, recoveryMillis, reborrowed ? "borrowing again" : "renewal", this.refusals,
						all.size());
			}
		}
	}

	@ParameterizedTest(name = "{0}, {1}")
	@MethodSource("storesAndFaults")
	void aSnowflakeNodeWhoseWorkerIdWasTakenDuringAnOutageBorrowsAnotherWhenTheStoreReturns(StoreKind kind,
			NetworkFault fault) throws Exception {
		try (Outage outage = Outage.on(kind, "xt_")) {
			// Two slots: A (cut off) holds one, C (connected) the other, so B can only ever get A's.
			SnowflakeLayout layout = DrillLayout.of(1);
			EventLog.MemoryLog logA = EventLog.inMemory("A");
			EventLog.MemoryLog logB = EventLog.inMemory("B");
			EventLog.MemoryLog logC = EventLog.inMemory("C");
			SnowflakeIdGenerator generatorA = generator(layout);
			SnowflakeIdGenerator generatorB = generator(layout);
			SnowflakeIdGenerator generatorC = generator(layout);
			LongList idsA = new LongList();
			LongList idsB = new LongList();
			LongList idsC = new LongList();
			try (WorkerLeaseKeeper keeperA = keeper(outage.cutOff, logA, generatorA, outage.spec, "node-a");
					WorkerLeaseKeeper keeperB = keeper(outage.admin, logB, generatorB, outage.spec, "node-b");
					WorkerLeaseKeeper keeperC = keeper(outage.admin, logC, generatorC, outage.spec, "node-c")) {
				keeperA.start();
				keeperC.start();
				int workerA = generatorA.workerId().orElseThrow();
				awaitFirstId(generatorA, idsA);
				awaitFirstId(generatorC, idsC);
				issueFor(generatorA, idsA, Duration.ofMillis(1200));

				fault.apply(outage.proxy);
				this.refusals = 0;
				issueUntilRefused(generatorA, idsA);
				// B, connected, is refused until the store lets A's lease expire, and then gets A's worker ID.
				int refusals = startWhenASlotIsFree(keeperB);
				assertThat(generatorB.workerId()).as("worker ID of B").hasValue(workerA);
				awaitFirstId(generatorB, idsB);
				issueFor(generatorB, idsB, Duration.ofMillis(300));

				outage.proxy.restore();
				long restoredAt = System.nanoTime();
				await("A learning that its lease was lost", () -> logA.events().stream()
					.filter((event) -> event.kind().equals("lease-renew-lost")).findFirst());
				assertThatExceptionOfType(WorkerIdUnavailableException.class).as("A without a worker ID")
					.isThrownBy(generatorA::nextId);
				this.refusals++;
				keeperC.close();
				idsA.add(await("an ID of A after C gave its worker ID back", () -> tryNextId(generatorA)));
				long recoveryMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - restoredAt);
				assertThat(generatorA.workerId()).as("worker ID of A after it lost its own").hasValue(1 - workerA);
				issueFor(generatorA, idsA, Duration.ofMillis(300));
				issueFor(generatorB, idsB, Duration.ofMillis(300));

				LeaseHistory history = LeaseHistory.of(TTL,
						List.of(source("A", logA), source("B", logB), source("C", logC)));
				assertThat(history.overlappingHolds()).isEmpty();
				assertThat(history.grantsWhileLive()).isEmpty();
				LeaseHistory.Lease leaseA = history.leasesOf("A").get(0);
				LeaseHistory.Lease leaseB = history.leasesOf("B").get(0);
				assertThat(leaseB.floor).as("floor of B's worker ID: A's stored ceiling")
					.isGreaterThanOrEqualTo(leaseA.ceiling);
				Map<String, long[]> ids = new LinkedHashMap<>();
				ids.put("A", idsA.toArray());
				ids.put("B", idsB.toArray());
				ids.put("C", idsC.toArray());
				IdSet all = IdSet.of(ids);
				assertThat(all.duplicateCount()).as("duplicates: %s", all.describeDuplicates(5)).isZero();
				assertThat(all.filesNotIncreasing()).isEmpty();
				assertThat(all.workerTimestampOverlaps(layout)).isEmpty();
				logger.info("Snowflake outage with take-over on {} ({}): B was refused {} times, then took worker {} "
						+ "{} ms after A's last renewal was sent; A lost it and, once C gave its worker ID back, issued "
						+ "under worker {} {} ms after the fault ended; A refused {} calls; {} IDs checked, "
						+ "0 duplicates", kind, fault, refusals, workerA, leaseB.grantedAt - leaseA.lastConfirmedStart,
						1 - workerA, recoveryMillis, this.refusals, all.size());
			}
		}
	}

	private static WorkerLeaseKeeper keeper(DrillStore store, EventLog log, SnowflakeIdGenerator generator,
			StoreSpec spec, String instance) {
		return new WorkerLeaseKeeper(new RecordingLeaseStore(store.sequenceManager(), log), generator,
				settings(spec, instance), TimeSource.system(), IdWorkerListener.NONE);
	}

	/**
	 * Starts a keeper, retrying while every worker ID is held.
	 * @return how many times it was refused
	 */
	private static int startWhenASlotIsFree(WorkerLeaseKeeper keeper) {
		long deadline = System.nanoTime() + RECOVERY.toNanos();
		for (int refusals = 0;; refusals++) {
			try {
				keeper.start();
				return refusals;
			}
			catch (NoFreeWorkerIdException ex) {
				assertThat(System.nanoTime() - deadline).as("still no free worker ID: %s", ex.getMessage())
					.isNegative();
				sleep(100);
			}
		}
	}

	private static SnowflakeIdGenerator generator(SnowflakeLayout layout) {
		return new SnowflakeIdGenerator(layout, TimeSource.system(), ClockBackwardsPolicy.defaults(),
				IdWorkerListener.NONE);
	}

	private static LeaseSettings settings(StoreSpec spec, String instance) {
		return LeaseSettings.builder()
			.namespace(spec.name())
			.ttl(TTL)
			.heartbeat(HEARTBEAT)
			.safetyMargin(MARGIN)
			.instance(instance)
			.build();
	}

	private static LeaseHistory history(String name, EventLog.MemoryLog log) {
		return LeaseHistory.of(TTL, List.of(source(name, log)));
	}

	private static LeaseHistory.Source source(String name, EventLog.MemoryLog log) {
		return new LeaseHistory.Source(name, log.events(), null, System.currentTimeMillis());
	}

	/**
	 * Issues IDs, about 10 a millisecond, for a while. A refusal (a renewal slower than the lease's validity on a
	 * busy machine) is waited out: it is safe, and not what these phases test.
	 */
	private static void issueFor(SnowflakeIdGenerator generator, LongList ids, Duration duration) {
		long end = System.nanoTime() + duration.toNanos();
		while (System.nanoTime() - end < 0) {
			try {
				for (int i = 0; i < 10; i++) {
					ids.add(generator.nextId());
				}
			}
			catch (WorkerIdUnavailableException ex) {
				logger.info("Refused while the store is up: {}", ex.getMessage());
			}
			sleep(1);
		}
	}

	/**
	 * Waits for a keeper's first grant to be usable: the first call on a new connection can outlast a short lease's
	 * validity, and then IDs are refused until the next renewal.
	 */
	private void awaitFirstId(SnowflakeIdGenerator generator, LongList ids) {
		ids.add(await("the first ID", () -> tryNextId(generator)));
	}

	/**
	 * Issues IDs, about 10 a millisecond, until the generator refuses.
	 */
	private WorkerIdUnavailableException issueUntilRefused(SnowflakeIdGenerator generator, LongList ids) {
		long deadline = System.nanoTime() + TTL.multipliedBy(3).toNanos();
		while (System.nanoTime() - deadline < 0) {
			try {
				for (int i = 0; i < 10; i++) {
					ids.add(generator.nextId());
				}
			}
			catch (WorkerIdUnavailableException ex) {
				this.refusals++;
				return ex;
			}
			sleep(1);
		}
		return fail("still issuing %s after the store was cut off", TTL.multipliedBy(3));
	}

	/**
	 * Returns the least and greatest timestamp of the IDs from an index on.
	 */
	private static long[] timestamps(SnowflakeLayout layout, long[] ids, int from) {
		long least = Long.MAX_VALUE;
		long greatest = Long.MIN_VALUE;
		for (int i = from; i < ids.length; i++) {
			long timestamp = layout.parse(ids[i]).timestamp().toEpochMilli();
			least = Math.min(least, timestamp);
			greatest = Math.max(greatest, timestamp);
		}
		return new long[] { least, greatest };
	}

	private Optional<Long> tryNextId(SnowflakeIdGenerator generator) {
		try {
			return Optional.of(generator.nextId());
		}
		catch (WorkerIdUnavailableException ex) {
			this.refusals++;
			return Optional.empty();
		}
	}

	private Optional<Long> tryNextId(SegmentIdGenerator generator) {
		try {
			return Optional.of(generator.nextId(KEY));
		}
		catch (SegmentsExhaustedException ex) {
			this.refusals++;
			return Optional.empty();
		}
	}

	/**
	 * Asks for IDs while the store is cut off until the refusal carries the store's failure as its cause.
	 */
	private SegmentsExhaustedException awaitFailureWithCause(SegmentIdGenerator generator) {
		long deadline = System.nanoTime() + RECOVERY.toNanos();
		while (System.nanoTime() - deadline < 0) {
			try {
				long id = generator.nextId(KEY);
				return fail("issued %s while the store was cut off and its ranges were spent", id);
			}
			catch (SegmentsExhaustedException ex) {
				this.refusals++;
				if (ex.getCause() != null) {
					return ex;
				}
			}
			sleep(50);
		}
		return fail("no refusal with the store's failure as its cause within %s", RECOVERY);
	}

	private static <T> T await(String what, java.util.function.Supplier<Optional<T>> probe) {
		long deadline = System.nanoTime() + RECOVERY.toNanos();
		while (System.nanoTime() - deadline < 0) {
			Optional<T> value = probe.get();
			if (value.isPresent()) {
				return value.get();
			}
			sleep(20);
		}
		return fail("no %s within %s", what, RECOVERY);
	}

	private static void sleepUntil(long wallMillis) {
		long wait = wallMillis - System.currentTimeMillis();
		if (wait > 0) {
			sleep(wait);
		}
	}

	private static void sleep(long millis) {
		try {
			Thread.sleep(millis);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("interrupted", ex);
		}
	}

	/**
	 * A store reached directly ({@code admin}, as every other node does) and through a proxy that the test cuts
	 * ({@code cutOff}, the node under test); everything of the run is deleted on close.
	 */
	private static final class Outage implements AutoCloseable {

		final StoreSpec spec;

		final DrillStore admin;

		final TcpProxy proxy;

		final DrillStore cutOff;

		private Outage(StoreSpec spec, DrillStore admin, TcpProxy proxy, DrillStore cutOff) {
			this.spec = spec;
			this.admin = admin;
			this.proxy = proxy;
			this.cutOff = cutOff;
		}

		static Outage on(StoreKind kind, String prefix) {
			StoreSpec spec = kind.locate(prefix + UUID.randomUUID().toString().replace("-", "").substring(0, 10));
			logger.info("Outage drill on {} from {}", spec, kind.origin());
			DrillStore admin = DrillStore.open(spec);
			admin.createSchema();
			TcpProxy proxy = spec.startProxy();
			return new Outage(spec, admin, proxy, DrillStore.open(spec.through(proxy), DrillStore.SHORT));
		}

		@Override
		public void close() {
			this.proxy.restore();
			this.cutOff.close();
			this.proxy.close();
			try {
				this.admin.dropAll();
			}
			finally {
				this.admin.close();
			}
		}

	}

}
