package io.idstarter.store.jdbc;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import javax.sql.DataSource;

import io.idstarter.segment.DynamicStep;
import io.idstarter.segment.SegmentAllocation;
import io.idstarter.segment.SegmentIdGenerator;
import io.idstarter.segment.SegmentOptions;
import io.idstarter.segment.SegmentStore;
import io.idstarter.segment.SegmentsExhaustedException;
import io.idstarter.segment.UnknownKeyException;
import io.idstarter.testsupport.TcpProxy;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * {@link SegmentIdGenerator} over {@link JdbcSegmentStore} on a real PostgreSQL server: several instances sharing a
 * key, and the database going away under a generator. Works in a table of its own, dropped at the end.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SegmentIdGeneratorPostgresIntegrationTests {

	/** Keeps ranges at the key's configured step, for many round trips. */
	private static final DynamicStep FIXED_STEP = new DynamicStep(Duration.ofMinutes(15), Duration.ofMinutes(30), 1);

	private TestDatabase database;

	private String table;

	private String leaseTable;

	private JdbcSegmentStore store;

	@BeforeAll
	void createTables() {
		this.database = TestDatabase.postgres();
		this.table = TestDatabase.unique("leaf_alloc_");
		this.leaseTable = TestDatabase.unique("id_worker_lease_");
		JdbcSchema.initialize(this.database.dataSource(), this.table, this.leaseTable);
		this.store = new JdbcSegmentStore(this.database.dataSource(), this.table);
	}

	@AfterAll
	void dropTables() {
		if (this.database != null) {
			this.database.dropTables(this.table, this.leaseTable);
			this.database.close();
		}
	}

	@Test
	void twoInstancesSharingAKeyNeverIssueTheSameId() throws Exception {
		String key = TestDatabase.unique("order-");
		this.store.createKey(key, 1, 50, "two instances");
		SegmentOptions options = SegmentOptions.builder().dynamicStep(FIXED_STEP).build();
		int threads = 8;
		int perThread = 5000;
		long[][] drawn = new long[threads][perThread];
		ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
		try (SegmentIdGenerator a = new SegmentIdGenerator(this.store, options);
				SegmentIdGenerator b = new SegmentIdGenerator(new JdbcSegmentStore(this.database.dataSource(),
						this.table), options.toBuilder().threadChunkSize(16).build())) {
			a.start();
			b.start();
			CountDownLatch go = new CountDownLatch(1);
			List<Thread> started = new ArrayList<>();
			for (int t = 0; t < threads; t++) {
				SegmentIdGenerator generator = (t % 2 == 0) ? a : b;
				long[] ids = drawn[t];
				Thread thread = new Thread(() -> {
					try {
						go.await();
						for (int i = 0; i < ids.length; i++) {
							ids[i] = generator.nextId(key);
						}
					}
					catch (Throwable ex) {
						failures.add(ex);
					}
				});
				thread.start();
				started.add(thread);
			}
			go.countDown();
			for (Thread thread : started) {
				thread.join(60_000);
			}
		}
		assertThat(failures).isEmpty();
		for (long[] ids : drawn) {
			for (int i = 1; i < ids.length; i++) {
				assertThat(ids[i]).isGreaterThan(ids[i - 1]);
			}
		}
		long[] all = Arrays.stream(drawn).flatMapToLong(Arrays::stream).sorted().toArray();
		assertThat(Arrays.stream(all).distinct().count()).isEqualTo(all.length);
		assertThat(all[0]).isPositive();
		// 40,000 IDs in ranges of 50 (hundreds of round trips, the instances' ranges interleaving); unused at the end:
		// at most a partly used and a prefetched range per instance, and what b's four threads hold in chunks
		assertThat(all[all.length - 1]).isLessThan(1 + 40_000 + 2 * 2 * 50 + 4 * 16);
	}

	@Test
	void databaseGoingAwayFailsCallersAfterMaxWaitAndTheGeneratorRecovers() {
		String key = TestDatabase.unique("order-");
		this.store.createKey(key, 1, 10, "outage");
		try (TcpProxy proxy = this.database.startProxy()) {
			DataSource throughProxy = this.database.dataSourceThrough(proxy);
			SegmentOptions options = SegmentOptions.builder()
				.dynamicStep(FIXED_STEP)
				.maxWait(Duration.ofMillis(1500))
				.build();
			try (SegmentIdGenerator generator = new SegmentIdGenerator(new JdbcSegmentStore(throughProxy, this.table),
					options)) {
				generator.start();
				List<Long> ids = new ArrayList<>();
				ids.add(generator.nextId(key));
				await().atMost(Duration.ofSeconds(10)).until(() -> generator.view(key).orElseThrow().next() != null);
				proxy.cut();
				for (int i = 0; i < 19; i++) {
					ids.add(generator.nextId(key));
				}
				long start = System.nanoTime();
				assertThatExceptionOfType(SegmentsExhaustedException.class).isThrownBy(() -> generator.nextId(key))
					.withMessageContaining("'" + key + "'")
					.withMessageContaining("[1, 11)")
					.withMessageContaining("[11, 21)")
					.satisfies((ex) -> assertThat(ex.getCause()).isNotNull());
				assertThat(System.nanoTime() - start).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(1400));
				proxy.restore();
				await().atMost(Duration.ofSeconds(15))
					.ignoreException(SegmentsExhaustedException.class)
					.until(() -> ids.add(generator.nextId(key)));
				for (int i = 0; i < 20; i++) {
					ids.add(generator.nextId(key));
				}
				assertThat(ids).doesNotHaveDuplicates().isSorted();
				assertThat(ids.subList(0, 20)).containsExactly(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L, 10L, 11L, 12L, 13L,
						14L, 15L, 16L, 17L, 18L, 19L, 20L);
			}
		}
	}

	@Test
	void theKeyListIsReadAgainOnlyWhenRowsWereAddedOrDeletedAndEveryChangeIsSeen() {
		String used = TestDatabase.unique("used-");
		String swapped = TestDatabase.unique("swapped-");
		String inserted = TestDatabase.unique("inserted-");
		this.store.createKey(used, 1, 10, "used");
		this.store.createKey(swapped, 1, 10, "swapped by hand");
		ListReads store = new ListReads(this.store);
		SegmentOptions options = SegmentOptions.builder().keyRefreshInterval(Duration.ofMillis(100)).build();
		try (SegmentIdGenerator generator = new SegmentIdGenerator(store, options)) {
			generator.start();
			assertThat(generator.nextId(used)).isOne();
			long markers = store.markers.get();
			await().atMost(Duration.ofSeconds(10)).until(() -> store.markers.get() >= markers + 3);
			assertThat(store.lists).as("a list unchanged is not read again").hasValue(1);

			// By hand, as an operator would: one row deleted and another inserted, as many rows as before.
			this.database.execute("DELETE FROM " + this.table + " WHERE biz_tag = '" + swapped + "'",
					"INSERT INTO " + this.table + " (biz_tag, max_id, step, description) VALUES ('" + inserted
							+ "', 1, 10, 'inserted by hand')");
			await().atMost(Duration.ofSeconds(10))
				.until(() -> generator.keys().contains(inserted) && !generator.keys().contains(swapped));
			assertThat(generator.nextId(inserted)).isOne();

			// The row of a key this node used is deleted: the key is retired and reported missing.
			this.database.execute("DELETE FROM " + this.table + " WHERE biz_tag = '" + used + "'");
			await().atMost(Duration.ofSeconds(10)).until(() -> generator.missingKeys().containsKey(used));
			assertThat(generator.keys()).doesNotContain(used);
			assertThatExceptionOfType(UnknownKeyException.class).isThrownBy(() -> generator.nextId(used));
		}
	}

	/** Passes every call on and counts the reads of the key list and of its marker. */
	private static final class ListReads implements SegmentStore {

		private final SegmentStore store;

		final AtomicLong lists = new AtomicLong();

		final AtomicLong markers = new AtomicLong();

		ListReads(SegmentStore store) {
			this.store = store;
		}

		@Override
		public SegmentAllocation allocate(String key) {
			return this.store.allocate(key);
		}

		@Override
		public SegmentAllocation allocate(String key, int step) {
			return this.store.allocate(key, step);
		}

		@Override
		public Set<String> keys() {
			this.lists.incrementAndGet();
			return this.store.keys();
		}

		@Override
		public boolean containsKey(String key) {
			return this.store.containsKey(key);
		}

		@Override
		public @Nullable String keysMarker() {
			this.markers.incrementAndGet();
			return this.store.keysMarker();
		}

	}

}
