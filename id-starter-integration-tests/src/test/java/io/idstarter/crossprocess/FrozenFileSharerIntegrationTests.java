package io.idstarter.crossprocess;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import io.idstarter.IdWorkerListener;
import io.idstarter.lease.LeaseSettings;
import io.idstarter.lease.LeaseStatus.State;
import io.idstarter.lease.WorkerLeaseKeeper;
import io.idstarter.local.LocalFileLock;
import io.idstarter.snowflake.ClockBackwardsPolicy;
import io.idstarter.snowflake.SnowflakeIdGenerator;
import io.idstarter.snowflake.WorkerIdUnavailableException;
import io.idstarter.time.TimeSource;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.Timeout.ThreadMode;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Another process sharing a node's cache file is frozen (SIGSTOP) while it holds the lock of the worker slot marks
 * file beside it, as an instance paused in the middle of a write would be. The node, issuing on a real store, must
 * not hang: its heartbeat gives up on the file after the lock's wait, it issues no ID above the mark on disk (so it
 * refuses IDs once the grant in force runs out), its status keeps moving, and it issues again once the frozen process
 * is let go (SIGCONT).
 */
@Timeout(value = 180, threadMode = ThreadMode.SEPARATE_THREAD)
class FrozenFileSharerIntegrationTests {

	private static final Logger logger = LoggerFactory.getLogger(FrozenFileSharerIntegrationTests.class);

	private static final Duration TTL = Duration.ofSeconds(2);

	private static final Duration HEARTBEAT = Duration.ofMillis(500);

	private static final Duration MARGIN = Duration.ofMillis(500);

	/** How long any phase may take on a busy machine. */
	private static final Duration PHASE_TIMEOUT = Duration.ofSeconds(30);

	@TempDir
	Path directory;

	static List<StoreKind> stores() {
		return StoreKind.selected().stream()
			.filter((kind) -> kind == StoreKind.POSTGRESQL || kind == StoreKind.REDIS)
			.toList();
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("stores")
	void aFrozenProcessHoldingTheMarksLockNeitherHangsTheNodeNorLetsItIssueAboveItsMark(StoreKind kind)
			throws Exception {
		StoreSpec spec = kind.locate("xf_" + UUID.randomUUID().toString().replace("-", "").substring(0, 10));
		logger.info("Frozen file sharer drill on {} from {}", spec, kind.origin());
		try (DrillStore admin = DrillStore.open(spec)) {
			admin.createSchema();
			try {
				run(admin, spec);
			}
			finally {
				admin.dropAll();
			}
		}
	}

	private void run(DrillStore admin, StoreSpec spec) throws Exception {
		Path cacheFile = this.directory.resolve("worker-id");
		Path marksFile = this.directory.resolve("id-worker-slot-marks");
		SnowflakeIdGenerator generator = new SnowflakeIdGenerator(DrillLayout.of(1), TimeSource.system(),
				ClockBackwardsPolicy.defaults(), IdWorkerListener.NONE);
		LeaseSettings settings = LeaseSettings.builder()
			.namespace(spec.name())
			.ttl(TTL)
			.heartbeat(HEARTBEAT)
			.safetyMargin(MARGIN)
			.instance("node-a")
			.cacheFile(cacheFile)
			.build();
		AtomicBoolean frozen = new AtomicBoolean();
		AtomicLong issuedWhileFrozen = new AtomicLong();
		AtomicLong highestWhileFrozen = new AtomicLong(-1);
		AtomicLong refusedWhileFrozen = new AtomicLong();
		AtomicBoolean stop = new AtomicBoolean();
		try (WorkerLeaseKeeper keeper = new WorkerLeaseKeeper(admin.sequenceManager(), generator, settings,
				TimeSource.system(), IdWorkerListener.NONE)) {
			keeper.start();
			int workerId = keeper.status().workerId();
			Thread issuer = new Thread(() -> {
				while (!stop.get()) {
					boolean duringFreeze = frozen.get();
					try {
						long timestamp = generator.parse(generator.nextId()).timestamp().toEpochMilli();
						if (duringFreeze && frozen.get()) {
							issuedWhileFrozen.incrementAndGet();
							highestWhileFrozen.accumulateAndGet(timestamp, Math::max);
						}
					}
					catch (WorkerIdUnavailableException ex) {
						if (duringFreeze) {
							refusedWhileFrozen.incrementAndGet();
						}
						sleep(1);
					}
				}
			}, "issuer");
			issuer.start();
			try (FileLockHolder other = FileLockHolder.hold(marksFile)) {
				other.pause();
				long markAtFreeze = mark(marksFile, spec.name(), workerId);
				frozen.set(true);
				long frozenAt = System.nanoTime();
				// The grant in force runs out: IDs are refused, and the heartbeat is not stuck.
				await().atMost(PHASE_TIMEOUT).until(() -> refusedWhileFrozen.get() > 0);
				await().atMost(PHASE_TIMEOUT)
					.until(() -> keeper.status().state() != State.ACTIVE && keeper.status().consecutiveFailures() >= 2);
				long frozenFor = Duration.ofNanos(System.nanoTime() - frozenAt).toMillis();
				assertThat(frozenFor).as("frozen for longer than the lock's wait")
					.isGreaterThan(LocalFileLock.DEFAULT_TIMEOUT.toMillis());
				frozen.set(false);
				assertThat(mark(marksFile, spec.name(), workerId)).as("mark on disk while frozen")
					.isEqualTo(markAtFreeze);
				assertThat(highestWhileFrozen.get()).as("highest timestamp issued while frozen")
					.isLessThanOrEqualTo(markAtFreeze);
				logger.info("While frozen for {} ms: {} IDs issued (up to the mark {}), {} refused, keeper {}",
						frozenFor, issuedWhileFrozen.get(), markAtFreeze, refusedWhileFrozen.get(), keeper.status());
				other.letGo();
				other.resume();
				assertThat(other.awaitExit(PHASE_TIMEOUT.toSeconds())).as("frozen process let go").isTrue();
			}
			await().atMost(PHASE_TIMEOUT).until(() -> keeper.status().state() == State.ACTIVE);
			long resumedAt = System.currentTimeMillis();
			await().atMost(PHASE_TIMEOUT).ignoreExceptions()
				.until(() -> generator.parse(generator.nextId()).timestamp().toEpochMilli() >= resumedAt);
			long id = generator.nextId();
			assertThat(mark(marksFile, spec.name(), generator.parse(id).workerId()))
				.as("mark on disk after recovery")
				.isGreaterThanOrEqualTo(generator.parse(id).timestamp().toEpochMilli());
			long closing = System.nanoTime();
			stop.set(true);
			issuer.join(10_000);
			keeper.close();
			assertThat(Duration.ofNanos(System.nanoTime() - closing)).isLessThan(PHASE_TIMEOUT);
		}
		finally {
			stop.set(true);
		}
	}

	/** Reads a slot's mark from the marks file: the line {@code <namespace>/<workerId>=<mark>}. */
	private static long mark(Path marksFile, String namespace, int workerId) throws Exception {
		String prefix = namespace + "/" + workerId + "=";
		return Files.readAllLines(marksFile)
			.stream()
			.filter((line) -> line.startsWith(prefix))
			.mapToLong((line) -> Long.parseLong(line.substring(prefix.length()).strip()))
			.findFirst()
			.orElseThrow(() -> new AssertionError("no mark of " + prefix + " in " + marksFile));
	}

	private static void sleep(long millis) {
		try {
			Thread.sleep(millis);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
