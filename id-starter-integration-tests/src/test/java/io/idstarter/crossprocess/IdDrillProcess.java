package io.idstarter.crossprocess;

import java.io.BufferedOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import io.idstarter.IdGenerationException;
import io.idstarter.IdWorker;
import io.idstarter.IdWorkerListener;
import io.idstarter.StoreRegressionException;
import io.idstarter.lease.LeaseSettings;
import io.idstarter.lease.NoFreeWorkerIdException;
import io.idstarter.lease.WorkerLeaseKeeper;
import io.idstarter.segment.DynamicStep;
import io.idstarter.segment.SegmentIdGenerator;
import io.idstarter.segment.SegmentOptions;
import io.idstarter.segment.SegmentsExhaustedException;
import io.idstarter.snowflake.ClockBackwardsPolicy;
import io.idstarter.snowflake.SnowflakeIdGenerator;
import io.idstarter.snowflake.SnowflakeLayout;
import io.idstarter.snowflake.WorkerIdUnavailableException;
import io.idstarter.time.TimeSource;

/**
 * A child process of the cross-process drills: issues IDs from a store shared with other processes and writes them
 * to files, so that the test JVM can check that no two processes ever issued the same ID.
 *
 * <p>Each thread writes its IDs as big-endian longs to {@code <out>/<label>-t<N>.ids} through a buffer that is
 * flushed after every burst, so a SIGKILL loses only the unflushed tail, IDs that were never "used". Lease calls and
 * milestones go to {@code <out>/<label>.events} (see {@link DrillEvent}), each line written through at once.
 *
 * <p>Arguments, all {@code --name=value}: the store ({@link StoreSpec#toArgs()}), {@code mode} (SNOWFLAKE or
 * SEGMENT), {@code label}, {@code out}, {@code threads}, {@code count} (IDs per thread), {@code rate} (IDs per second
 * per thread, 0 for as fast as possible), optionally {@code go} (a file whose existence starts the issuing) and
 * {@code finish} (a file whose existence lets the process stop once it has issued its IDs; until then it keeps its
 * worker ID); for
 * segments {@code key}, {@code max-step} and optionally {@code heal-margin} (turns heal forward on with that margin);
 * for Snowflake {@code worker-bits}, {@code ttl-ms}, {@code heartbeat-ms},
 * {@code margin-ms}, {@code cache} (the worker-ID cache file), {@code startup-timeout-ms} (how long to retry while
 * every worker ID is taken) and optionally {@code sequence-bits} (fewer sequence bits, more timestamp bits); and
 * optionally {@code stop} (a file whose existence ends the issuing early, as if every thread had issued its count)
 * and {@code timeouts} ({@code short} for {@link DrillStore#SHORT}, else {@link DrillStore#RELAXED}).
 * Exits 0 when every thread issued its count (or was stopped), 1 otherwise.
 */
public final class IdDrillProcess {

	/** IDs issued between two flushes of a thread's file and two looks at the pace. */
	static final int BURST = 256;

	/** How long a thread retries a refused call (no lease, no range) before it gives up. */
	private static final Duration REFUSAL_TIMEOUT = Duration.ofSeconds(30);

	/** Refusal streaks per thread recorded as events (their first refusal and their end); the rest are counted. */
	private static final int REFUSALS_RECORDED = 20;

	private final Map<String, String> options;

	private final StoreSpec spec;

	private final DrillMode mode;

	private final String label;

	private final Path out;

	private final EventLog.FileLog events;

	private final AtomicLong refusals = new AtomicLong();

	private final AtomicBoolean failed = new AtomicBoolean();

	private IdDrillProcess(Map<String, String> options) {
		this.options = options;
		this.spec = StoreSpec.fromArgs(options);
		this.mode = DrillMode.valueOf(option("mode"));
		this.label = option("label");
		this.out = Path.of(option("out"));
		this.events = EventLog.toFile(this.out.resolve(this.label + ".events"));
	}

