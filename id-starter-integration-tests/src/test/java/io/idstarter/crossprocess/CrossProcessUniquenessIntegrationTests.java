package io.idstarter.crossprocess;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;

import io.idstarter.IdWorkerListener;
import io.idstarter.crossprocess.LeaseHistory.End;
import io.idstarter.crossprocess.LeaseHistory.Lease;
import io.idstarter.lease.LeaseSettings;
import io.idstarter.lease.NoFreeWorkerIdException;
import io.idstarter.lease.WorkerLeaseKeeper;
import io.idstarter.snowflake.ClockBackwardsPolicy;
import io.idstarter.snowflake.SnowflakeIdGenerator;
import io.idstarter.snowflake.SnowflakeLayout;
import io.idstarter.time.TimeSource;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Four JVMs share one real store and issue over a million IDs between them, Snowflake IDs under leased worker IDs or
 * segment IDs; one of them is killed with SIGKILL mid-run and started again. No ID is issued twice, and no worker ID
 * is held by two live processes at once.
 *
 * <p>The processes are {@link IdDrillProcess} children of this JVM. For MongoDB, when no {@code mongod} can be found,
 * {@code TestBackends.mongo()} is the in-JVM {@code mongo-java-server} running in <em>this</em> (the test) JVM, and
 * the children reach it over TCP with its connection string.
 *
 * <p>The Snowflake layout has 2 worker-ID bits, so the four processes fill every slot, and the survivors keep theirs
 * until the restarted process has one: it can only get the killed one's slot, and only once that lease has expired in
 * the store (TTL 3 s, heartbeat 1 s, safety margin 1 s). Each process writes its lease calls to an event log; the test
 * rebuilds every lease from them ({@link LeaseHistory}) and checks that no worker ID was held by two processes at once
 * nor granted while another lease on it was live, and, from the IDs themselves, that each owner of a worker ID
 * stamped only timestamps above those of the owners before it.
 */
class CrossProcessUniquenessIntegrationTests {

	private static final Logger logger = LoggerFactory.getLogger(CrossProcessUniquenessIntegrationTests.class);

	private static final int PROCESSES = 4;

	private static final int THREADS = 2;

	/** IDs per thread: 4 processes x 2 threads x 140,000 = 1,120,000, plus what the killed one issued. */
	private static final long COUNT = 140_000;

	/** IDs per second per thread, so that a process runs for about 5 s and can be killed mid-run. */
	private static final long RATE = 28_000;

	/** When the victim is killed, after the start. */
	private static final Duration KILL_AFTER = Duration.ofSeconds(2);

	private static final int WORKER_BITS = 2;

	private static final Duration TTL = Duration.ofSeconds(3);

	private static final Duration HEARTBEAT = Duration.ofSeconds(1);

	private static final Duration MARGIN = Duration.ofSeconds(1);

	private static final String KEY = "drill";

	/** Configured step of the segment key; the dynamic step doubles it up to {@link #MAX_STEP}. */
	private static final int STEP = 1000;

	private static final int MAX_STEP = 4000;

	private static final Drill.Settings SETTINGS = new Drill.Settings(THREADS, COUNT, RATE, KEY, MAX_STEP,
			WORKER_BITS, TTL, HEARTBEAT, MARGIN, Duration.ofSeconds(30));

	static Stream<Arguments> storesAndModes() {
		List<Arguments> arguments = new ArrayList<>();
		for (StoreKind store : StoreKind.selected()) {
			for (DrillMode mode : DrillMode.values()) {
				if (mode == DrillMode.SNOWFLAKE || store.holdsSegments()) {
					arguments.add(Arguments.of(store, mode));
				}
			}
		}
		return arguments.stream();
	}

	@ParameterizedTest(name = "{0}, {1}")
	@MethodSource("storesAndModes")
	void fourProcessesIssueOverAMillionUniqueIdsWhileOneIsKilledAndRestarted(StoreKind store, DrillMode mode) {
		long started = System.nanoTime();
		StoreSpec spec = store.locate("xp_" + UUID.randomUUID().toString().replace("-", "").substring(0, 10));
		logger.info("Cross-process drill on {} from {}, {} mode", spec, store.origin(), mode);
		try (DrillStore admin = DrillStore.open(spec)) {
			admin.createSchema();
			try (Drill drill = new Drill(spec, mode, SETTINGS)) {
				try {
					run(drill, admin, spec, mode, started);
				}
				catch (AssertionError | RuntimeException ex) {
					ex.addSuppressed(new IllegalStateException(drill.describe()));
					throw ex;
				}
			}
			finally {
				admin.dropAll();
			}
		}
	}

