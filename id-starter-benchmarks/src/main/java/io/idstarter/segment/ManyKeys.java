package io.idstarter.segment;

import java.lang.management.ManagementFactory;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;

import javax.management.ObjectName;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.idstarter.IdWorkerListener;
import io.idstarter.metrics.IdWorkerMetrics;
import io.idstarter.store.jdbc.JdbcSchema;
import io.idstarter.store.jdbc.JdbcSegmentStore;
import io.idstarter.store.redis.RedisSegmentStore;
import io.idstarter.time.TimeSource;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * What a Leaf-style deployment with many business keys costs: the heap per idle key, one refresh of the key list, and
 * the first ID of a key never used before, with {@value #DEFAULT_KEYS} keys in the store.
 *
 * <p>Not a JMH benchmark: it measures a few expensive things once each. For each store it creates the keys in bulk
 * (as an operator's script or Leaf's own table would hold them), then:
 * <ol>
 * <li><b>Heap per key known, never used</b>: the heap after full collections before and after the generator's
 * {@code start()} (which reads the keys), divided by the number of keys; with the classes that grew most (the
 * JVM's class histogram, before and after).</li>
 * <li><b>First ID of a key never used</b>: {@code nextId(key)} of {@code used} keys, one after the other, each its
 * key's first call (a store round trip); median and p99. The bare baseline is an {@code allocate(key)} of the same
 * store called directly, every tenth call, on a key the generator never uses: the ratio is what the generator adds
 * to the round trip.</li>
 * <li><b>Heap per key used once, then idle</b>: the heap after those calls, less the heap before them, divided by
 * {@code used}; added to the known-key figure.</li>
 * <li><b>One refresh of the key list</b>: {@link SegmentIdGenerator#refreshKeysNow()}, the periodic refresh run on
 * the caller's thread, when nothing changed, after another node created a key, and after another node deleted one;
 * time and the rows the store returned (counted by a wrapping store). The bare baseline is one
 * {@link SegmentStore#keys()} call, the whole list, which is what every refresh read before the change marker.</li>
 * <li><b>First ID of a key another node created after the latest refresh</b>: the unknown-key path.</li>
 * </ol>
 *
 * <p>Stores: {@code memory}, {@code postgres} (localhost, user, password and database {@code idstarter}, or
 * {@code IDSTARTER_POSTGRES_URL} with user and password in the URL), {@code redis} (localhost:6379, or
 * {@code IDSTARTER_REDIS_URL}); a store name followed by {@code +metrics} ({@code memory+metrics}) runs with
 * id-starter's meters ({@code IdWorkerMetrics}) bound to a {@code SimpleMeterRegistry}, as an application with
 * Actuator has them: per-key meters for 1,000 keys only ({@code id-worker.segment.max-key-tags}'s default). Each run
 * uses a table or key prefix with a random suffix and removes what it created.
 *
 * <p>Run: {@code java -Xmx2g -cp id-starter-benchmarks/target/benchmarks.jar io.idstarter.segment.ManyKeys
 * [keys, default 100000] [used, default 10000] [stores, default memory,postgres,redis] [json file]}; about two minutes
 * per store on a two-core machine. The heap figures do not depend on the machine's speed; the times do.
 */
public final class ManyKeys {

	static final int DEFAULT_KEYS = 100_000;

	static final int DEFAULT_USED = 10_000;

	/** Configured step of every key. */
	static final int STEP = 1000;

	/** Samples of each refresh and of the unknown-key path. */
	static final int REFRESHES = 5;

	private ManyKeys() {
	}

	public static void main(String[] args) throws Exception {
		int keys = (args.length > 0) ? Integer.parseInt(args[0]) : DEFAULT_KEYS;
		int used = (args.length > 1) ? Integer.parseInt(args[1]) : DEFAULT_USED;
		String[] stores = ((args.length > 2) ? args[2] : "memory,postgres,redis").split(",");
		String loadAtStart = loadAverage();
		List<Result> results = new ArrayList<>();
		for (String name : stores) {
			// "+metrics": the same with id-starter's meters (IdWorkerMetrics) bound to a SimpleMeterRegistry.
			boolean metrics = name.endsWith("+metrics");
			try (Backend backend = Backend.open(metrics ? name.substring(0, name.indexOf('+')) : name, keys)) {
				Result result = run(name, backend, keys, Math.min(used, keys), metrics);
				result.print();
				results.add(result);
			}
		}
		String loadAtEnd = loadAverage();
		System.out.print(table(results, keys, loadAtStart, loadAtEnd));
		if (args.length > 3) {
			Files.writeString(Path.of(args[3]), json(results, keys, loadAtStart, loadAtEnd), StandardCharsets.UTF_8);
		}
	}

	static Result run(String name, Backend backend, int keys, int used, boolean metrics) throws Exception {
		Result result = new Result(name, keys, used);
		CountingSegmentStore store = new CountingSegmentStore(backend.store());
		// Refreshes are run by hand below; the periodic one must not run in between.
		SegmentOptions options = SegmentOptions.builder()
			.keyRefreshInterval(Duration.ofHours(1))
			.maxWait(Duration.ofSeconds(30))
			.build();
		AtomicReference<SegmentIdGenerator> started = new AtomicReference<>();
		SimpleMeterRegistry registry = new SimpleMeterRegistry();
		IdWorkerMetrics meters = new IdWorkerMetrics(registry, () -> null, () -> null, started::get,
				TimeSource.system());
		SegmentIdGenerator generator = new SegmentIdGenerator(store, options, TimeSource.system(),
				metrics ? meters : IdWorkerListener.NONE, null);
		try {
			Heap before = Heap.measure();
			generator.start();
			if (metrics) {
				// As the auto-configuration does, once the generator exists.
				started.set(generator);
				meters.bindTo(registry);
			}
			Heap known = Heap.measure();
			result.knownBytesPerKey = (known.used - before.used) / (double) keys;
			result.knownTop = known.minus(before, keys);
			if (generator.keys().size() != keys) {
				throw new IllegalStateException("the generator read " + generator.keys().size() + " keys, not " + keys);
			}

			// Interleaved with the first IDs, a direct allocate of a key the generator never uses, every tenth
			// call: the store's own round trip, which a key's first ID cannot avoid, in the same conditions.
			long[] first = new long[used];
			long[] bare = new long[(used + 9) / 10];
			for (int i = 0; i < used; i++) {
				String key = Backend.key(i);
				long start = System.nanoTime();
				generator.nextId(key);
				first[i] = System.nanoTime() - start;
				if (i % 10 == 0) {
					String other = Backend.key(keys - 1 - i / 10);
					start = System.nanoTime();
					backend.store().allocate(other);
					bare[i / 10] = System.nanoTime() - start;
				}
			}
			result.bareAllocateNanos = median(bare);
			Arrays.sort(first);
			result.firstIdNanos = first[used / 2];
			result.firstIdP99Nanos = first[(int) (used * 0.99)];
			Heap afterUse = Heap.measure();
			result.usedBytesPerKey = result.knownBytesPerKey + (afterUse.used - known.used) / (double) used;
			result.usedTop = afterUse.minus(known, used);


			// The whole list, read directly: what each refresh cost before the change marker.
			long[] fullRead = new long[REFRESHES];
			for (int i = 0; i < REFRESHES; i++) {
				long start = System.nanoTime();
				int size = backend.store().keys().size();
				fullRead[i] = System.nanoTime() - start;
				result.fullReadRows = size;
			}
			result.fullReadNanos = median(fullRead);

			result.unchanged = refreshes(generator, store, () -> {
			});
			result.added = refreshes(generator, store, backend::createOther);
			result.removed = refreshes(generator, store, backend::deleteOther);
			if (generator.keys().size() != keys) {
				throw new IllegalStateException("after the refreshes the generator has " + generator.keys().size()
						+ " keys, not " + keys);
			}

			long[] unknown = new long[REFRESHES];
			for (int i = 0; i < REFRESHES; i++) {
				String key = backend.createOther();
				// The unknown-key read happens at most once a second.
				Thread.sleep(1100);
				long start = System.nanoTime();
				generator.nextId(key);
				unknown[i] = System.nanoTime() - start;
			}
			result.unknownKeyFirstIdNanos = median(unknown);
		}
		finally {
			generator.close();
		}
		return result;
	}

	/** Runs refreshes, each after a change by another node, and returns the median time and rows read per refresh. */
	private static Refresh refreshes(SegmentIdGenerator generator, CountingSegmentStore store, Runnable change) {
		long[] nanos = new long[REFRESHES];
		long rowsBefore = store.keysRead();
		for (int i = 0; i < REFRESHES; i++) {
			change.run();
			long start = System.nanoTime();
			generator.refreshKeysNow();
			nanos[i] = System.nanoTime() - start;
		}
		return new Refresh(median(nanos), (store.keysRead() - rowsBefore) / (double) REFRESHES);
	}

	static long median(long[] values) {
		long[] sorted = values.clone();
		Arrays.sort(sorted);
		return sorted[sorted.length / 2];
	}

	static String loadAverage() {
		try {
			return Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
		}
		catch (Exception ex) {
			return "?";
		}
	}

	private static String table(List<Result> results, int keys, String loadAtStart, String loadAtEnd) {
		StringBuilder out = new StringBuilder();
		out.append(String.format(Locale.ROOT, "%nMany keys: %,d keys in the store (load average %s at start, %s at "
				+ "end)%n%n", keys, loadAtStart, loadAtEnd));
		out.append("| store | heap per key known (B) | per key used once, idle (B) | first ID, never used (ms) "
				+ "| x bare allocate | refresh, nothing changed (ms) | rows | x full read | refresh after a key was "
				+ "added (ms) | rows | after a key was removed (ms) | rows | full read (ms) | first ID of a key created "
				+ "after the refresh (ms) |\n");
		out.append("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
		for (Result r : results) {
			out.append(String.format(Locale.ROOT,
					"| %s | %.0f | %.0f | %.2f (p99 %.2f) | %.2fx | %.2f | %.0f | %.3fx | %.2f | %.0f | %.2f | %.0f "
							+ "| %.1f | %.2f |%n",
					r.store, r.knownBytesPerKey, r.usedBytesPerKey, r.firstIdNanos / 1e6, r.firstIdP99Nanos / 1e6,
					r.firstIdNanos / (double) r.bareAllocateNanos, r.unchanged.nanos / 1e6, r.unchanged.rows,
					r.unchanged.nanos / (double) r.fullReadNanos, r.added.nanos / 1e6, r.added.rows,
					r.removed.nanos / 1e6, r.removed.rows, r.fullReadNanos / 1e6, r.unknownKeyFirstIdNanos / 1e6));
		}
		for (Result r : results) {
			out.append(String.format(Locale.ROOT, "%n%s, heap per key known, by class (B): %s%n", r.store, r.knownTop));
			out.append(String.format(Locale.ROOT, "%s, heap per key used once, by class (B): %s%n", r.store,
					r.usedTop));
		}
		return out.toString();
	}

	private static String json(List<Result> results, int keys, String loadAtStart, String loadAtEnd) {
		return "{\"kind\": \"many-keys\", \"keys\": " + keys + ", \"loadAtStart\": \"" + loadAtStart
				+ "\", \"loadAtEnd\": \"" + loadAtEnd + "\", \"stores\": ["
				+ results.stream().map(Result::json).collect(Collectors.joining(", ")) + "]}\n";
	}

	record Refresh(long nanos, double rows) {
	}

	/** The figures of one store. */
	static final class Result {

		final String store;

		final int keys;

		final int used;

		double knownBytesPerKey;

		double usedBytesPerKey;

		String knownTop = "";

		String usedTop = "";

		long bareAllocateNanos;

		long firstIdNanos;

		long firstIdP99Nanos;

		long fullReadNanos;

		int fullReadRows;

		Refresh unchanged;

		Refresh added;

		Refresh removed;

		long unknownKeyFirstIdNanos;

		Result(String store, int keys, int used) {
			this.store = store;
			this.keys = keys;
			this.used = used;
		}

		void print() {
			System.err.printf(Locale.ROOT, "%s: known %.0f B/key, used %.0f B/key, first ID %.2f ms, refresh %.2f ms "
					+ "(%.0f rows), full read %.1f ms%n", this.store, this.knownBytesPerKey, this.usedBytesPerKey,
					this.firstIdNanos / 1e6, this.unchanged.nanos / 1e6, this.unchanged.rows, this.fullReadNanos / 1e6);
		}

		String json() {
			return String.format(Locale.ROOT, "{\"store\": \"%s\", \"keys\": %d, \"used\": %d, "
					+ "\"knownBytesPerKey\": %.1f, \"usedBytesPerKey\": %.1f, \"firstIdMs\": %.6f, \"firstIdP99Ms\": %.6f, "
					+ "\"bareAllocateMs\": %.6f, \"refreshUnchangedMs\": %.6f, \"refreshUnchangedRows\": %.0f, "
					+ "\"refreshAddedMs\": %.6f, \"refreshAddedRows\": %.0f, \"refreshRemovedMs\": %.6f, "
					+ "\"refreshRemovedRows\": %.0f, \"fullReadMs\": %.6f, \"fullReadRows\": %d, "
					+ "\"unknownKeyFirstIdMs\": %.6f}", this.store, this.keys, this.used, this.knownBytesPerKey,
					this.usedBytesPerKey, this.firstIdNanos / 1e6, this.firstIdP99Nanos / 1e6,
					this.bareAllocateNanos / 1e6, this.unchanged.nanos / 1e6, this.unchanged.rows,
					this.added.nanos / 1e6, this.added.rows, this.removed.nanos / 1e6, this.removed.rows,
					this.fullReadNanos / 1e6, this.fullReadRows, this.unknownKeyFirstIdNanos / 1e6);
		}

	}

	/** The heap in use after full collections, and the JVM's class histogram then. */
	record Heap(long used, Map<String, long[]> histogram) {

		static Heap measure() throws Exception {
			for (int i = 0; i < 3; i++) {
				System.gc();
				Thread.sleep(100);
			}
			long used = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
			// The histogram command collects first too ("GC.class_histogram").
			String text = (String) ManagementFactory.getPlatformMBeanServer()
				.invoke(new ObjectName("com.sun.management:type=DiagnosticCommand"), "gcClassHistogram",
						new Object[] { new String[0] }, new String[] { String[].class.getName() });
			Map<String, long[]> histogram = new HashMap<>();
			for (String line : text.split("\n")) {
				String[] fields = line.trim().split("\\s+");
				if (fields.length >= 4 && fields[0].endsWith(":")) {
					histogram.put(fields[3], new long[] { Long.parseLong(fields[1]), Long.parseLong(fields[2]) });
				}
			}
			return new Heap(used, histogram);
		}

		/** The classes whose bytes grew most since {@code before}, per key: "class count x bytes, ...". */
		String minus(Heap before, int perKeys) {
			Map<String, long[]> grown = new LinkedHashMap<>();
			this.histogram.forEach((type, now) -> {
				long[] then = before.histogram.getOrDefault(type, new long[2]);
				grown.put(type, new long[] { now[0] - then[0], now[1] - then[1] });
			});
			return grown.entrySet()
				.stream()
				.sorted((a, b) -> Long.compare(b.getValue()[1], a.getValue()[1]))
				.limit(10)
				.map((entry) -> String.format(Locale.ROOT, "%s %.2f x %.0f", entry.getKey(),
						entry.getValue()[0] / (double) perKeys, entry.getValue()[1] / (double) perKeys))
				.collect(Collectors.joining(", "));
		}

	}

	/** A store holding the keys, which another node changes; removed again on close. */
	abstract static class Backend implements AutoCloseable {

		/** Keys another node created, by number. */
		private final AtomicLong others = new AtomicLong();

		/** Keys another node created and not yet deleted. */
		private final List<String> created = new ArrayList<>();

		abstract SegmentStore store();

		/** The key administration of another node: a second client of the same store. */
		abstract SegmentKeyAdmin otherNode();

		static String key(int i) {
			return "tenant-" + i + "-order";
		}

		String createOther() {
			String key = "other-" + this.others.incrementAndGet();
			otherNode().createKey(key, 1, STEP, "created by another node");
			this.created.add(key);
			return key;
		}

		void deleteOther() {
			if (this.created.isEmpty()) {
				createOther();
			}
			otherNode().deleteKey(this.created.remove(this.created.size() - 1));
		}

		@Override
		public abstract void close();

		static Backend open(String name, int keys) throws Exception {
			return switch (name) {
				case "memory" -> new Memory(keys);
				case "postgres" -> new Jdbc(keys);
				case "redis" -> new Redis(keys);
				default -> throw new IllegalArgumentException("unknown store '" + name + "': use memory, postgres, redis");
			};
		}

	}

	static final class Memory extends Backend {

		private final InMemorySegmentStore store = new InMemorySegmentStore();

		Memory(int keys) {
			for (int i = 0; i < keys; i++) {
				this.store.createKey(key(i), 1, STEP, "");
			}
		}

		@Override
		SegmentStore store() {
			return this.store;
		}

		@Override
		SegmentKeyAdmin otherNode() {
			return this.store;
		}

		@Override
		public void close() {
		}

	}

	static final class Jdbc extends Backend {

		private final HikariDataSource dataSource;

		private final String table;

		private final String leases;

		private final JdbcSegmentStore store;

		private final JdbcSegmentStore other;

		Jdbc(int keys) throws SQLException {
			String url = System.getenv("IDSTARTER_POSTGRES_URL");
			HikariConfig config = new HikariConfig();
			config.setJdbcUrl((url != null) ? url : "jdbc:postgresql://127.0.0.1:5432/idstarter");
			if (url == null) {
				config.setUsername("idstarter");
				config.setPassword("idstarter");
			}
			config.setMaximumPoolSize(4);
			this.dataSource = new HikariDataSource(config);
			String suffix = UUID.randomUUID().toString().substring(0, 8);
			this.table = "many_keys_" + suffix;
			this.leases = "many_keys_lease_" + suffix;
			JdbcSchema.initialize(this.dataSource, this.table, this.leases);
			try (Connection connection = this.dataSource.getConnection();
					PreparedStatement insert = connection.prepareStatement("INSERT INTO " + this.table
							+ " (biz_tag, max_id, step, description, update_time) VALUES (?, 1, ?, '', CURRENT_TIMESTAMP)")) {
				connection.setAutoCommit(false);
				for (int i = 0; i < keys; i++) {
					insert.setString(1, key(i));
					insert.setInt(2, STEP);
					insert.addBatch();
					if (i % 1000 == 999) {
						insert.executeBatch();
					}
				}
				insert.executeBatch();
				connection.commit();
			}
			this.store = new JdbcSegmentStore(this.dataSource, this.table);
			this.other = new JdbcSegmentStore(this.dataSource, this.table);
		}

		@Override
		SegmentStore store() {
			return this.store;
		}

		@Override
		SegmentKeyAdmin otherNode() {
			return this.other;
		}

		@Override
		public void close() {
			try (Connection connection = this.dataSource.getConnection();
					Statement statement = connection.createStatement()) {
				statement.execute("DROP TABLE " + this.table);
				statement.execute("DROP TABLE " + this.leases);
			}
			catch (SQLException ex) {
				throw new IllegalStateException("could not drop " + this.table + " and " + this.leases, ex);
			}
			finally {
				this.dataSource.close();
			}
		}

	}

	static final class Redis extends Backend {

		private final LettuceConnectionFactory factory;

		private final String prefix;

		private final RedisSegmentStore store;

		private final RedisSegmentStore other;

		private final int keys;

		Redis(int keys) {
			String url = System.getenv().getOrDefault("IDSTARTER_REDIS_URL", "redis://127.0.0.1:6379");
			URI uri = URI.create(url);
			this.factory = new LettuceConnectionFactory(
					new RedisStandaloneConfiguration(uri.getHost(), (uri.getPort() != -1) ? uri.getPort() : 6379),
					LettuceClientConfiguration.builder().commandTimeout(Duration.ofSeconds(30)).build());
			this.factory.afterPropertiesSet();
			this.prefix = "idstarter-many-keys-" + UUID.randomUUID().toString().substring(0, 8) + ":";
			this.keys = keys;
			StringRedisTemplate redis = new StringRedisTemplate(this.factory);
			for (int from = 0; from < keys; from += 1000) {
				int start = from;
				redis.executePipelined((RedisCallback<Object>) (connection) -> {
					for (int i = start; i < Math.min(start + 1000, keys); i++) {
						// The record and the set member, as docs/redis.md says to create a key by hand.
						connection.hashCommands().hMSet(bytes(this.prefix + "segment:key:" + key(i)),
								Map.of(bytes("max_id"), bytes("1"), bytes("step"), bytes(Integer.toString(STEP)),
										bytes("description"), bytes(""), bytes("update_time"), bytes("0")));
						connection.setCommands().sAdd(bytes(this.prefix + "segment:keys"), bytes(key(i)));
					}
					return null;
				});
			}
			this.store = new RedisSegmentStore(this.factory, this.prefix);
			this.other = new RedisSegmentStore(this.factory, this.prefix);
		}

		private static byte[] bytes(String text) {
			return text.getBytes(StandardCharsets.UTF_8);
		}

		@Override
		SegmentStore store() {
			return this.store;
		}

		@Override
		SegmentKeyAdmin otherNode() {
			return this.other;
		}

		@Override
		public void close() {
			// Only the Redis keys this run wrote; never a pattern delete on a shared server.
			StringRedisTemplate redis = new StringRedisTemplate(this.factory);
			Set<String> members = redis.opsForSet().members(this.prefix + "segment:keys");
			List<String> names = new ArrayList<>();
			for (int i = 0; i < this.keys; i++) {
				names.add(this.prefix + "segment:key:" + key(i));
			}
			if (members != null) {
				members.forEach((member) -> names.add(this.prefix + "segment:key:" + member));
			}
			names.add(this.prefix + "segment:keys");
			names.add(this.prefix + "segment:keys:version");
			for (int from = 0; from < names.size(); from += 1000) {
				redis.delete(names.subList(from, Math.min(from + 1000, names.size())));
			}
			this.factory.destroy();
		}

	}

}
