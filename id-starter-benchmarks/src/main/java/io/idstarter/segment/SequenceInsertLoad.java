package io.idstarter.segment;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.function.LongSupplier;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.idstarter.store.jdbc.JdbcSequenceSegmentStore;
import org.hibernate.id.IdentifierGeneratorHelper;
import org.hibernate.id.IntegralDataTypeHolder;
import org.hibernate.id.enhanced.AccessCallback;
import org.hibernate.id.enhanced.Optimizer;
import org.hibernate.id.enhanced.PooledLoOptimizer;
import org.hibernate.id.enhanced.PooledOptimizer;

/**
 * Inserts rows on PostgreSQL with IDs from one sequence of step {@value #STEP} three ways, at 1, 2 and 8 threads:
 * id-starter's {@link SegmentIdGenerator} over a {@link JdbcSequenceSegmentStore} (double buffer, prefetch), and
 * Hibernate's own {@code pooled} and {@code pooled-lo} optimizers, driven as Hibernate drives them (one optimizer per
 * generator, {@code generate} with a callback that runs {@code nextval} when its range is used up). Each insert is the
 * ID plus one auto-committed {@code INSERT} on the thread's own connection; its time is measured from asking for the
 * ID to the commit. Prints inserts per second and the p99 of an insert, and the ratios to {@code pooled}.
 *
 * <p>Not JMH and not in CI: the database dominates. PostgreSQL on localhost with user, password and database
 * {@code idstarter}, or {@code IDSTARTER_POSTGRES_URL} with user and password in the URL.
 *
 * <p>Run: {@code java -cp id-starter-benchmarks/target/benchmarks.jar io.idstarter.segment.SequenceInsertLoad
 * [seconds per run, default 5] [async]}. With {@code async}, the connections commit without waiting for the write-ahead
 * log's flush ({@code synchronous_commit = off}), so that an insert costs tens of microseconds instead of an fsync and
 * the ID source's share of it shows.
 */
public final class SequenceInsertLoad {

	/** INCREMENT BY of every sequence, Hibernate's default allocationSize. */
	static final int STEP = 50;

	private static final int[] THREADS = { 1, 2, 8 };

	private SequenceInsertLoad() {
	}

	public static void main(String[] args) throws Exception {
		long seconds = (args.length > 0) ? Long.parseLong(args[0]) : 5;
		String url = System.getenv("IDSTARTER_POSTGRES_URL");
		HikariConfig config = new HikariConfig();
		config.setJdbcUrl((url != null) ? url : "jdbc:postgresql://127.0.0.1:5432/idstarter");
		if (url == null) {
			config.setUsername("idstarter");
			config.setPassword("idstarter");
		}
		config.setMaximumPoolSize(12);
		boolean async = args.length > 1 && "async".equals(args[1]);
		if (async) {
			config.setConnectionInitSql("SET synchronous_commit TO off");
		}
		System.out.printf(Locale.ROOT, "commit: %s%n", async ? "synchronous_commit off" : "synchronous (fsync)");
		String suffix = UUID.randomUUID().toString().substring(0, 8);
		String table = "bench_entity_" + suffix;
		List<String> sequences = new ArrayList<>();
		try (HikariDataSource dataSource = new HikariDataSource(config)) {
			execute(dataSource, "CREATE TABLE " + table + " (id BIGINT PRIMARY KEY, name VARCHAR(64))");
			System.out.printf(Locale.ROOT, "%-10s %7s %12s %10s %16s %14s%n", "source", "threads", "inserts/s",
					"p99 us", "throughput/pool", "p99/pool");
			try {
				for (int threads : THREADS) {
					double[] pooled = null;
					for (String source : new String[] { "pooled", "pooled-lo", "id-starter" }) {
						String sequence = "bench_seq_" + suffix + "_" + source.replace("-", "_") + "_" + threads;
						sequences.add(sequence);
						// Every sequence starts at 1: each run begins with an empty table.
						execute(dataSource, "TRUNCATE TABLE " + table);
						execute(dataSource, "CREATE SEQUENCE " + sequence + " INCREMENT BY " + STEP);
						double[] result;
						SegmentIdGenerator generator = null;
						LongSupplier ids;
						if (source.equals("id-starter")) {
							generator = new SegmentIdGenerator(new JdbcSequenceSegmentStore(dataSource, "bench_",
									Map.of("entity", sequence)), SegmentOptions.defaults());
							generator.start();
							SegmentIdGenerator started = generator;
							ids = () -> started.nextId("entity");
						}
						else {
							Optimizer optimizer = source.equals("pooled") ? new PooledOptimizer(Long.class, STEP)
									: new PooledLoOptimizer(Long.class, STEP);
							AccessCallback callback = nextval(dataSource, sequence);
							ids = () -> ((Number) optimizer.generate(callback)).longValue();
						}
						try {
							result = run(dataSource, table, ids, threads, seconds);
						}
						finally {
							if (generator != null) {
								generator.close();
							}
						}
						if (pooled == null) {
							pooled = result;
						}
						System.out.printf(Locale.ROOT, "%-10s %7d %12.0f %10.0f %16.2f %14.2f%n", source, threads,
								result[0], result[1], result[0] / pooled[0], result[1] / pooled[1]);
					}
				}
			}
			finally {
				execute(dataSource, "DROP TABLE IF EXISTS " + table);
				for (String sequence : sequences) {
					execute(dataSource, "DROP SEQUENCE IF EXISTS " + sequence);
				}
			}
		}
	}