	private void run(Drill drill, DrillStore admin, StoreSpec spec, DrillMode mode, long started) {
		if (mode == DrillMode.SEGMENT) {
			admin.keyAdmin().createKey(KEY, 1, STEP, "cross-process drill");
		}
		List<DrillChild> first = new ArrayList<>();
		for (int i = 0; i < PROCESSES; i++) {
			first.add(drill.launch("p" + i, "node" + i));
		}
		for (DrillChild child : first) {
			child.awaitEvent("ready", Duration.ofSeconds(60));
		}
		long goAt = drill.go();
		if (mode == DrillMode.SNOWFLAKE) {
			assertStartFailsWhileEverySlotIsHeld(admin, spec);
		}
		sleepUntil(goAt + KILL_AFTER.toMillis());
		DrillChild victim = first.get(PROCESSES - 1);
		assertThat(victim.isAlive()).as("%s still running %s after the start", victim, KILL_AFTER).isTrue();
		long killedAt = victim.kill();
		logger.info("Killed {} with SIGKILL {} ms after the start, having flushed {} IDs", victim, killedAt - goAt,
				victim.idBytes() / Long.BYTES);
		DrillChild restarted = drill.launch("p" + (PROCESSES - 1) + "r", "node" + (PROCESSES - 1));
		// The others keep their worker IDs until the restarted one has one: it can only get the killed one's.
		restarted.awaitEvent("ready", Duration.ofSeconds(60));
		drill.finish();
		List<DrillChild> survivors = new ArrayList<>(first.subList(0, PROCESSES - 1));
		survivors.add(restarted);
		for (DrillChild child : survivors) {
			assertThat(child.awaitExit(Duration.ofSeconds(120))).as("exit status of %s", child).isZero();
		}
		if (mode == DrillMode.SNOWFLAKE) {
			assertRestartReclaimsItsPreviousWorkerId(drill);
		}
		IdSet ids = drill.ids();
		long duplicates = ids.duplicateCount();
		assertThat(duplicates).as("duplicate IDs, first ones: %s", ids.describeDuplicates(10)).isZero();
		assertThat(ids.size()).as("IDs issued in all").isGreaterThanOrEqualTo(1_000_000);
		assertThat(ids.filesNotIncreasing()).as("threads whose IDs do not increase").isEmpty();
		Map<String, Integer> counts = ids.countsBySource();
		assertThat(counts.get(victim.label())).as("IDs the victim issued before it was killed")
			.isPositive()
			.isLessThan((int) (THREADS * COUNT));
		if (mode == DrillMode.SNOWFLAKE) {
			assertLeasesWereNeverShared(drill, ids, victim, restarted);
		}
		logger.info("Cross-process drill on {} ({}), {} mode: {} processes launched, 1 killed, {} IDs, {} duplicates, "
				+ "{} s; IDs per process {}", spec.kind(), spec.kind().origin(), mode, drill.children().size(),
				ids.size(), duplicates, String.format(Locale.ROOT, "%.1f", (System.nanoTime() - started) / 1e9),
				counts);
	}

	/**
	 * While the four processes run, every slot is held: a node that starts now fails, and says so.
	 */
	private void assertStartFailsWhileEverySlotIsHeld(DrillStore admin, StoreSpec spec) {
		SnowflakeIdGenerator generator = new SnowflakeIdGenerator(DrillLayout.of(WORKER_BITS), TimeSource.system(),
				ClockBackwardsPolicy.defaults(), IdWorkerListener.NONE);
		LeaseSettings settings = LeaseSettings.builder()
			.namespace(spec.name())
			.ttl(TTL)
			.heartbeat(HEARTBEAT)
			.safetyMargin(MARGIN)
			.instance("test-jvm")
			.build();
		try (WorkerLeaseKeeper keeper = new WorkerLeaseKeeper(admin.sequenceManager(), generator, settings,
				TimeSource.system(), IdWorkerListener.NONE)) {
			assertThatExceptionOfType(NoFreeWorkerIdException.class).isThrownBy(keeper::start)
				.withMessageContaining(spec.name())
				.withMessageContaining("[0, 3]")
				.withMessageContaining("live leases");
		}
	}

