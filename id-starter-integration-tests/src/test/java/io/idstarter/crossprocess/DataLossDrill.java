package io.idstarter.crossprocess;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One run of the data-loss drill: {@value #PROCESSES} generator processes ({@link IdDrillProcess}) share a store and
 * issue IDs; {@link #FAULT_AFTER} after the start the store loses data (the fault the caller injects), and the
 * processes go on serving, or refuse. Then every ID is checked for duplicates, and each process's output is searched
 * for {@code StoreRegressionException}, the refusal of a node that saw the store answer below a mark it knows.
 *
 * <p>While the processes run, their ID files are watched every 20 ms: the longest pause of a process's issuing that
 * ends after the fault is the drill's recovery time (a process that ends or is killed while paused does not count,
 * since it never recovered).
 */
final class DataLossDrill {

	private static final Logger logger = LoggerFactory.getLogger(DataLossDrill.class);

	static final int PROCESSES = 3;

	static final int THREADS = 2;

	/** IDs per thread: 3 x 2 x 50,000 = 300,000 per run. */
	static final long COUNT = 50_000;

	/** IDs per second per thread, so that a process issues for 5 s. */
	static final long RATE = 10_000;

	/** When the store loses its data, after the start. */
	static final Duration FAULT_AFTER = Duration.ofSeconds(2);

	/** How long processes that refuse are given after the fault before they are stopped. */
	static final Duration REFUSING_GRACE = Duration.ofSeconds(10);

	static final String KEY = "drill";

	static final int STEP = 1000;

	static final int MAX_STEP = 4000;

	/** 8 worker IDs for 3 processes, so that one that lost its lease finds free slots. */
	static final int WORKER_BITS = 3;

	static final Drill.Settings SETTINGS = new Drill.Settings(THREADS, COUNT, RATE, KEY, MAX_STEP, WORKER_BITS,
			Duration.ofSeconds(3), Duration.ofSeconds(1), Duration.ofSeconds(1), Duration.ofSeconds(30));

	/** What the refusal of the node-side guard is called in a process's output. */
	static final String REGRESSION = "StoreRegressionException";

	/** What a process that moved the store past its mark writes in its output. */
	static final String HEAL = "(heal forward";

	private DataLossDrill() {
	}

	/**
	 * Runs the drill.
	 * @param name what is drilled, for the figures
	 * @param spec the store the processes use
	 * @param mode Snowflake or segment
	 * @param admin the test's own connection to the store, which creates the segment key
	 * @param fault makes the store lose data; runs {@link #FAULT_AFTER} after the start
	 * @param expectRefusals whether processes may refuse for good (unsafe configurations): they are then stopped
	 * {@link #REFUSING_GRACE} after the fault rather than awaited
	 * @param processArgs further {@code --name=value} options of every {@link IdDrillProcess}
	 * @return the figures
	 */
	static Result run(String name, StoreSpec spec, DrillMode mode, DrillStore admin, Runnable fault,
			boolean expectRefusals, String... processArgs) {
		if (mode == DrillMode.SEGMENT) {
			admin.keyAdmin().createKey(KEY, 1, STEP, "data-loss drill");
		}
		try (Drill drill = new Drill(spec, mode, SETTINGS)) {
			List<DrillChild> children = new ArrayList<>();
			for (int i = 0; i < PROCESSES; i++) {
				children.add(drill.launch("p" + i, "node" + i, COUNT, RATE, processArgs));
			}
			for (DrillChild child : children) {
				child.awaitEvent("ready", Duration.ofSeconds(60));
			}
			long goAt = drill.go();
			Watch watch = new Watch(children);
			watch.start();
			sleepUntil(goAt + FAULT_AFTER.toMillis());
			long faultAt = System.currentTimeMillis();
			watch.faultAt.set(faultAt);
			fault.run();
			long faultTook = System.currentTimeMillis() - faultAt;
			drill.finish();
			long deadline = System.currentTimeMillis()
					+ (expectRefusals ? REFUSING_GRACE : Duration.ofSeconds(120)).toMillis();
			Map<String, Integer> exits = new LinkedHashMap<>();
			for (DrillChild child : children) {
				while (child.isAlive() && System.currentTimeMillis() < deadline) {
					sleep(50);
				}
				if (child.isAlive()) {
					child.kill();
					exits.put(child.label(), null);
				}
				else {
					exits.put(child.label(), child.awaitExit(Duration.ofSeconds(5)));
				}
			}
			watch.stop();
			IdSet ids = drill.ids();
			long regressions = 0;
			long heals = 0;
			long refusals = 0;
			for (DrillChild child : children) {
				regressions += occurrences(child, REGRESSION);
				heals += occurrences(child, HEAL);
				refusals += child.events().stream().filter((event) -> event.kind().equals("done"))
					.mapToLong((event) -> Long.parseLong(event.fields().getOrDefault("refused", "0"))).sum();
			}
			List<String> sharedWorkers = (mode == DrillMode.SNOWFLAKE)
					? ids.workerTimestampOverlaps(DrillLayout.of(WORKER_BITS)) : List.of();
			Result result = new Result(name, mode, ids.size(), ids.duplicateCount(), regressions, heals, refusals,
					watch.longestStall(), faultTook, exits, ids.describeDuplicates(5), sharedWorkers,
					drill.describe());
			logger.info("{}", result);
			return result;
		}
	}

	/** Counts the lines of a process's output and events that contain a text. */
	private static long occurrences(DrillChild child, String text) {
		long count = 0;
		for (Path file : List.of(child.log(), child.log().resolveSibling(child.label() + ".events"))) {
			try {
				count += Files.readString(file, StandardCharsets.ISO_8859_1).lines().filter((line) -> line
					.contains(text)).count();
			}
			catch (NoSuchFileException ex) {
				// Nothing written.
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
		}
		return count;
	}

	static void sleepUntil(long wallMillis) {
		long wait = wallMillis - System.currentTimeMillis();
		if (wait > 0) {
			sleep(wait);
		}
	}

	static void sleep(long millis) {
		try {
			Thread.sleep(millis);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("interrupted", ex);
		}
	}

	/**
	 * The figures of one run.
	 *
	 * @param name what was drilled
	 * @param mode Snowflake or segment
	 * @param ids IDs checked
	 * @param duplicates IDs issued more than once
	 * @param regressions lines of the processes' output naming {@value #REGRESSION}
	 * @param heals times a process moved the store past its mark (heal forward)
	 * @param refusals calls refused and retried (no lease, no range), as the processes that finished counted them
	 * @param longestStallMillis the longest pause of a process's issuing that ended after the fault
	 * @param faultMillis how long injecting the fault took (the store unavailable meanwhile)
	 * @param exits each process's exit status, null if it was stopped while refusing
	 * @param duplicateSample the first duplicates
	 * @param sharedWorkers timestamps stamped under one worker ID by two processes (Snowflake)
	 * @param files where the processes' files and output are, for failure messages
	 */
	record Result(String name, DrillMode mode, long ids, long duplicates, long regressions, long heals, long refusals,
			long longestStallMillis, long faultMillis, Map<String, Integer> exits, List<String> duplicateSample,
			List<String> sharedWorkers, String files) {

		@Override
		public String toString() {
			return String.format(Locale.ROOT,
					"Data-loss drill '%s', %s mode: %,d IDs checked, %,d duplicates, %d refusals by the node guard "
							+ "(%s), %d heals forward, %d refused calls retried, longest pause in issuing after the "
							+ "fault %d ms (fault took %d ms), exits %s%s",
					this.name, this.mode, this.ids, this.duplicates, this.regressions, REGRESSION, this.heals,
					this.refusals,
					this.longestStallMillis, this.faultMillis, this.exits,
					this.duplicates > 0 ? ", first duplicates " + this.duplicateSample : "");
		}

	}

	/**
	 * Watches the processes' ID files and keeps the longest pause of one process that ended after the fault.
	 */
	private static final class Watch {

		private final List<DrillChild> children;

		private final AtomicBoolean running = new AtomicBoolean(true);

		/** Wall-clock ms of the fault; 0 before it. */
		final AtomicLong faultAt = new AtomicLong();

		/** Longest pause (ms) that ended after the fault; only grows. */
		private final AtomicLong longest = new AtomicLong();

		private final Thread thread;

		Watch(List<DrillChild> children) {
			this.children = children;
			this.thread = new Thread(this::watch, "data-loss-watch");
			this.thread.setDaemon(true);
		}

		void start() {
			this.thread.start();
		}

		void stop() {
			this.running.set(false);
			try {
				this.thread.join(5000);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}

		long longestStall() {
			return this.longest.get();
		}

		private void watch() {
			int n = this.children.size();
			long[] bytes = new long[n];
			long[] grewAt = new long[n];
			long started = System.currentTimeMillis();
			java.util.Arrays.fill(grewAt, started);
			while (this.running.get()) {
				long now = System.currentTimeMillis();
				for (int i = 0; i < n; i++) {
					DrillChild child = this.children.get(i);
					long size;
					try {
						size = child.idBytes();
					}
					catch (UncheckedIOException ex) {
						continue;
					}
					if (size > bytes[i]) {
						long fault = this.faultAt.get();
						if (fault != 0 && now > fault) {
							long pause = now - grewAt[i];
							this.longest.accumulateAndGet(pause, Math::max);
						}
						bytes[i] = size;
						grewAt[i] = now;
					}
				}
				sleep(20);
			}
		}

	}

}
