package io.idstarter.sequence;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

import io.idstarter.autoconfigure.EnableIdWorker;
import io.idstarter.autoconfigure.IdWorkerAutoConfiguration;
import io.idstarter.autoconfigure.IdWorkerMode;
import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;
import jakarta.persistence.EntityTransaction;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.hibernate.autoconfigure.HibernateJpaAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.orm.jpa.persistenceunit.PersistenceManagedTypes;

/**
 * Inserts JPA entities on PostgreSQL through Hibernate 7 with their IDs from database sequences, from applications
 * that differ only in where the IDs come from: Hibernate's {@code pooled} optimizer, its {@code pooled-lo}, and
 * id-starter's {@code @SegmentGeneratedId} over the sequence store ({@code id-worker.segment.store=sequence}, the
 * segment generator's double buffer and prefetch), as the docs configure it: once with the node's marks in memory (the
 * default), once with {@code id-worker.segment.marks-file} (as the docs' production settings have it).
 *
 * <p>Each source is a Spring Boot application of its own in this JVM (the DataSource and JPA auto-configurations,
 * HikariCP with the same settings, a schema of its own on the same database, its tables created by Hibernate). An
 * insert is one transaction, {@code begin}, {@code persist}, {@code commit} on a new {@code EntityManager}, timed from
 * begin to commit. The sources take turns, round after round (each round starts with another source), for each
 * number of threads (1, 2, 8), each step (50, Hibernate's default {@code allocationSize}, and 1000: the sequence's
 * {@code INCREMENT BY} and the {@code allocationSize}) and each commit mode ({@code fsync}: PostgreSQL's default; and
 * {@code off}: {@code synchronous_commit = off} on every connection, so that a commit does not wait for the disk and
 * the ID source's share of an insert shows). A run is a warm-up of {@code inserts.warm-up} seconds, then
 * {@code inserts.seconds} measured; the table is emptied before each run.
 *
 * <p>Writes one row per run to the TSV file given as the argument (scripts/benchmark-report.py makes the ratio table:
 * each source against {@code pooled} of the same round): inserts per second, percentiles of an insert, the load
 * average, and for id-starter the store calls (allocations), the callers' waits for a range and their times, from the
 * generator's listener.
 *
 * <p>PostgreSQL on localhost with user, password and database {@code idstarter}, or {@code IDSTARTER_POSTGRES_URL}
 * with user and password in the URL. Schemas {@code bench_seq_<random>_<source>}, dropped at the end.
 *
 * <p>Run from the module's class path (scripts/benchmarks.sh sequence-inserts builds it and holds the machine's
 * measuring lock): {@code java -cp <class path> io.idstarter.sequence.SequenceInsertLoad results.tsv}, with
 * {@code -Dinserts.seconds=5 -Dinserts.warm-up=1 -Dinserts.rounds=3 -Dinserts.threads=1,2,8 -Dinserts.steps=50,1000
 * -Dinserts.commits=fsync,off -Dinserts.sources=pooled,pooled-lo,id-starter,id-starter-marks} (the defaults).
 */
public final class SequenceInsertLoad {

	/** Connections of every application's pool, Spring Boot's default: 8 inserting threads and a fetch fit. */
	static final int POOL_SIZE = 10;

	/** Seconds each application inserts at 2 threads per step after it started, not measured. */
	private static final int START_WARM_UP_SECONDS = 3;

	private SequenceInsertLoad() {
	}