	public static void main(String[] args) {
		Map<String, String> options = new HashMap<>();
		for (String arg : args) {
			int equals = arg.indexOf('=');
			if (!arg.startsWith("--") || equals < 0) {
				throw new IllegalArgumentException("arguments are --name=value: '" + arg + "'");
			}
			options.put(arg.substring(2, equals), arg.substring(equals + 1));
		}
		int status;
		try {
			status = new IdDrillProcess(options).run();
		}
		catch (Throwable ex) {
			ex.printStackTrace();
			status = 2;
		}
		// Store clients may hold non-daemon threads; the drill is over.
		System.exit(status);
	}

	private int run() throws Exception {
		this.events.record("start", "pid=" + ProcessHandle.current().pid() + " mode=" + this.mode);
		DrillStore.Timeouts timeouts = "short".equals(this.options.get("timeouts")) ? DrillStore.SHORT
				: DrillStore.RELAXED;
		try (DrillStore store = DrillStore.open(this.spec, timeouts)) {
			Generator generator = (this.mode == DrillMode.SNOWFLAKE) ? startSnowflake(store) : startSegments(store);
			try {
				awaitFile("go");
				this.events.record("issuing", "");
				long issued = issue(generator.worker, generator.key);
				this.events.record("done", "issued=" + issued + " refused=" + this.refusals.get() + " failed="
						+ this.failed.get());
				awaitFile("finish");
			}
			finally {
				generator.close.run();
				this.events.record("closed", "");
			}
		}
		catch (RuntimeException ex) {
			this.events.record("failed", EventLog.error(ex));
			throw ex;
		}
		return this.failed.get() ? 1 : 0;
	}

	private Generator startSnowflake(DrillStore store) {
		int workerBits = intOption("worker-bits");
		SnowflakeLayout layout = this.options.containsKey("sequence-bits")
				? DrillLayout.of(workerBits, intOption("sequence-bits")) : DrillLayout.of(workerBits);
		SnowflakeIdGenerator generator = new SnowflakeIdGenerator(layout, TimeSource.system(),
				ClockBackwardsPolicy.defaults(), IdWorkerListener.NONE);
		LeaseSettings settings = LeaseSettings.builder()
			.namespace(this.spec.name())
			.ttl(Duration.ofMillis(intOption("ttl-ms")))
			.heartbeat(Duration.ofMillis(intOption("heartbeat-ms")))
			.safetyMargin(Duration.ofMillis(intOption("margin-ms")))
			.instance(this.label + "/" + ProcessHandle.current().pid())
			.cacheFile(Path.of(option("cache")))
			.build();
		RecordingLeaseStore leases = new RecordingLeaseStore(store.sequenceManager(), this.events);
		long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(intOption("startup-timeout-ms"));
		for (;;) {
			WorkerLeaseKeeper keeper = new WorkerLeaseKeeper(leases, generator, settings, TimeSource.system(),
					IdWorkerListener.NONE);
			try {
				keeper.start();
				this.events.record("ready", "worker=" + generator.workerId().orElse(-1));
				return new Generator(generator, "", keeper::close);
			}
			catch (NoFreeWorkerIdException ex) {
				this.events.record("startup-refused", EventLog.error(ex));
				if (System.nanoTime() - deadline > 0) {
					throw ex;
				}
				sleep(100);
			}
		}
	}

	private Generator startSegments(DrillStore store) {
		int maxStep = intOption("max-step");
		SegmentOptions.Builder segmentOptions = SegmentOptions.builder()
			.dynamicStep(new DynamicStep(DynamicStep.DEFAULT_EXPAND_BELOW, DynamicStep.DEFAULT_SHRINK_ABOVE, maxStep));
		String healMargin = this.options.get("heal-margin");
		if (healMargin != null) {
			segmentOptions.healForward(true).healMargin(Long.parseLong(healMargin));
		}
		SegmentIdGenerator generator = new SegmentIdGenerator(store.segmentStore(), segmentOptions.build(),
				TimeSource.system(), IdWorkerListener.NONE, null);
		generator.start();
		this.events.record("ready", "");
		return new Generator(generator, option("key"), generator::close);
	}

