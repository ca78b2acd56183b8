package io.idstarter.fleetclient;

import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

import javax.sql.DataSource;

import io.idstarter.IdWorkerListener;
import io.idstarter.segment.SegmentIdGenerator;
import io.idstarter.store.http.IdServerClient;
import io.idstarter.store.http.IdServerStatus;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.ThreadParams;

import org.springframework.boot.jdbc.DataSourceBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Client mode against in-process: segment IDs per second of one key from a client-mode application (segment store
 * {@code http}, worker leases from the ID servers), against the same application with its segment store in the
 * process (JDBC on an in-memory H2), and a bare {@link AtomicLong}, the machine's speed in the same run. Both
 * applications are {@link ClientApplication} with the same options; once a range is held both run the same in-memory
 * code, and the store is only called for the next range, in the background.
 *
 * <p>Each mode runs in JVMs of its own (JMH forks one JVM per parameter value), so that the JIT's profile of one
 * mode's call sites, and its threads, do not touch the other's. The ID server runs in a process of its own, started
 * before the run, in both modes (the in-process mode leases its worker ID there too). {@link Calls} counts, per
 * iteration, the calls the application sent to the servers (ranges and leases), its segment store's calls, and the
 * calls of {@code nextId} that had to wait for a range, with their total wait; they are reported as rates, so that
 * divided by the score they are counts per ID.
 *
 * <p>Run: {@code scripts/benchmarks.sh <dir> client-mode}, which starts the server, runs this with {@code -t 1},
 * {@code 2} and {@code 8} in interleaved rounds (one fork per mode and round) and reports the ratios. The server's
 * URL and a fleet token it accepts for namespace {@code fleet-client} and key {@code order} come from the
 * environment: {@code IDSTARTER_BENCH_SERVERS} and {@code IDSTARTER_BENCH_TOKEN}.
 */