	public static void main(String[] args) throws Exception {
		if (args.length != 1) {
			throw new IllegalArgumentException("usage: SequenceInsertLoad <results.tsv>");
		}
		Settings settings = Settings.fromSystemProperties();
		Database database = Database.fromEnvironment();
		String run = UUID.randomUUID().toString().substring(0, 6);
		Path marksDirectory = Files.createTempDirectory("bench-seq-marks");
		try (PrintWriter out = new PrintWriter(Files.newBufferedWriter(Path.of(args[0])), true);
				Connection admin = database.connect()) {
			out.println(Result.HEADER);
			System.out.printf(Locale.ROOT, "%s%n%-6s %5s %3s %2s %-17s %10s %9s %9s %9s %8s %10s%n", settings, "commit",
					"step", "thr", "r", "source", "inserts/s", "p50 us", "p99 us", "calls", "waits", "wait us");
			int turn = 0;
			try {
				for (Commit commit : settings.commits()) {
					List<Application> applications = new ArrayList<>();
					try {
						for (Source source : settings.sources()) {
							String schema = source.schema(run);
							execute(admin, "DROP SCHEMA IF EXISTS " + schema + " CASCADE");
							execute(admin, "CREATE SCHEMA " + schema);
							Path marksFile = marksDirectory.resolve(source.label + "-" + commit.label);
							applications.add(Application.start(source, commit, database, schema, marksFile));
						}
						for (Application application : applications) {
							for (int step : settings.steps()) {
								application.insert(step, 2, 0, START_WARM_UP_SECONDS);
							}
						}
						turn = measure(settings, commit, applications, turn, admin, run, out);
					}
					finally {
						for (Application application : applications) {
							application.close();
						}
					}
				}
			}
			finally {
				for (Source source : Source.values()) {
					execute(admin, "DROP SCHEMA IF EXISTS " + source.schema(run) + " CASCADE");
				}
				try (var files = Files.list(marksDirectory)) {
					for (Path file : files.toList()) {
						Files.delete(file);
					}
				}
				Files.delete(marksDirectory);
			}
		}
	}

	/**
	 * Runs every step and number of threads of one commit mode, the applications taking turns.
	 * @return the turn the next round starts at, so that each round starts with another source
	 */
	private static int measure(Settings settings, Commit commit, List<Application> applications, int firstTurn,
			Connection admin, String run, PrintWriter out) throws SQLException, InterruptedException {
		int turn = firstTurn;
		for (int step : settings.steps()) {
			for (int threads : settings.threads()) {
				for (int round = 1; round <= settings.rounds(); round++, turn++) {
					for (int i = 0; i < applications.size(); i++) {
						Application application = applications.get((turn + i) % applications.size());
						execute(admin, "TRUNCATE TABLE " + application.source.schema(run) + ".entity_" + step);
						double load = loadAverage();
						Result result = application.insert(step, threads, settings.warmUpSeconds(), settings.seconds());
						Row row = new Row(commit, step, threads, round, application.source, result, load);
						out.println(row.tsv());
						System.out.println(row.text());
					}
				}
			}
		}
		return turn;
	}

	private static void execute(Connection connection, String sql) throws SQLException {
		try (Statement statement = connection.createStatement()) {
			statement.execute(sql);
		}
	}

	/** Returns the load average of the last minute, or -1 where /proc/loadavg cannot be read. */
	static double loadAverage() {
		try {
			return Double.parseDouble(Files.readString(Path.of("/proc/loadavg")).split(" ")[0]);
		}
		catch (IOException | RuntimeException ex) {
			return -1;
		}
	}

	/** How commits wait for the disk. */
	enum Commit {

		/** PostgreSQL's default: a commit returns once its WAL is flushed. */
		FSYNC("fsync"),

		/** {@code synchronous_commit = off}: a commit returns before its WAL is flushed. */
		OFF("off");

		final String label;

		Commit(String label) {
			this.label = label;
		}

		static Commit of(String label) {
			return Arrays.stream(values())
				.filter((commit) -> commit.label.equals(label))
				.findFirst()
				.orElseThrow(() -> new IllegalArgumentException("inserts.commits: 'fsync' or 'off', not '" + label + "'"));
		}

	}

	/** Where an application's IDs come from. */
	enum Source {

		/** Hibernate's {@code pooled} optimizer on a {@code @SequenceGenerator}. */
		POOLED("pooled", false, false),

		/** Hibernate's {@code pooled-lo} optimizer on a {@code @SequenceGenerator}. */
		POOLED_LO("pooled-lo", false, false),

		/** id-starter's {@code @SegmentGeneratedId} over the sequence store; marks in memory (the default). */
		ID_STARTER("id-starter", true, false),

		/** The same with {@code id-worker.segment.marks-file} set: a durable write of the key's mark per range. */
		ID_STARTER_MARKS("id-starter-marks", true, true);

		final String label;

		final boolean segment;

		final boolean marksFile;

		Source(String label, boolean segment, boolean marksFile) {
			this.label = label;
			this.segment = segment;
			this.marksFile = marksFile;
		}

