package io.idstarter.fleetclient;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import java.util.stream.Stream;

import io.idstarter.segment.SegmentIdGenerator;
import io.idstarter.store.http.IdServerClient;
import io.idstarter.store.http.IdServerStatus;

import org.springframework.context.ConfigurableApplicationContext;

/**
 * A client-mode application issuing segment IDs while one of its two ID servers is killed: the latency of every
 * {@code nextId} of one thread taking IDs as fast as it can, before and after a {@code SIGKILL} of the server it
 * talks to (a client starts on a random one), against the same timed loop over a bare {@link AtomicLong} in a JVM of its own (the floor of the
 * measurement: timer, loop and the machine's jitter; one JVM per loop, so that the loop's call site sees one
 * receiver). At full speed a range
 * of the dynamic step's largest size (1,000,000) lasts a few milliseconds, so the client fetches ranges all through
 * the run and must take them from the other server as soon as the first is gone; a call that waited for a range
 * shows in the maximum. Run by hand ({@code scripts/benchmarks.sh <dir> client-failover} starts both servers on one
 * database and runs it), not in CI.
 *
 * <p>Arguments: the two servers' URLs and their process IDs (each comma-separated, in the same order), a fleet token
 * both accept for namespace {@code fleet-client} and key {@code order}, seconds to measure (default 20: after a
 * warm-up of a quarter of it, half of it with both servers up, then all of it with the kill a quarter in), and a
 * file to write the figures to as JSON (optional); or {@code floor}, the seconds and the file, for the bare counter.
 * Exits 1 when a call failed, when no range was drawn from the second server after the kill, or when the first
 * server did not die.
 */
public final class ClientModeFailover {

	/** Upper bound of the histograms' buckets: calls slower than this land in the last one. */
	private static final long MAX_NANOS = TimeUnit.SECONDS.toNanos(10);

	private ClientModeFailover() {
	}

	public static void main(String[] args) throws Exception {
		if (args.length >= 1 && args[0].equals("floor")) {
			floor((args.length > 1) ? Long.parseLong(args[1]) : 20, (args.length > 2) ? Path.of(args[2]) : null);
			return;
		}
		if (args.length < 3) {
			System.err.println("Usage: ClientModeFailover <url1,url2> <pid1,pid2> <token> [seconds] [json]\n"
					+ "       ClientModeFailover floor [seconds] [json]");
			System.exit(2);
		}
		List<String> urls = List.of(args[0].split(","));
		List<Long> pids = Stream.of(args[1].split(",")).map(Long::valueOf).toList();
		if (urls.size() != 2 || pids.size() != 2) {
			throw new IllegalArgumentException("Give two servers' URLs and their two process IDs, not " + args[0]
					+ " and " + args[1]);
		}
		long seconds = (args.length > 3) ? Long.parseLong(args[3]) : 20;
		Path json = (args.length > 4) ? Path.of(args[4]) : null;
		try (ConfigurableApplicationContext client = ClientApplication.start(String.join(",", urls),
				"id-worker.http.token", args[2], "logging.level.root", "WARN", "spring.main.banner-mode", "off")) {
			SegmentIdGenerator generator = client.getBean(SegmentIdGenerator.class);
			IdServerClient servers = client.getBean(IdServerClient.class);
			// One supplier for every loop, so that the loop's call site sees one receiver.
			LongSupplier ids = () -> generator.nextId(ClientModeBenchmark.KEY);
			run(ids, seconds / 4);
			long[] callsStart = calls(servers);
			Latencies before = run(ids, seconds / 2);
			long[] callsBefore = calls(servers);
			// The server the client has been drawing its ranges from is the one to kill.
			int victim = (callsBefore[0] - callsStart[0] >= callsBefore[1] - callsStart[1]) ? 0 : 1;
			int other = 1 - victim;
			ProcessHandle server = ProcessHandle.of(pids.get(victim))
				.orElseThrow(() -> new IllegalArgumentException("No process " + pids.get(victim) + " to kill"));
			Thread killer = new Thread(() -> {
				sleep(seconds * 1000 / 4);
				server.destroyForcibly();
			});
			killer.start();
			Latencies after = run(ids, seconds);
			killer.join();
			long[] callsAfter = calls(servers);
			boolean killed = server.onExit().get(5, TimeUnit.SECONDS) != null && !server.isAlive();
			long otherServerCalls = callsAfter[other] - callsBefore[other];
			String report = String.format(Locale.ROOT,
					"{\"before\": %s, \"during\": %s, \"callsKilledServerBefore\": %d, "
							+ "\"callsOtherServerAfter\": %d, \"killed\": %b, \"failures\": %d}",
					before.json(), after.json(), callsBefore[victim] - callsStart[victim], otherServerCalls, killed,
					after.failures + before.failures);
			System.out.println(report);
			print("client mode, both servers up", before);
			print("client mode, one server killed", after);
			System.out.printf(Locale.ROOT, "calls to the other server after the kill: %d; failed calls: %d%n",
					otherServerCalls, after.failures + before.failures);
			if (json != null) {
				Files.writeString(json, report);
			}
			if (!killed || otherServerCalls == 0 || after.failures + before.failures > 0) {
				System.err.println("FAILED: the client must keep issuing and draw its ranges from the other server");
				System.exit(1);
			}
		}
	}

