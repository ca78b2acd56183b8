package io.idstarter.segment;

import java.net.InetSocketAddress;
import java.net.URI;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;

import com.mongodb.ConnectionString;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.backend.memory.MemoryBackend;
import io.idstarter.IdWorkerListener;
import io.idstarter.store.jdbc.JdbcSchema;
import io.idstarter.store.jdbc.JdbcSegmentStore;
import io.idstarter.store.mongo.MongoSegmentStore;
import io.idstarter.store.redis.RedisSegmentStore;
import io.idstarter.time.TimeSource;

import org.springframework.data.mongodb.core.MongoTemplate;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * How many store round trips does the segment generator make per million IDs with the dynamic step, per store, and
 * how long do callers wait for them?
 *
 * <p>Not a JMH benchmark: it counts. For each store it creates a fresh key with a configured step of
 * {@value #CONFIGURED_STEP}, issues IDs from one thread as fast as it can, and counts the {@code allocate} calls
 * through a counting wrapper ({@link CountingSegmentStore}) and the waits through the listener. Leaf's dynamic step
 * doubles the step after every range that lasted less than 15 minutes, up to 1,000,000, so the first million IDs cost
 * about ten round trips and every later million one. The same run with the step fixed at {@value #CONFIGURED_STEP}
 * shows what the dynamic step saves.
 *
 * <p>Stores: {@code memory}; {@code postgres} and {@code mariadb} ({@code JdbcSegmentStore} through HikariCP, on
 * localhost with user, password and database {@code idstarter}, or {@code IDSTARTER_POSTGRES_URL} /
 * {@code IDSTARTER_MARIADB_URL} with user and password in the URL); {@code redis} (localhost:6379, or
 * {@code IDSTARTER_REDIS_URL}); {@code mongo} ({@code MongoSegmentStore} on the in-JVM mongo-java-server, or
 * {@code IDSTARTER_MONGO_URI}: no mongod runs here, so its times say nothing about MongoDB). Each run uses tables,
 * prefixes or collections with a random suffix and removes what it created.
 *
 * <p>Run: {@code java -cp id-starter-benchmarks/target/benchmarks.jar io.idstarter.segment.StoreRoundTrips
 * [ids, default 10000000] [stores, default memory,postgres,mariadb,redis,mongo]}
 */
public final class StoreRoundTrips {

	/** Configured step of every key; Leaf's usual starting step. */
	static final int CONFIGURED_STEP = 1000;

	private static final long MILLION = 1_000_000L;

	private StoreRoundTrips() {
	}

	public static void main(String[] args) throws Exception {
		long ids = (args.length > 0) ? Long.parseLong(args[0]) : 10 * MILLION;
		String[] stores = ((args.length > 1) ? args[1] : "memory,postgres,mariadb,redis,mongo").split(",");
		System.out.printf(Locale.ROOT, "%-8s %-7s %12s %14s %16s %10s %8s %12s %10s%n", "store", "step", "ids",
				"calls 1st 1M", "calls/1M after", "last step", "waits", "waited ms", "ids/s");
		System.out.printf(Locale.ROOT, "%-8s %-7s %12d %14s %16s %10s %8s %12s %10.0f%n", "atomic", "-", ids, "-", "-",
				"-", "-", "-", atomicLongPerSecond(ids));
		for (String name : stores) {
			for (boolean dynamic : new boolean[] { true, false }) {
				try (Backend backend = Backend.open(name)) {
					run(name, backend, dynamic, dynamic ? ids : Math.min(ids, MILLION)).print();
				}
			}
		}
	}

	/**
	 * The same loop over a bare {@link AtomicLong}: the speed of this machine in this run, which the IDs/s column can
	 * be read against.
	 */
	static double atomicLongPerSecond(long ids) {
		AtomicLong counter = new AtomicLong(1);
		long start = System.nanoTime();
		long last = 0;
		for (long i = 0; i < ids; i++) {
			long id = counter.getAndIncrement();
			if (id <= last) {
				throw new IllegalStateException("IDs went backwards: " + id + " after " + last);
			}
			last = id;
		}
		return ids * 1e9 / (System.nanoTime() - start);
	}

	static Result run(String name, Backend backend, boolean dynamic, long ids) {
		CountingSegmentStore counting = new CountingSegmentStore(backend.store());
		WaitCounter waits = new WaitCounter();
		SegmentOptions.Builder options = dynamic ? SegmentOptions.builder() : SegmentFixtures.fixedStep();
		SegmentIdGenerator generator = new SegmentIdGenerator(counting,
				options.maxWait(SegmentFixtures.MAX_WAIT).build(), TimeSource.system(), waits, null);
		generator.start();
		try {
			long start = System.nanoTime();
			long callsAfterFirstMillion = -1;
			long last = 0;
			for (long i = 0; i < ids; i++) {
				long id = generator.nextId(backend.key());
				if (id <= last) {
					throw new IllegalStateException("IDs went backwards: " + id + " after " + last);
				}
				last = id;
				if (i + 1 == MILLION) {
					callsAfterFirstMillion = counting.allocations();
				}
			}
			long nanos = System.nanoTime() - start;
			SegmentBufferView view = generator.view(backend.key()).orElseThrow();
			return new Result(name, dynamic, ids, callsAfterFirstMillion, counting.allocations(), view.step(),
					waits.count.get(), waits.nanos.get(), nanos);
		}
		finally {
			generator.close();
		}
	}

	record Result(String store, boolean dynamic, long ids, long callsFirstMillion, long calls, int lastStep,
			long waits, long waitedNanos, long nanos) {

		void print() {
			long later = this.ids - MILLION;
			String perMillionAfter = (later > 0)
					? String.format(Locale.ROOT, "%.1f", (this.calls - this.callsFirstMillion) * (double) MILLION / later)
					: "-";
			System.out.printf(Locale.ROOT, "%-8s %-7s %12d %14d %16s %10d %8d %12.1f %10.0f%n", this.store,
					this.dynamic ? "dynamic" : "fixed", this.ids, this.callsFirstMillion, perMillionAfter,
					this.lastStep, this.waits, this.waitedNanos / 1e6, this.ids * 1e9 / this.nanos);
		}

	}

	/** Counts the calls that waited for a range, and how long. */
	static final class WaitCounter implements IdWorkerListener {

		final AtomicLong count = new AtomicLong();

		final AtomicLong nanos = new AtomicLong();

		@Override
		public void segmentWait(String key, long nanos, boolean served) {
			this.count.incrementAndGet();
			this.nanos.addAndGet(nanos);
		}

	}

	/** A store with one fresh key, removed again on close. */
	interface Backend extends AutoCloseable {

		SegmentStore store();

		String key();

		@Override
		void close();

		static Backend open(String name) {
			String key = "bench-" + UUID.randomUUID().toString().substring(0, 8);
			return switch (name) {
				case "memory" -> memory(key);
				case "postgres" -> jdbc(key, "IDSTARTER_POSTGRES_URL", "jdbc:postgresql://127.0.0.1:5432/idstarter");
				case "mariadb" -> jdbc(key, "IDSTARTER_MARIADB_URL", "jdbc:mariadb://127.0.0.1:3306/idstarter");
				case "redis" -> redis(key);
				case "mongo" -> mongo(key);
				default -> throw new IllegalArgumentException(
						"unknown store '" + name + "': use memory, postgres, mariadb, redis, mongo");
			};
		}

		private static Backend memory(String key) {
			InMemorySegmentStore store = new InMemorySegmentStore();
			store.createKey(key, 1, CONFIGURED_STEP, "benchmark");
			return simple(store, key, () -> {
			});
		}

		private static Backend jdbc(String key, String variable, String localUrl) {
			String url = System.getenv(variable);
			HikariConfig config = new HikariConfig();
			config.setJdbcUrl((url != null) ? url : localUrl);
			if (url == null) {
				config.setUsername("idstarter");
				config.setPassword("idstarter");
			}
			config.setMaximumPoolSize(4);
			HikariDataSource dataSource = new HikariDataSource(config);
			String suffix = UUID.randomUUID().toString().substring(0, 8);
			String segments = "bench_alloc_" + suffix;
			String leases = "bench_lease_" + suffix;
			JdbcSchema.initialize(dataSource, segments, leases);
			JdbcSegmentStore store = new JdbcSegmentStore(dataSource, segments);
			store.createKey(key, 1, CONFIGURED_STEP, "benchmark");
			return simple(store, key, () -> {
				// Only the two tables this run created.
				try (Connection connection = dataSource.getConnection();
						Statement statement = connection.createStatement()) {
					statement.execute("DROP TABLE " + segments);
					statement.execute("DROP TABLE " + leases);
				}
				catch (SQLException ex) {
					throw new IllegalStateException("could not drop " + segments + " and " + leases, ex);
				}
				finally {
					dataSource.close();
				}
			});
		}

		private static Backend redis(String key) {
			String url = System.getenv().getOrDefault("IDSTARTER_REDIS_URL", "redis://127.0.0.1:6379");
			URI uri = URI.create(url);
			LettuceConnectionFactory factory = new LettuceConnectionFactory(
					new RedisStandaloneConfiguration(uri.getHost(), (uri.getPort() != -1) ? uri.getPort() : 6379),
					LettuceClientConfiguration.builder().commandTimeout(Duration.ofSeconds(5)).build());
			factory.afterPropertiesSet();
			String prefix = "idstarter-bench-" + UUID.randomUUID().toString().substring(0, 8) + ":";
			RedisSegmentStore store = new RedisSegmentStore(factory, prefix);
			store.createKey(key, 1, CONFIGURED_STEP, "benchmark");
			return simple(store, key, () -> {
				// The two Redis keys the store wrote (see docs/redis.md); never a pattern delete on a shared server.
				new StringRedisTemplate(factory).delete(List.of(prefix + "segment:key:" + key, prefix + "segment:keys"));
				factory.destroy();
			});
		}

		private static Backend mongo(String key) {
			String uri = System.getenv("IDSTARTER_MONGO_URI");
			MongoServer server = null;
			if (uri == null) {
				server = new MongoServer(new MemoryBackend());
				InetSocketAddress address = server.bind();
				uri = "mongodb://127.0.0.1:" + address.getPort() + "/idstarter";
			}
			ConnectionString connection = new ConnectionString(uri);
			MongoClient client = MongoClients.create(connection);
			MongoTemplate template = new MongoTemplate(client,
					(connection.getDatabase() != null) ? connection.getDatabase() : "idstarter");
			String collection = "bench_segments_" + UUID.randomUUID().toString().substring(0, 8);
			MongoSegmentStore store = new MongoSegmentStore(template, collection);
			store.createKey(key, 1, CONFIGURED_STEP, "benchmark");
			MongoServer started = server;
			return simple(store, key, () -> {
				template.dropCollection(collection);
				client.close();
				if (started != null) {
					started.shutdownNow();
				}
			});
		}

		private static Backend simple(SegmentStore store, String key, Runnable cleanUp) {
			return new Backend() {
				@Override
				public SegmentStore store() {
					return store;
				}

				@Override
				public String key() {
					return key;
				}

				@Override
				public void close() {
					cleanUp.run();
				}
			};
		}

	}

}