		String schema(String run) {
			return "bench_seq_" + run + "_" + this.label.replace('-', '_');
		}

		static Source of(String label) {
			return Arrays.stream(values())
				.filter((source) -> source.label.equals(label))
				.findFirst()
				.orElseThrow(() -> new IllegalArgumentException("inserts.sources: among " + Arrays.stream(values())
					.map((source) -> source.label)
					.toList() + ", not '" + label + "'"));
		}

	}

	/**
	 * What to run, from system properties.
	 * @param seconds measured seconds of a run
	 * @param warmUpSeconds seconds of a run before the measurement
	 * @param rounds turns of every source at each step and number of threads
	 * @param threads numbers of inserting threads
	 * @param steps sequence steps (allocationSize and INCREMENT BY)
	 * @param commits commit modes
	 * @param sources ID sources
	 */
	record Settings(int seconds, int warmUpSeconds, int rounds, List<Integer> threads, List<Integer> steps,
			List<Commit> commits, List<Source> sources) {

		static Settings fromSystemProperties() {
			List<Integer> steps = integers("inserts.steps", "50,1000");
			for (int step : steps) {
				InsertedEntities.factory(false, step);
			}
			return new Settings(Integer.getInteger("inserts.seconds", 5), Integer.getInteger("inserts.warm-up", 1),
					Integer.getInteger("inserts.rounds", 3), integers("inserts.threads", "1,2,8"), steps,
					list("inserts.commits", "fsync,off").stream().map(Commit::of).toList(),
					list("inserts.sources", "pooled,pooled-lo,id-starter,id-starter-marks").stream()
						.map(Source::of)
						.toList());
		}

		private static List<String> list(String property, String defaults) {
			return Arrays.stream(System.getProperty(property, defaults).split(",")).map(String::strip).toList();
		}

		private static List<Integer> integers(String property, String defaults) {
			return list(property, defaults).stream().map(Integer::valueOf).toList();
		}

		@Override
		public String toString() {
			return String.format(Locale.ROOT, "%d s measured after %d s of warm-up per run, %d rounds, threads %s, "
					+ "steps %s, commits %s, sources %s, pool of %d connections per application", this.seconds,
					this.warmUpSeconds, this.rounds, this.threads, this.steps,
					this.commits.stream().map((commit) -> commit.label).toList(),
					this.sources.stream().map((source) -> source.label).toList(), POOL_SIZE);
		}

	}

	/**
	 * The database: {@code IDSTARTER_POSTGRES_URL} (user and password in the URL), or localhost's {@code idstarter}.
	 * @param url the JDBC URL
	 * @param username the user, or null when the URL has it
	 * @param password the password, or null when the URL has it
	 */
	record Database(String url, @Nullable String username, @Nullable String password) {

		static Database fromEnvironment() {
			String url = System.getenv("IDSTARTER_POSTGRES_URL");
			return (url != null) ? new Database(url, null, null)
					: new Database("jdbc:postgresql://127.0.0.1:5432/idstarter", "idstarter", "idstarter");
		}

		Connection connect() throws SQLException {
			return (this.username != null) ? DriverManager.getConnection(this.url, this.username, this.password)
					: DriverManager.getConnection(this.url);
		}

	}

	/** One source's application: its context, its entity manager factory and, for id-starter, its counters. */
	static final class Application implements AutoCloseable {

		final Source source;

		private final ConfigurableApplicationContext context;

		private final EntityManagerFactory factory;

		private final @Nullable InsertCounters counters;

		private Application(Source source, ConfigurableApplicationContext context) {
			this.source = source;
			this.context = context;
			this.factory = context.getBean(EntityManagerFactory.class);
			this.counters = source.segment ? context.getBean(InsertCounters.class) : null;
		}

