package io.idstarter.segment;

import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.locks.LockSupport;

/**
 * Which calls make the segment tail of {@link SegmentLatencyBenchmark}? Runs our generator the way that benchmark
 * does (step {@value SegmentLatencyBenchmark#STEP}, one call per millisecond after the same warm-up) and sorts every
 * call's latency by where its ID lies in its range: the first ID of a range (the switch to the next segment), the ID
 * that crosses the prefetch threshold (queues the fetch), the few after it (while the pool runs the fetch), and the
 * rest. Prints each kind's percentiles and how many of its calls are at or above the p99.9 of all calls, then how
 * often each of the process's threads went to sleep and was woken while the calls were paced ({@link ThreadSwitches}):
 * the caller parks once per call by design; every other thread's wake-ups are the generator's own.
 *
 * <p>Not a JMH benchmark: JMH's sampled latencies do not say which call they came from. Run:
 * {@code java -cp id-starter-benchmarks/target/benchmarks.jar io.idstarter.segment.SegmentTailBreakdown [store ms]
 * [seconds] [generator]} (default 0, 60 and {@code ID_STARTER}; the other generators of
 * {@link SegmentLatencyBenchmark.Generator} get the percentiles and the wake-ups, not the breakdown by kind).
 */
public final class SegmentTailBreakdown {

	/** Calls right after the prefetch request, while the pool thread may be running the fetch. */
	private static final int AFTER_REQUEST = 10;

	private SegmentTailBreakdown() {
	}

	public static void main(String[] args) {
		int storeMillis = (args.length > 0) ? Integer.parseInt(args[0]) : 0;
		int seconds = (args.length > 1) ? Integer.parseInt(args[1]) : 60;
		SegmentLatencyBenchmark.Generator generator = (args.length > 2)
				? SegmentLatencyBenchmark.Generator.valueOf(args[2]) : SegmentLatencyBenchmark.Generator.ID_STARTER;
		SegmentLatencyBenchmark benchmark = new SegmentLatencyBenchmark();
		benchmark.generator = generator;
		benchmark.storeMillis = storeMillis;
		benchmark.warmSlowPaths = true;
		benchmark.create();
		int calls = (int) (seconds * Duration.ofSeconds(1).toNanos() / SegmentLatencyBenchmark.PACE_NANOS);
		long[] nanos = new long[calls];
		long[] ids = new long[calls];
		ThreadSwitches before;
		ThreadSwitches after;
		long elapsed;
		try {
			before = ThreadSwitches.read();
			long start = System.nanoTime();
			for (int i = 0; i < calls; i++) {
				benchmark.pace();
				long started = System.nanoTime();
				ids[i] = benchmark.nextId();
				nanos[i] = System.nanoTime() - started;
			}
			elapsed = System.nanoTime() - start;
			after = ThreadSwitches.read();
		}
		finally {
			benchmark.close();
		}
		report(generator, storeMillis, nanos, ids);
		System.out.printf(Locale.ROOT, "%nthreads' context switches while paced (%s):%n", generator);
		after.printSince(before, elapsed / 1e9, 0.5);
	}

	private static void report(SegmentLatencyBenchmark.Generator generator, int storeMillis, long[] nanos,
			long[] ids) {
		long[] sorted = nanos.clone();
		Arrays.sort(sorted);
		long p999 = percentile(sorted, 0.999);
		System.out.printf(Locale.ROOT, "%s, store %d ms, %d calls: p50 %s, p99 %s, p99.9 %s, p99.99 %s%n", generator, storeMillis,
				nanos.length, micros(percentile(sorted, 0.5)), micros(percentile(sorted, 0.99)), micros(p999),
				micros(percentile(sorted, 0.9999)));
		if (generator != SegmentLatencyBenchmark.Generator.ID_STARTER) {
			return;
		}
		// The store starts the key at 1 and hands out consecutive ranges of STEP to this one caller.
		long prefetchAt = Segment.prefetchAt(1, 1 + SegmentLatencyBenchmark.STEP,
				SegmentOptions.DEFAULT_PREFETCH_THRESHOLD) - 1;
		String[] kinds = { "first ID of a range (switch)", "prefetch threshold (request)",
				"next " + AFTER_REQUEST + " (fetch running)", "every other call" };
		long[][] byKind = new long[kinds.length][nanos.length];
		int[] counts = new int[kinds.length];
		for (int i = 0; i < nanos.length; i++) {
			long position = (ids[i] - 1) % SegmentLatencyBenchmark.STEP;
			int kind = (position == 0) ? 0 : (position == prefetchAt) ? 1
					: (position > prefetchAt && position <= prefetchAt + AFTER_REQUEST) ? 2 : 3;
			byKind[kind][counts[kind]++] = nanos[i];
		}
		System.out.printf(Locale.ROOT, "%-32s %7s %9s %9s %9s %9s %12s%n", "call", "count", "p50", "p90", "p99",
				"max", ">= p99.9");
		for (int kind = 0; kind < kinds.length; kind++) {
			long[] latencies = Arrays.copyOf(byKind[kind], counts[kind]);
			Arrays.sort(latencies);
			long atOrAbove = Arrays.stream(latencies).filter((latency) -> latency >= p999).count();
			System.out.printf(Locale.ROOT, "%-32s %7d %9s %9s %9s %9s %12d%n", kinds[kind], latencies.length,
					micros(percentile(latencies, 0.5)), micros(percentile(latencies, 0.9)),
					micros(percentile(latencies, 0.99)), micros(latencies[latencies.length - 1]), atOrAbove);
		}
	}

	private static long percentile(long[] sorted, double fraction) {
		return sorted[Math.min(sorted.length - 1, (int) (sorted.length * fraction))];
	}

	private static String micros(long nanos) {
		return String.format(Locale.ROOT, "%.2f µs", nanos / 1000.0);
	}

}