	/** The same timed loop over a bare counter, alone in its JVM. */
	private static void floor(long seconds, Path json) throws IOException {
		AtomicLong counter = new AtomicLong();
		LongSupplier ids = counter::getAndIncrement;
		run(ids, seconds / 4);
		Latencies floor = run(ids, seconds);
		print("bare AtomicLong (floor)", floor);
		if (json != null) {
			Files.writeString(json, floor.json());
		}
	}

	private static long[] calls(IdServerClient servers) {
		List<IdServerStatus> statuses = servers.servers();
		return new long[] { statuses.get(0).calls(), statuses.get(1).calls() };
	}

	/** Times every call of one thread for the given seconds. */
	private static Latencies run(LongSupplier ids, long seconds) {
		Latencies latencies = new Latencies();
		long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(Math.max(1, seconds));
		long sink = 0;
		long now = System.nanoTime();
		while (now < end) {
			long start = now;
			try {
				sink += ids.getAsLong();
			}
			catch (RuntimeException ex) {
				latencies.failures++;
			}
			now = System.nanoTime();
			latencies.record(now - start);
		}
		latencies.sink = sink;
		return latencies;
	}

	private static void print(String name, Latencies latencies) {
		System.out.printf(Locale.ROOT, "%-34s %,14d calls  p50 %6.2f  p99 %6.2f  p99.9 %6.2f  p99.99 %8.2f  max %,10.1f µs%n",
				name, latencies.count, latencies.percentile(50) / 1e3, latencies.percentile(99) / 1e3,
				latencies.percentile(99.9) / 1e3, latencies.percentile(99.99) / 1e3, latencies.max / 1e3);
	}

	private static void sleep(long millis) {
		try {
			Thread.sleep(millis);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	/**
	 * Call times in buckets of 1 ns up to 1,024 ns, then 64 buckets per power of two (under 1.6% apart), and the
	 * exact maximum.
	 */
	static final class Latencies {

		private static final int LINEAR = 1024;

		private static final int SUB_BUCKETS = 64;

		private final long[] buckets = new long[index(MAX_NANOS) + 1];

		long count;

		long max;

		long failures;

		long sink;

		void record(long nanos) {
			this.buckets[index(Math.min(nanos, MAX_NANOS))]++;
			this.count++;
			this.max = Math.max(this.max, nanos);
		}

		/** The upper bound of the bucket that holds the given percentile, in ns. */
		double percentile(double percent) {
			long rank = (long) Math.ceil(this.count * percent / 100);
			long seen = 0;
			for (int i = 0; i < this.buckets.length; i++) {
				seen += this.buckets[i];
				if (seen >= rank && this.buckets[i] > 0) {
					return upper(i);
				}
			}
			return this.max;
		}

		String json() {
			return String.format(Locale.ROOT,
					"{\"calls\": %d, \"p50\": %.1f, \"p99\": %.1f, \"p99.9\": %.1f, \"p99.99\": %.1f, \"max\": %d}",
					this.count, percentile(50), percentile(99), percentile(99.9), percentile(99.99), this.max);
		}

		private static int index(long nanos) {
			if (nanos < LINEAR) {
				return (int) nanos;
			}
			int power = 63 - Long.numberOfLeadingZeros(nanos);
			int sub = (int) ((nanos >>> (power - 6)) & (SUB_BUCKETS - 1));
			return LINEAR + (power - 10) * SUB_BUCKETS + sub;
		}

		private static double upper(int index) {
			if (index < LINEAR) {
				return index;
			}
			int power = (index - LINEAR) / SUB_BUCKETS + 10;
			int sub = (index - LINEAR) % SUB_BUCKETS;
			return ((long) (SUB_BUCKETS + sub + 1) << (power - 6));
		}

	}

}
