package io.idstarter.crossprocess;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import io.idstarter.IdWorkerListener;
import io.idstarter.lease.LeaseSettings;
import io.idstarter.lease.NoFreeWorkerIdException;
import io.idstarter.lease.WorkerLeaseKeeper;
import io.idstarter.snowflake.ClockBackwardsPolicy;
import io.idstarter.snowflake.SnowflakeIdGenerator;
import io.idstarter.snowflake.SnowflakeLayout;
import io.idstarter.snowflake.WorkerIdUnavailableException;
import io.idstarter.time.TimeSource;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A process holding a worker ID is frozen (SIGSTOP) for longer than its lease TTL, as a long GC pause, a VM migration
 * or a suspended host does; another node takes the worker ID meanwhile; then the frozen process is let go (SIGCONT)
 * with its threads inside {@code nextId}. No ID is issued twice, and the process that was frozen issues nothing until
 * it holds a lease again.
 *
 * <p>Process P is an {@link IdDrillProcess} child on a layout with 16 sequence numbers a millisecond, issuing as fast
 * as it can on 2 threads: a thread spends most of its time inside {@code nextId}, waiting for the next millisecond, so
 * the freeze finds the threads there. There are 2 worker IDs: node C in this JVM holds the other one throughout, so
 * that node B, in this JVM, can only get P's, and only once P's lease has expired in the store. TTL 2 s, heartbeat
 * 0.5 s, safety margin 0.5 s. After SIGCONT, B keeps the worker ID for a while and then gives it back; P, which learnt
 * at its next renewal that its lease was lost and found every worker ID held, borrows again and issues above B's
 * last timestamp.
 */
class ProcessPauseIntegrationTests {

	private static final Logger logger = LoggerFactory.getLogger(ProcessPauseIntegrationTests.class);

	private static final int WORKER_BITS = 1;

	private static final int SEQUENCE_BITS = 4;

	private static final SnowflakeLayout LAYOUT = DrillLayout.of(WORKER_BITS, SEQUENCE_BITS);

	private static final Duration TTL = Duration.ofSeconds(2);

	private static final Duration HEARTBEAT = Duration.ofMillis(500);

	private static final Duration MARGIN = Duration.ofMillis(500);

	/** More than P issues before it is told to stop. */
	private static final long COUNT = 10_000_000;

	private static final Drill.Settings SETTINGS = new Drill.Settings(2, COUNT, 0, "unused", 1000, WORKER_BITS, TTL,
			HEARTBEAT, MARGIN, Duration.ofSeconds(30));

	/** How long any phase may take on a busy machine. */
	private static final Duration PHASE_TIMEOUT = Duration.ofSeconds(30);