@BenchmarkMode(org.openjdk.jmh.annotations.Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@State(Scope.Benchmark)
public class ClientModeBenchmark {

	/** The key every mode draws from; the server declares it (step 2000) and grants it to the token. */
	static final String KEY = "order";

	@Param
	public Mode mode;

	/**
	 * The dynamic step's largest range ({@code id-worker.segment.dynamic-step.max-step}), the same in both modes. At
	 * full speed the default, 1,000,000, lasts a few milliseconds, so a fetch that takes longer makes callers wait;
	 * a larger one shows the issuing alone.
	 */
	@Param("1000000")
	public int maxStep;

	private IdSource source;

	private ConfigurableApplicationContext application;

	private IdServerClient servers;

	private StoreCounts store;

	@Setup(Level.Trial)
	public void start() {
		if (this.mode == Mode.ATOMIC_LONG) {
			AtomicLong counter = new AtomicLong();
			this.source = counter::getAndIncrement;
			return;
		}
		this.application = this.mode.start(env("IDSTARTER_BENCH_SERVERS"), env("IDSTARTER_BENCH_TOKEN"),
				Integer.toString(this.maxStep));
		SegmentIdGenerator generator = this.application.getBean(SegmentIdGenerator.class);
		this.servers = this.application.getBean(IdServerClient.class);
		this.store = this.application.getBean(StoreCounts.class);
		this.source = () -> generator.nextId(KEY);
	}

	@TearDown(Level.Trial)
	public void stop() {
		if (this.application != null) {
			this.application.close();
		}
	}

	/** {@code calls} is named so that JMH runs its counters' fixtures around each iteration. */
	@Benchmark
	public long nextId(Calls calls) {
		return this.source.next();
	}

	/** Calls to the servers, ranges drawn, their time, waits and wait time so far. */
	long[] counts() {
		if (this.servers == null) {
			return new long[5];
		}
		return new long[] { this.servers.servers().stream().mapToLong(IdServerStatus::calls).sum(),
				this.store.calls.sum(), this.store.callNanos.sum(), this.store.waits.sum(), this.store.waitNanos.sum() };
	}

	private static String env(String name) {
		String value = System.getenv(name);
		if (value == null || value.isBlank()) {
			throw new IllegalStateException(name + " is not set: start an ID server with a fleet client for namespace "
					+ "fleet-client and key " + KEY + " and name it there (scripts/benchmarks.sh client-mode does)");
		}
		return value;
	}

	/**
	 * What the application did in an iteration besides issuing, counted by the first caller only (0 on the others);
	 * reported as rates, like the score.
	 */
	@AuxCounters(AuxCounters.Type.OPERATIONS)
	@State(Scope.Thread)
	public static class Calls {

		/** Calls sent to the ID servers: ranges, leases. */
		public long serverCalls;

		/** Ranges drawn from the segment store. */
		public long storeCalls;

		/** Their total time, in µs. */
		public long storeMicros;

		/** Calls of {@code nextId} that waited for a range. */
		public long waits;

		/** Their total wait, in µs. */
		public long waitMicros;

		private boolean first;

		private long[] start;

		@Setup(Level.Iteration)
		public void start(ThreadParams threadParams, ClientModeBenchmark benchmark) {
			this.first = threadParams.getThreadIndex() == 0;
			this.serverCalls = 0;
			this.storeCalls = 0;
			this.storeMicros = 0;
			this.waits = 0;
			this.waitMicros = 0;
			this.start = this.first ? benchmark.counts() : null;
		}

		@TearDown(Level.Iteration)
		public void stop(ClientModeBenchmark benchmark) {
			if (this.first) {
				long[] end = benchmark.counts();
				this.serverCalls = end[0] - this.start[0];
				this.storeCalls = end[1] - this.start[1];
				this.storeMicros = (end[2] - this.start[2]) / 1000;
				this.waits = end[3] - this.start[3];
				this.waitMicros = (end[4] - this.start[4]) / 1000;
			}
		}

	}

	/** Where the IDs come from. */
	public enum Mode {

		/** A bare {@link AtomicLong}: the speed of this machine in this run. */
		ATOMIC_LONG,

		/** The application with its segments in an in-process store: JDBC on an in-memory H2. */
		IN_PROCESS {
			@Override
			ConfigurableApplicationContext start(String servers, String token, String maxStep) {
				return ClientApplication.start(new Class<?>[] { StoreCounts.class, InProcessStore.class }, servers,
						properties(token, maxStep, "id-worker.segment.store", "jdbc",
								"id-worker.jdbc.initialize-schema", "always", "id-worker.segment.keys." + KEY + ".step",
								"2000"));
			}
		},

		/** The application in client mode: ranges from the ID servers over HTTP. */
		CLIENT;

		ConfigurableApplicationContext start(String servers, String token, String maxStep) {
			return ClientApplication.start(new Class<?>[] { StoreCounts.class }, servers, properties(token, maxStep));
		}

		private static String[] properties(String token, String maxStep, String... more) {
			String[] common = { "id-worker.http.token", token, "id-worker.segment.dynamic-step.max-step", maxStep,
					"logging.level.root", "WARN", "spring.main.banner-mode", "off" };
			String[] all = new String[common.length + more.length];
			System.arraycopy(common, 0, all, 0, common.length);
			System.arraycopy(more, 0, all, common.length, more.length);
			return all;
		}

	}

	/** Counts the ranges drawn from the segment store and the waits of {@code nextId}, in either mode. */
	static class StoreCounts implements IdWorkerListener {

		final LongAdder calls = new LongAdder();

		final LongAdder callNanos = new LongAdder();

		final LongAdder waits = new LongAdder();

		final LongAdder waitNanos = new LongAdder();

		@Override
		public void storeCall(String key, String operation, long nanos, boolean success) {
			if ("allocate".equals(operation)) {
				this.calls.increment();
				this.callNanos.add(nanos);
			}
		}

		@Override
		public void segmentWait(String key, long nanos, boolean served) {
			this.waits.increment();
			this.waitNanos.add(nanos);
		}

	}

	/** The in-process mode's database: H2 in memory, one per JVM. */
	@Configuration(proxyBeanMethods = false)
	static class InProcessStore {

		@Bean
		DataSource inProcessDataSource() {
			return DataSourceBuilder.create()
				.url("jdbc:h2:mem:" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1")
				.username("sa")
				.password("")
				.build();
		}

	}

	/** One generator per fork, so the call site stays monomorphic. */
	@FunctionalInterface
	interface IdSource {

		long next();

	}

}