	/** Hibernate's callback for a sequence: {@code nextval} on a connection of the pool. */
	private static AccessCallback nextval(HikariDataSource dataSource, String sequence) {
		return new AccessCallback() {

			@Override
			public IntegralDataTypeHolder getNextValue() {
				try (Connection connection = dataSource.getConnection();
						PreparedStatement next = connection.prepareStatement("SELECT nextval(?)")) {
					next.setString(1, sequence);
					try (ResultSet row = next.executeQuery()) {
						row.next();
						return IdentifierGeneratorHelper.getIntegralDataTypeHolder(Long.class).initialize(row.getLong(1));
					}
				}
				catch (SQLException ex) {
					throw new IllegalStateException(ex);
				}
			}

			@Override
			public String getTenantIdentifier() {
				return null;
			}

		};
	}

	/**
	 * Runs {@code threads} inserters for one second of warm-up and {@code seconds} of measurement.
	 * @return inserts per second and the p99 of an insert in microseconds
	 */
	private static double[] run(HikariDataSource dataSource, String table, LongSupplier ids, int threads, long seconds)
			throws InterruptedException {
		long warmUpEnd = System.nanoTime() + 1_000_000_000L;
		long end = warmUpEnd + seconds * 1_000_000_000L;
		List<long[]> latencies = new ArrayList<>();
		int[] counts = new int[threads];
		CountDownLatch done = new CountDownLatch(threads);
		for (int t = 0; t < threads; t++) {
			long[] mine = new long[1_000_000];
			latencies.add(mine);
			int index = t;
			Thread thread = new Thread(() -> {
				try (Connection connection = dataSource.getConnection();
						PreparedStatement insert = connection
							.prepareStatement("INSERT INTO " + table + " (id, name) VALUES (?, ?)")) {
					int n = 0;
					for (long now = System.nanoTime(); now < end && n < mine.length; now = System.nanoTime()) {
						insert.setLong(1, ids.getAsLong());
						insert.setString(2, "entity");
						insert.executeUpdate();
						long took = System.nanoTime() - now;
						if (now >= warmUpEnd) {
							mine[n++] = took;
						}
					}
					counts[index] = n;
				}
				catch (SQLException ex) {
					throw new IllegalStateException(ex);
				}
				finally {
					done.countDown();
				}
			}, "inserter-" + t);
			thread.start();
		}
		done.await();
		int total = Arrays.stream(counts).sum();
		long[] all = new long[total];
		int offset = 0;
		for (int t = 0; t < threads; t++) {
			System.arraycopy(latencies.get(t), 0, all, offset, counts[t]);
			offset += counts[t];
		}
		Arrays.sort(all);
		double p99 = (total == 0) ? 0 : all[Math.min(total - 1, (int) Math.ceil(total * 0.99) - 1)] / 1000.0;
		return new double[] { total / (double) seconds, p99 };
	}

	private static void execute(HikariDataSource dataSource, String sql) throws SQLException {
		try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
			statement.execute(sql);
		}
	}

}