	/**
	 * Waits until the file named by an option exists; returns at once without the option.
	 */
	private void awaitFile(String option) {
		String path = this.options.get(option);
		if (path == null) {
			return;
		}
		Path file = Path.of(path);
		while (!Files.exists(file)) {
			sleep(5);
		}
	}

	private long issue(IdWorker worker, String key) throws InterruptedException {
		int threads = intOption("threads");
		long count = Long.parseLong(option("count"));
		long rate = Long.parseLong(option("rate"));
		AtomicLong issued = new AtomicLong();
		List<Thread> issuers = new ArrayList<>();
		for (int i = 0; i < threads; i++) {
			Path file = this.out.resolve(this.label + "-t" + i + ".ids");
			int index = i;
			Thread thread = new Thread(() -> {
				try {
					issued.addAndGet(issueTo(file, worker, key, count, rate));
				}
				catch (Throwable ex) {
					this.failed.set(true);
					this.events.record("thread-failed", "thread=" + index + " " + EventLog.error(ex));
				}
			}, "drill-" + this.label + "-" + i);
			thread.start();
			issuers.add(thread);
		}
		for (Thread thread : issuers) {
			thread.join();
		}
		return issued.get();
	}

	/**
	 * Issues {@code count} IDs at {@code rate} per second (bursts of {@link #BURST}), writing each to the file.
	 */
	private long issueTo(Path file, IdWorker worker, String key, long count, long rate) throws IOException {
		try (DataOutputStream ids = new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(file),
				1 << 16))) {
			long start = System.nanoTime();
			long issued = 0;
			int streaks = 0;
			long refusedSince = 0;
			long refusedInStreak = 0;
			String stopOption = this.options.get("stop");
			Path stop = (stopOption != null) ? Path.of(stopOption) : null;
			while (issued < count) {
				long id;
				try {
					id = worker.nextId(key);
				}
				catch (WorkerIdUnavailableException | SegmentsExhaustedException | StoreRegressionException ex) {
					if (ex instanceof StoreRegressionException && !this.options.containsKey("heal-margin")) {
						// Without heal forward a refusal lasts until an operator acts: the drill ends there.
						throw ex;
					}
					long now = System.nanoTime();
					if (refusedSince == 0) {
						refusedSince = now;
						if (streaks < REFUSALS_RECORDED) {
							this.events.record("refused", "issued=" + issued + " " + EventLog.error(ex));
						}
					}
					else if (now - refusedSince > REFUSAL_TIMEOUT.toNanos()) {
						throw new IdGenerationException("refused for " + REFUSAL_TIMEOUT.toSeconds() + " s", ex);
					}
					this.refusals.incrementAndGet();
					refusedInStreak++;
					sleep(5);
					continue;
				}
				if (refusedSince != 0) {
					if (streaks++ < REFUSALS_RECORDED) {
						this.events.record("issuing-again", "refused=" + refusedInStreak + " ms="
								+ TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - refusedSince));
					}
					refusedSince = 0;
					refusedInStreak = 0;
				}
				ids.writeLong(id);
				issued++;
				if (issued % BURST == 0) {
					ids.flush();
					if (stop != null && Files.exists(stop)) {
						break;
					}
					pace(start, issued, rate);
				}
			}
			return issued;
		}
	}

	private static void pace(long start, long issued, long rate) {
		if (rate <= 0) {
			return;
		}
		long due = start + issued * 1_000_000_000L / rate;
		long wait = due - System.nanoTime();
		if (wait > 0) {
			LockSupport.parkNanos(wait);
		}
	}

	private String option(String name) {
		String value = this.options.get(name);
		if (value == null) {
			throw new IllegalArgumentException("missing --" + name + "=...");
		}
		return value;
	}

	private int intOption(String name) {
		return Integer.parseInt(option(name));
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
	 * A started generator, the key to ask it for, and how to stop it (giving the worker ID back).
	 */
	private record Generator(IdWorker worker, String key, Runnable close) {
	}

}