		static Application start(Source source, Commit commit, Database database, String schema, Path marksFile) {
			Map<String, Object> properties = new LinkedHashMap<>();
			properties.put("spring.main.web-application-type", "none");
			properties.put("spring.main.banner-mode", "off");
			properties.put("logging.level.root", "warn");
			properties.put("spring.datasource.url", database.url());
			if (database.username() != null) {
				properties.put("spring.datasource.username", database.username());
				properties.put("spring.datasource.password", database.password());
			}
			properties.put("spring.datasource.hikari.pool-name", "bench-" + source.label);
			properties.put("spring.datasource.hikari.maximum-pool-size", POOL_SIZE);
			properties.put("spring.datasource.hikari.minimum-idle", POOL_SIZE);
			properties.put("spring.datasource.hikari.schema", schema);
			if (commit == Commit.OFF) {
				properties.put("spring.datasource.hikari.connection-init-sql", "SET synchronous_commit TO off");
			}
			properties.put("spring.jpa.hibernate.ddl-auto", "create");
			Class<?> configuration;
			if (source.segment) {
				configuration = SegmentApplication.class;
				properties.put("id-worker.segment.store", "sequence");
				for (int step : InsertedEntities.STEPS) {
					properties.put("id-worker.segment.keys.entity" + step + ".first-id", 1);
					properties.put("id-worker.segment.keys.entity" + step + ".step", step);
				}
				if (source.marksFile) {
					properties.put("id-worker.segment.marks-file", marksFile.toString());
				}
			}
			else {
				configuration = HibernateApplication.class;
				properties.put("spring.jpa.properties.hibernate.id.optimizer.pooled.preferred", source.label);
			}
			ConfigurableApplicationContext context = new SpringApplicationBuilder(configuration).properties(properties)
				.logStartupInfo(false)
				.run();
			return new Application(source, context);
		}

		/**
		 * Inserts entities of one step from {@code threads} threads, each insert its own transaction.
		 * @return inserts per second and percentiles over the measured seconds
		 */
		Result insert(int step, int threads, int warmUpSeconds, int seconds) throws InterruptedException {
			Supplier<Object> entities = InsertedEntities.factory(this.source.segment, step);
			long warmUpEnd = System.nanoTime() + warmUpSeconds * 1_000_000_000L;
			long end = warmUpEnd + seconds * 1_000_000_000L;
			// Room for 100,000 inserts per second per thread; beyond that the count goes on, the latencies do not.
			int capacity = (int) Math.min(seconds * 100_000L, Integer.MAX_VALUE - 8);
			long[][] latencies = new long[threads][];
			long[] counts = new long[threads];
			AtomicReference<Throwable> failure = new AtomicReference<>();
			CountDownLatch done = new CountDownLatch(threads);
			for (int t = 0; t < threads; t++) {
				int index = t;
				Thread thread = new Thread(() -> {
					long[] mine = new long[capacity];
					latencies[index] = mine;
					try {
						while (failure.get() == null) {
							EntityManager manager = this.factory.createEntityManager();
							try {
								EntityTransaction transaction = manager.getTransaction();
								long begin = System.nanoTime();
								if (begin >= end) {
									break;
								}
								transaction.begin();
								manager.persist(entities.get());
								transaction.commit();
								long took = System.nanoTime() - begin;
								if (begin >= warmUpEnd) {
									if (counts[index] < mine.length) {
										mine[(int) counts[index]] = took;
									}
									counts[index]++;
								}
							}
							finally {
								manager.close();
							}
						}
					}
					catch (Throwable ex) {
						failure.compareAndSet(null, ex);
					}
					finally {
						done.countDown();
					}
				}, this.source.label + "-inserter-" + t);
				thread.start();
			}
			InsertCounters.Snapshot before = InsertCounters.Snapshot.NONE;
			if (this.counters != null) {
				Thread.sleep(Math.max(0, (warmUpEnd - System.nanoTime()) / 1_000_000));
				before = this.counters.snapshot();
			}
			done.await();
			if (failure.get() != null) {
				throw new IllegalStateException(this.source.label + " failed at step " + step + ", " + threads
						+ " threads", failure.get());
			}
			InsertCounters.Snapshot counted = (this.counters != null) ? this.counters.snapshot().since(before)
					: InsertCounters.Snapshot.NONE;
			return Result.of(latencies, counts, seconds, counted);
		}

		@Override
		public void close() {
			this.context.close();
		}

	}