	/**
	 * A node stopped gracefully and started again with its worker-ID cache file gets its previous worker ID back,
	 * though without the preference the store would hand out the slot that has been free for longest.
	 */
	private void assertRestartReclaimsItsPreviousWorkerId(Drill drill) {
		List<Lease> released = drill.leases().leases().stream().filter((lease) -> lease.end == End.RELEASED).toList();
		Comparator<Lease> byRelease = Comparator.comparingLong((lease) -> lease.endedAt);
		Lease lastReleased = released.stream().max(byRelease).orElseThrow();
		Lease firstReleased = released.stream().min(byRelease).orElseThrow();
		assertThat(lastReleased.workerId).as("slot free for longest (%s) is another than the one released last (%s)",
				firstReleased, lastReleased).isNotEqualTo(firstReleased.workerId);
		String node = drill.nodeOf(lastReleased.source);
		DrillChild reclaim = drill.launch("reclaim", node, 5_000, 0);
		assertThat(reclaim.awaitExit(Duration.ofSeconds(60))).as("exit status of %s", reclaim).isZero();
		List<Lease> leases = drill.leases().leasesOf("reclaim");
		assertThat(leases).as("leases of the restarted %s", node).hasSize(1);
		assertThat(leases.get(0).workerId).as("worker ID of %s restarted with its cache file %s", node,
				drill.cacheFile(node)).isEqualTo(lastReleased.workerId);
	}

	private void assertLeasesWereNeverShared(Drill drill, IdSet ids, DrillChild victim, DrillChild restarted) {
		LeaseHistory history = drill.leases();
		assertThat(history.overlappingHolds()).as("worker IDs held by two processes at once").isEmpty();
		assertThat(history.grantsWhileLive()).as("worker IDs granted while another lease on them was live").isEmpty();
		List<Lease> victimLeases = history.leasesOf(victim.label());
		List<Lease> restartedLeases = history.leasesOf(restarted.label());
		assertThat(victimLeases).as("leases of %s", victim).hasSize(1);
		assertThat(restartedLeases).as("leases of %s", restarted).hasSize(1);
		Lease killed = victimLeases.get(0);
		Lease successor = restartedLeases.get(0);
		assertThat(killed.end).isEqualTo(End.KILLED);
		assertThat(successor.workerId).as("the only slot left for the restarted process").isEqualTo(killed.workerId);
		assertThat(successor.grantedAt).as("grant of the killed process's slot, after its lease expired")
			.isGreaterThanOrEqualTo(history.freeFrom(killed) - 2);
		// A borrow that returned while the killed lease was live must have found every slot held.
		List<DrillEvent> restartEvents = restarted.events();
		long firstBorrow = restartEvents.stream().filter((event) -> event.kind().equals("lease-borrow-start"))
			.mapToLong(DrillEvent::at).min().orElseThrow();
		List<DrillEvent> answers = restartEvents.stream().filter((event) -> event.kind().equals("lease-borrow-ok")
				|| event.kind().equals("lease-borrow-full")).toList();
		for (DrillEvent answer : answers) {
			if (answer.at() < history.freeFrom(killed) - 2) {
				assertThat(answer.kind()).as("answer to %s at %s, while the killed lease was live until %s", restarted,
						answer.at(), history.freeFrom(killed)).isEqualTo("lease-borrow-full");
			}
		}
		long refusals = answers.stream().filter((event) -> event.kind().equals("lease-borrow-full")).count();
		logger.info("{} asked for a worker ID {} ms after the kill; the killed lease was live until {} ms after it; "
				+ "{} start attempts refused meanwhile (every slot held); granted worker {} {} ms after the kill",
				restarted, firstBorrow - killed.endedAt, history.freeFrom(killed) - killed.endedAt, refusals,
				successor.workerId, successor.grantedAt - killed.endedAt);
		SnowflakeLayout layout = DrillLayout.of(WORKER_BITS);
		assertThat(ids.workerTimestampOverlaps(layout)).as("timestamps stamped under one worker ID by two processes")
			.isEmpty();
		List<IdSet.TimestampRange> ranges = ids.timestampRangesByWorker(layout).get(killed.workerId);
		IdSet.TimestampRange victimRange = ranges.stream().filter((range) -> range.source().equals(victim.label()))
			.findFirst().orElseThrow();
		IdSet.TimestampRange successorRange = ranges.stream()
			.filter((range) -> range.source().equals(restarted.label())).findFirst().orElseThrow();
		assertThat(victimRange.last()).as("greatest timestamp of the killed process")
			.isLessThanOrEqualTo(killed.ceiling);
		assertThat(successorRange.first()).as("least timestamp of its successor on worker %s", killed.workerId)
			.isGreaterThan(successor.floor);
	}

	private static void sleepUntil(long wallMillis) {
		long wait = wallMillis - System.currentTimeMillis();
		if (wait > 0) {
			try {
				Thread.sleep(wait);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IllegalStateException("interrupted", ex);
			}
		}
	}

}