	static List<StoreKind> stores() {
		return StoreKind.selected().stream()
			.filter((kind) -> kind == StoreKind.POSTGRESQL || kind == StoreKind.REDIS)
			.toList();
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("stores")
	void aProcessFrozenPastItsLeaseIssuesNothingUntilItHoldsALeaseAgain(StoreKind kind) throws Exception {
		StoreSpec spec = kind.locate("xz_" + UUID.randomUUID().toString().replace("-", "").substring(0, 10));
		logger.info("Pause drill on {} from {}", spec, kind.origin());
		try (DrillStore admin = DrillStore.open(spec)) {
			admin.createSchema();
			try (Drill drill = new Drill(spec, DrillMode.SNOWFLAKE, SETTINGS)) {
				try {
					run(drill, admin, spec, kind);
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

	private void run(Drill drill, DrillStore admin, StoreSpec spec, StoreKind kind) throws Exception {
		DrillChild p = drill.launch("p", "p", COUNT, 0, "--sequence-bits=" + SEQUENCE_BITS);
		int workerP = p.awaitEvent("ready", PHASE_TIMEOUT).intField("worker");
		EventLog.MemoryLog logB = EventLog.inMemory("B");
		EventLog.MemoryLog logC = EventLog.inMemory("C");
		SnowflakeIdGenerator generatorB = generator();
		SnowflakeIdGenerator generatorC = generator();
		WorkerLeaseKeeper keeperC = keeper(admin, logC, generatorC, spec, "node-c", null);
		WorkerLeaseKeeper keeperB = keeper(admin, logB, generatorB, spec, "node-b", drill.cacheFile("p"));
		Issuers issuersB = null;
		boolean paused = false;
		try {
			keeperC.start();
			drill.go();
			// P issues, and has renewed its lease, before it is frozen.
			p.awaitEvent("lease-renew-ok", PHASE_TIMEOUT);
			awaitIdBytes(p, 16 * 1024);

			long pausedAt = pauseOutsideItsFileLocks(p, drill.cacheFile("p"));
			paused = true;
			int refusalsB = startWhenASlotIsFree(keeperB);
			long takenAt = System.currentTimeMillis();
			assertThat(generatorB.workerId()).as("worker ID of B").hasValue(workerP);
			issuersB = new Issuers(generatorB);
			// Frozen for longer than the TTL, and B has issued for a while.
			Thread.sleep(Math.max(300, pausedAt + TTL.toMillis() + 300 - System.currentTimeMillis()));

			long resumedAt = p.resume();
			paused = false;
			DrillEvent lost = awaitEvent(p, "lease-renew-lost", (event) -> event.at() >= resumedAt);
			// P refuses while B issues under the worker ID, and every other one is held.
			Thread.sleep(700);
			long[] idsB = issuersB.stop();
			keeperB.close();
			long releasedAt = System.currentTimeMillis();
			DrillEvent again = awaitEvent(p, "issuing-again", (event) -> event.at() >= releasedAt);
			Thread.sleep(300);
			drill.stopIssuing();
			drill.finish();
			assertThat(p.awaitExit(PHASE_TIMEOUT)).as("exit status of P").isZero();
			keeperC.close();

			check(drill, p, logB, logC, idsB, pausedAt, resumedAt, releasedAt, kind, refusalsB, takenAt, lost,
					again);
		}
		finally {
			if (paused) {
				p.resume();
			}
			if (issuersB != null) {
				issuersB.stop();
			}
			keeperB.close();
			keeperC.close();
		}
	}

	private void check(Drill drill, DrillChild p, EventLog.MemoryLog logB, EventLog.MemoryLog logC, long[] idsB,
			long pausedAt, long resumedAt, long releasedAt, StoreKind kind, int refusalsB, long takenAt,
			DrillEvent lost, DrillEvent again) {
		assertThat(resumedAt - pausedAt).as("how long P was frozen, ms").isGreaterThan(TTL.toMillis());
		long now = System.currentTimeMillis();
		LeaseHistory history = LeaseHistory.of(TTL, List.of(p.toSource(),
				new LeaseHistory.Source("B", logB.events(), null, now),
				new LeaseHistory.Source("C", logC.events(), null, now)));
		assertThat(history.overlappingHolds()).isEmpty();
		assertThat(history.grantsWhileLive()).isEmpty();
		List<LeaseHistory.Lease> leasesP = history.leasesOf("p");
		assertThat(leasesP).as("leases of P: before the freeze, and after B gave the worker ID back").hasSize(2);
		LeaseHistory.Lease before = leasesP.get(0);
		LeaseHistory.Lease after = leasesP.get(1);
		LeaseHistory.Lease leaseB = history.leasesOf("B").get(0);
		assertThat(leaseB.floor).as("floor of B: the ceiling P's lease had in the store").isGreaterThanOrEqualTo(
				before.ceiling);

		Map<String, List<Path>> files = new LinkedHashMap<>();
		files.put("p", p.idFiles());
		IdSet idsP = IdSet.read(files);
		Map<String, long[]> all = new LinkedHashMap<>();
		long[] fromP = idsP.toArray();
		all.put("p", fromP);
		all.put("B", idsB);
		IdSet ids = IdSet.of(all);
		assertThat(ids.duplicateCount()).as("duplicates: %s", ids.describeDuplicates(5)).isZero();
		assertThat(idsP.filesNotIncreasing()).isEmpty();

		// Every ID of P under a lease it held: worker and floor < timestamp <= ceiling of one of its leases.
		long stampedAfterResume = 0;
		List<String> outside = new ArrayList<>();
		for (long id : fromP) {
			long timestamp = LAYOUT.parse(id).timestamp().toEpochMilli();
			int worker = LAYOUT.parse(id).workerId();
			boolean held = leasesP.stream().anyMatch((lease) -> lease.workerId == worker && lease.floor < timestamp
					&& timestamp <= lease.ceiling);
			if (!held && outside.size() < 5) {
				outside.add(id + " (worker " + worker + ", timestamp " + timestamp + ")");
			}
			if (timestamp >= resumedAt) {
				stampedAfterResume++;
				assertThat(timestamp).as("timestamp of an ID P stamped after SIGCONT: above the floor of its new "
						+ "lease (%s)", after).isGreaterThan(after.floor);
			}
		}
		assertThat(outside).as("IDs of P outside its leases %s", leasesP).isEmpty();
		assertThat(stampedAfterResume).as("IDs P stamped after it held a lease again").isPositive();
		List<DrillEvent> refusedAfterResume = p.events().stream()
			.filter((event) -> event.kind().equals("refused") && event.at() >= resumedAt)
			.toList();
		assertThat(refusedAfterResume).as("refusals of P after SIGCONT").isNotEmpty();
		long refusalsP = p.events().stream().filter((event) -> event.kind().equals("done"))
			.mapToLong((event) -> event.longField("refused")).sum();

		logger.info("Pause drill on {}: P (pid {}) frozen for {} ms with its threads in nextId, TTL {} ms; B was "
				+ "refused {} times, then took worker {} {} ms after the freeze ({} ms after P's last renewal was "
				+ "sent); after SIGCONT P learnt it had lost the lease in {} ms, refused {} calls in all, and issued "
				+ "again {} ms after B gave the worker ID back; {} IDs checked ({} of P, {} of B), {} of P stamped "
				+ "after SIGCONT, all above the new floor; 0 duplicates", kind, p.pid(), resumedAt - pausedAt,
				TTL.toMillis(), refusalsB, leaseB.workerId, takenAt - pausedAt, takenAt - before.lastConfirmedStart,
				lost.at() - resumedAt, refusalsP, again.at() - releasedAt, ids.size(), fromP.length, idsB.length,
				stampedAfterResume);
	}

	private static DrillEvent awaitEvent(DrillChild child, String kind, Predicate<DrillEvent> filter)
			throws InterruptedException {
		long deadline = System.nanoTime() + PHASE_TIMEOUT.toNanos();
		while (System.nanoTime() - deadline < 0) {
			for (DrillEvent event : child.events()) {
				if (event.kind().equals(kind) && filter.test(event)) {
					return event;
				}
			}
			if (!child.isAlive()) {
				throw new IllegalStateException(child + " exited before '" + kind + "'. " + child.describe());
			}
			Thread.sleep(20);
		}
		throw new IllegalStateException(child + " did not record '" + kind + "' within " + PHASE_TIMEOUT + ". "
				+ child.describe());
	}

	private static void awaitIdBytes(DrillChild child, long bytes) throws InterruptedException {
		long deadline = System.nanoTime() + PHASE_TIMEOUT.toNanos();
		while (child.idBytes() < bytes) {
			if (System.nanoTime() - deadline > 0) {
				throw new IllegalStateException(child + " wrote fewer than " + bytes + " bytes of IDs within "
						+ PHASE_TIMEOUT + ". " + child.describe());
			}
			Thread.sleep(20);
		}
	}

	/**
	 * Freezes a child at a moment it holds none of the locks of its node files. B shares P's files, and a process
	 * frozen while it writes one (a lock held for microseconds) would keep B from writing its marks until it runs
	 * again, so B's start would fail after the lock's wait: that is the drill of FrozenFileSharerIntegrationTests, not
	 * the lease protocol this one is about.
	 * @return when the child was frozen
	 */
	private static long pauseOutsideItsFileLocks(DrillChild child, Path cacheFile) throws Exception {
		List<Path> lockFiles = List.of(cacheFile.toAbsolutePath().resolveSibling(cacheFile.getFileName() + ".lock"),
				cacheFile.toAbsolutePath().resolveSibling("id-worker-slot-marks.lock"));
		long deadline = System.nanoTime() + PHASE_TIMEOUT.toNanos();
		while (true) {
			long pausedAt = child.pause();
			if (noneLocked(lockFiles)) {
				return pausedAt;
			}
			child.resume();
			assertThat(System.nanoTime() - deadline).as("%s froze outside its file locks", child).isNegative();
			Thread.sleep(5);
		}
	}

	private static boolean noneLocked(List<Path> lockFiles) throws IOException {
		for (Path lockFile : lockFiles) {
			if (!Files.exists(lockFile)) {
				continue;
			}
			try (FileChannel channel = FileChannel.open(lockFile, StandardOpenOption.WRITE);
					FileLock lock = channel.tryLock()) {
				if (lock == null) {
					return false;
				}
			}
		}
		return true;
	}

	/**
	 * Starts a keeper, retrying while every worker ID is held.
	 * @return how many times it was refused
	 */
	private static int startWhenASlotIsFree(WorkerLeaseKeeper keeper) throws InterruptedException {
		long deadline = System.nanoTime() + PHASE_TIMEOUT.toNanos();
		for (int refusals = 0;; refusals++) {
			try {
				keeper.start();
				return refusals;
			}
			catch (NoFreeWorkerIdException ex) {
				assertThat(System.nanoTime() - deadline).as("still no free worker ID: %s", ex.getMessage())
					.isNegative();
				Thread.sleep(50);
			}
		}
	}

	private static SnowflakeIdGenerator generator() {
		return new SnowflakeIdGenerator(LAYOUT, TimeSource.system(), ClockBackwardsPolicy.defaults(),
				IdWorkerListener.NONE);
	}

	private static WorkerLeaseKeeper keeper(DrillStore store, EventLog log, SnowflakeIdGenerator generator,
			StoreSpec spec, String instance, @Nullable Path cache) {
		LeaseSettings.Builder settings = LeaseSettings.builder()
			.namespace(spec.name())
			.ttl(TTL)
			.heartbeat(HEARTBEAT)
			.safetyMargin(MARGIN)
			.instance(instance);
		if (cache != null) {
			settings.cacheFile(cache);
		}
		return new WorkerLeaseKeeper(new RecordingLeaseStore(store.sequenceManager(), log), generator,
				settings.build(), TimeSource.system(), IdWorkerListener.NONE);
	}

	/**
	 * B's two threads, issuing as fast as the layout allows; a refusal (a slow renewal on a busy machine) is waited
	 * out.
	 */
	private static final class Issuers {

		private final List<Thread> threads = new ArrayList<>();

		private final List<LongList> ids = new ArrayList<>();

		private volatile boolean stopped;

		Issuers(SnowflakeIdGenerator generator) {
			for (int i = 0; i < 2; i++) {
				LongList list = new LongList();
				this.ids.add(list);
				Thread thread = new Thread(() -> {
					while (!this.stopped) {
						try {
							list.add(generator.nextId());
						}
						catch (WorkerIdUnavailableException ex) {
							sleepQuietly();
						}
					}
				}, "pause-drill-b" + i);
				thread.setDaemon(true);
				thread.start();
				this.threads.add(thread);
			}
		}

		/**
		 * Stops the threads.
		 * @return what they issued
		 */
		long[] stop() throws InterruptedException {
			this.stopped = true;
			LongList all = new LongList();
			for (int i = 0; i < this.threads.size(); i++) {
				this.threads.get(i).join(TimeUnit.SECONDS.toMillis(10));
				all.addAll(this.ids.get(i).toArray());
			}
			return all.toArray();
		}

		private static void sleepQuietly() {
			try {
				Thread.sleep(1);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}

	}

}