	/**
	 * The outcome of one run.
	 * @param inserts inserts that began in the measured seconds
	 * @param insertsPerSecond the same per second
	 * @param p50Micros median insert
	 * @param p99Micros 99th percentile
	 * @param p999Micros 99.9th percentile
	 * @param counted the id-starter generator's store calls and waits in the measured seconds
	 */
	record Result(long inserts, double insertsPerSecond, double p50Micros, double p99Micros, double p999Micros,
			InsertCounters.Snapshot counted) {

		static final String HEADER = "commit\tstep\tthreads\tround\tsource\tinserts_per_s\tp50_us\tp99_us\tp999_us"
				+ "\tinserts\tstore_calls\tstore_call_mean_us\tstore_call_max_us\twaits\twait_mean_us\twait_max_us\tload1";

		static Result of(long[][] latencies, long[] counts, int seconds, InsertCounters.Snapshot counted) {
			long total = Arrays.stream(counts).sum();
			int recorded = 0;
			for (int t = 0; t < counts.length; t++) {
				recorded += (int) Math.min(counts[t], latencies[t].length);
			}
			long[] all = new long[recorded];
			int offset = 0;
			for (int t = 0; t < counts.length; t++) {
				int n = (int) Math.min(counts[t], latencies[t].length);
				System.arraycopy(latencies[t], 0, all, offset, n);
				offset += n;
			}
			Arrays.sort(all);
			return new Result(total, total / (double) seconds, percentile(all, 0.5), percentile(all, 0.99),
					percentile(all, 0.999), counted);
		}

		private static double percentile(long[] sorted, double share) {
			if (sorted.length == 0) {
				return 0;
			}
			int index = Math.min(sorted.length - 1, (int) Math.ceil(sorted.length * share) - 1);
			return sorted[Math.max(index, 0)] / 1000.0;
		}

	}

	/** One run's line of the results. */
	record Row(Commit commit, int step, int threads, int round, Source source, Result result, double load) {

		String tsv() {
			InsertCounters.Snapshot c = this.result.counted();
			return String.join("\t", this.commit.label, Integer.toString(this.step), Integer.toString(this.threads),
					Integer.toString(this.round), this.source.label, format(this.result.insertsPerSecond()),
					format(this.result.p50Micros()), format(this.result.p99Micros()), format(this.result.p999Micros()),
					Long.toString(this.result.inserts()), Long.toString(c.storeCalls()),
					format(mean(c.storeNanos(), c.storeCalls())), format(c.storeMaxNanos() / 1000.0),
					Long.toString(c.waits()), format(mean(c.waitNanos(), c.waits())), format(c.waitMaxNanos() / 1000.0),
					format(this.load));
		}

		String text() {
			InsertCounters.Snapshot c = this.result.counted();
			return String.format(Locale.ROOT, "%-6s %5d %3d %2d %-17s %10.0f %9.0f %9.0f %9d %8d %10.0f  load %.2f",
					this.commit.label, this.step, this.threads, this.round, this.source.label,
					this.result.insertsPerSecond(), this.result.p50Micros(), this.result.p99Micros(), c.storeCalls(),
					c.waits(), mean(c.waitNanos(), c.waits()), this.load);
		}

		private static double mean(long nanos, long count) {
			return (count == 0) ? 0 : nanos / 1000.0 / count;
		}

		private static String format(double value) {
			return String.format(Locale.ROOT, "%.1f", value);
		}

	}

	/** The application of the Hibernate sources: the optimizer is chosen by a property. */
	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ DataSourceAutoConfiguration.class, HibernateJpaAutoConfiguration.class })
	static class HibernateApplication {

		@Bean
		PersistenceManagedTypes persistenceManagedTypes() {
			return managedTypes(false);
		}

	}

	/** The application of the id-starter sources: segment mode, the store and keys from properties. */
	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ DataSourceAutoConfiguration.class, HibernateJpaAutoConfiguration.class,
			IdWorkerAutoConfiguration.class })
	@EnableIdWorker(mode = IdWorkerMode.SEGMENT)
	static class SegmentApplication {

		@Bean
		PersistenceManagedTypes persistenceManagedTypes() {
			return managedTypes(true);
		}

		@Bean
		InsertCounters insertCounters() {
			return new InsertCounters();
		}

	}

	private static PersistenceManagedTypes managedTypes(boolean segment) {
		return PersistenceManagedTypes
			.of(InsertedEntities.classes(segment).stream().map(Class::getName).toArray(String[]::new));
	}

}
