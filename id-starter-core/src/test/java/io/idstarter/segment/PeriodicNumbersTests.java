package io.idstarter.segment;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import io.idstarter.IdWorkerListener;
import io.idstarter.time.ManualTimeSource;
import io.idstarter.time.TimeSource;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

/**
 * {@link PeriodicNumbers} over the in-memory store; the same behaviour on the real stores is in the integration
 * tests' {@code AbstractPeriodicNumbersTests}.
 */
class PeriodicNumbersTests {

	private static final Instant MIDNIGHT = Instant.parse("2026-11-27T00:00:00Z");

	private final InMemorySegmentStore store = new InMemorySegmentStore();

	private final SegmentIdGenerator generator = new SegmentIdGenerator(this.store,
			SegmentOptions.builder().giveBackOnClose(false).build(), TimeSource.system(), IdWorkerListener.NONE, null);

	@AfterEach
	void close() {
		this.generator.close();
	}

	@Test
	void callsFromManyThreadsWhileTheClockCrossesMidnightNeverRepeatAString() throws Exception {
		this.generator.start();
		ManualTimeSource clock = new ManualTimeSource(MIDNIGHT.minusMillis(200));
		// Step 3: many small ranges, so that threads fetch ranges of both days around the boundary.
		PeriodicNumbers numbers = new PeriodicNumbers(this.generator, this.store,
				List.of(PeriodicKey.of("invoice", ResetPeriod.DAILY, "{yyyyMMdd}-{seq:6}").withStep(3)),
				ZoneOffset.UTC, clock);
		Set<String> issued = ConcurrentHashMap.newKeySet();
		AtomicBoolean running = new AtomicBoolean(true);
		AtomicReference<Throwable> failure = new AtomicReference<>();
		CountDownLatch started = new CountDownLatch(4);
		List<Thread> threads = new ArrayList<>();
		for (int t = 0; t < 4; t++) {
			Thread thread = new Thread(() -> {
				started.countDown();
				try {
					while (running.get()) {
						String number = numbers.next("invoice");
						if (!issued.add(number)) {
							throw new AssertionError("issued twice: " + number);
						}
					}
				}
				catch (Throwable ex) {
					failure.compareAndSet(null, ex);
				}
			});
			thread.start();
			threads.add(thread);
		}
		started.await();
		await().atMost(Duration.ofSeconds(10)).until(() -> issued.size() >= 100 || failure.get() != null);
		for (int ms = 0; ms < 400; ms++) {
			clock.advanceMillis(1);
			if (ms % 4 == 0) {
				Thread.sleep(1);
			}
		}
		int before = issued.size();
		await().atMost(Duration.ofSeconds(10)).until(() -> issued.size() >= before + 100 || failure.get() != null);
		running.set(false);
		for (Thread thread : threads) {
			thread.join();
		}
		assertThat(failure.get()).isNull();
		// A new day's counter with the old day's prefix would repeat a string of the old day.
		assertThat(issued).anyMatch((number) -> number.startsWith("20261126-"))
			.anyMatch((number) -> number.startsWith("20261127-000001"));
		assertThat(this.store.keys()).contains("invoice:20261126", "invoice:20261127");
	}

	@Test
	void anUndeclaredKeyIsRefusedNamingTheDeclaredOnes() {
		this.generator.start();
		PeriodicNumbers numbers = new PeriodicNumbers(this.generator, this.store,
				List.of(PeriodicKey.of("invoice", ResetPeriod.YEARLY, "{yyyy}{seq}")), ZoneOffset.UTC,
				new ManualTimeSource(MIDNIGHT));
		assertThatIllegalArgumentException().isThrownBy(() -> numbers.next("receipt"))
			.withMessageContaining("'receipt'")
			.withMessageContaining("id-worker.segment.periodic-keys.receipt.format")
			.withMessageContaining("[invoice]");
		assertThat(numbers.currentSegmentKey("invoice")).isEqualTo("invoice:2026");
	}

	@Test
	void aStoreThatCannotCreateKeysIsRefusedOnlyWhenKeysAreDeclared() {
		SegmentStore readOnly = new SegmentStore() {

			@Override
			public SegmentAllocation allocate(String key) {
				return this.store().allocate(key);
			}

			@Override
			public SegmentAllocation allocate(String key, int step) {
				return this.store().allocate(key, step);
			}

			@Override
			public Set<String> keys() {
				return this.store().keys();
			}

			private SegmentStore store() {
				return PeriodicNumbersTests.this.store;
			}

		};
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new PeriodicNumbers(this.generator, readOnly,
					List.of(PeriodicKey.of("invoice", ResetPeriod.DAILY, "{period}{seq}")), ZoneOffset.UTC,
					TimeSource.system()))
			.withMessageContaining("create keys");
		assertThat(new PeriodicNumbers(this.generator, readOnly, List.of(), ZoneOffset.UTC, TimeSource.system())
			.removeExpired()).isEmpty();
	}

	@Test
	void aNodeInAnotherZoneIsRefusedAtStartWhetherOrNotAPeriodExists() {
		this.generator.start();
		// 20:00 UTC is 04:00 the next day in Shanghai: the two nodes would draw from different periods' keys.
		ManualTimeSource clock = new ManualTimeSource(Instant.parse("2026-11-26T20:00:00Z"));
		PeriodicKey invoice = PeriodicKey.of("invoice", ResetPeriod.DAILY, "{yyyyMMdd}-{seq:6}");
		PeriodicNumbers utc = new PeriodicNumbers(this.generator, this.store, List.of(invoice), ZoneId.of("UTC"),
				clock);
		assertThatExceptionOfType(PeriodicKeyMismatchException.class)
			.isThrownBy(() -> new PeriodicNumbers(this.generator, this.store, List.of(invoice),
					ZoneId.of("Asia/Shanghai"), clock))
			.withMessageContaining("'invoice'")
			.withMessageContaining("zone UTC")
			.withMessageContaining("zone Asia/Shanghai")
			.withMessageContaining("id-worker.segment.periodic-zone");
		assertThat(utc.next("invoice")).isEqualTo("20261126-000001");
		assertThatExceptionOfType(PeriodicKeyMismatchException.class)
			.isThrownBy(() -> new PeriodicNumbers(this.generator, this.store, List.of(invoice),
					ZoneId.of("Asia/Shanghai"), clock))
			.withMessageContaining("zone UTC");
		assertThat(this.store.keys()).containsExactlyInAnyOrder("invoice:settings", "invoice:20261126");
	}

	@Test
	void zonesOfTheSameRulesAreOneZone() {
		this.generator.start();
		ManualTimeSource clock = new ManualTimeSource(Instant.parse("2026-11-26T20:00:00Z"));
		PeriodicKey invoice = PeriodicKey.of("invoice", ResetPeriod.DAILY, "{yyyyMMdd}-{seq:6}");
		PeriodicNumbers utc = new PeriodicNumbers(this.generator, this.store, List.of(invoice), ZoneId.of("UTC"),
				clock);
		assertThat(utc.next("invoice")).isEqualTo("20261126-000001");
		for (ZoneId same : List.of(ZoneId.of("Etc/UTC"), ZoneOffset.UTC, ZoneId.of("GMT"))) {
			PeriodicNumbers other = new PeriodicNumbers(this.generator, this.store, List.of(invoice), same, clock);
			assertThat(other.next("invoice")).as(same.getId()).startsWith("20261126-");
		}
		PeriodicKey order = PeriodicKey.of("order", ResetPeriod.DAILY, "SO{yyyyMMdd}{seq:6}");
		new PeriodicNumbers(this.generator, this.store, List.of(order), ZoneId.of("Asia/Shanghai"), clock);
		// A link of the tz database to Asia/Shanghai.
		new PeriodicNumbers(this.generator, this.store, List.of(order), ZoneId.of("PRC"), clock);
	}

	@Test
	void aDailyAndAMonthlyNodeOfOneKeyAreNeverBothServedTheSecondIsRefusedAtStart() {
		this.generator.start();
		ManualTimeSource clock = new ManualTimeSource(Instant.parse("2026-11-26T10:00:00Z"));
		String format = "INV-{yyyyMMdd}-{seq:6}";
		PeriodicNumbers daily = new PeriodicNumbers(this.generator, this.store,
				List.of(PeriodicKey.of("invoice", ResetPeriod.DAILY, format)), ZoneOffset.UTC, clock);
		// Each would draw from its own period's key (invoice:20261126, invoice:202611), both from the first number.
		assertThatExceptionOfType(PeriodicKeyMismatchException.class)
			.isThrownBy(() -> new PeriodicNumbers(this.generator, this.store,
					List.of(PeriodicKey.of("invoice", ResetPeriod.MONTHLY, format)), ZoneOffset.UTC, clock))
			.withMessageContaining("reset DAILY")
			.withMessageContaining("reset MONTHLY")
			.withMessageContaining("id-worker.segment.periodic-keys.invoice.reset");
		assertThat(daily.next("invoice")).isEqualTo("INV-20261126-000001");
		assertThatExceptionOfType(PeriodicKeyMismatchException.class)
			.isThrownBy(() -> new PeriodicNumbers(this.generator, this.store,
					List.of(PeriodicKey.of("invoice", ResetPeriod.DAILY, "INV{yyyyMMdd}{seq:6}")), ZoneOffset.UTC,
					clock))
			.withMessageContaining("format " + format)
			.withMessageContaining("format INV{yyyyMMdd}{seq:6}")
			.withMessageContaining("id-worker.segment.periodic-keys.invoice.format");
	}

	@Test
	void twoKeysWhoseFormatsLeaveTheSameTextAreRefusedUnlessBothWriteTheKey() {
		ManualTimeSource clock = new ManualTimeSource(MIDNIGHT);
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new PeriodicNumbers(this.generator, this.store,
					List.of(PeriodicKey.of("invoice", ResetPeriod.DAILY, "INV-{yyyyMMdd}{seq:6}"),
							PeriodicKey.of("receipt", ResetPeriod.MONTHLY, "INV-{yyyyMM}{seq:8}")),
					ZoneOffset.UTC, clock))
			.withMessageContaining("'invoice'")
			.withMessageContaining("'receipt'")
			.withMessageContaining("'INV-'")
			.withMessageContaining("{key}");
		new PeriodicNumbers(this.generator, this.store,
				List.of(PeriodicKey.of("invoice", ResetPeriod.DAILY, "{key}-{yyyyMMdd}-{seq:6}"),
						PeriodicKey.of("receipt", ResetPeriod.DAILY, "{key}-{yyyyMMdd}-{seq:6}"),
						PeriodicKey.of("order", ResetPeriod.DAILY, "SO-{yyyyMMdd}-{seq:6}")),
				ZoneOffset.UTC, clock);
	}

	@Test
	void aStoreThatKeepsNoDescriptionsIsRefused() {
		SegmentKeyAdmin noDescriptions = new ForwardingStore(this.store, /* descriptions= */ false);
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new PeriodicNumbers(this.generator, (SegmentStore) noDescriptions,
					List.of(PeriodicKey.of("invoice", ResetPeriod.DAILY, "{period}{seq}")), ZoneOffset.UTC,
					TimeSource.system()))
			.withMessageContaining("descriptions")
			.withMessageContaining("zone");
		assertThat(this.store.keys()).as("nothing created in a store that cannot record settings").isEmpty();
	}

	@Test
	void aStoreThatCannotDeleteKeysKeepsItsPeriodsInTheStoreAndOnTheNode() {
		ForwardingStore noDelete = new ForwardingStore(this.store, /* descriptions= */ true);
		SegmentIdGenerator generator = new SegmentIdGenerator(noDelete, SegmentOptions.builder().build(),
				TimeSource.system(), IdWorkerListener.NONE, null);
		generator.start();
		try {
			ManualTimeSource clock = new ManualTimeSource(MIDNIGHT);
			PeriodicNumbers numbers = new PeriodicNumbers(generator, noDelete,
					List.of(PeriodicKey.of("ticket", ResetPeriod.DAILY, "{period}-{seq}").withRetention(Duration.ZERO)),
					ZoneOffset.UTC, clock);
			for (int day = 0; day < 4; day++) {
				assertThat(numbers.next("ticket")).isEqualTo(ResetPeriod.DAILY.stamp(
						LocalDate.of(2026, 11, 27).plusDays(day)) + "-1");
				assertThat(numbers.next("ticket")).endsWith("-2");
				clock.advance(Duration.ofDays(1));
			}
			assertThat(numbers.removeExpired()).isEmpty();
			assertThat(this.store.keys()).contains("ticket:20261127", "ticket:20261130");
			assertThat(generator.keys()).as("the node forgot none of them").contains("ticket:20261127");
			assertThat(noDelete.deletes).as("no delete was tried").isZero();
		}
		finally {
			generator.close();
		}
	}

	/** The in-memory store, without deleting keys and, if asked, without descriptions. */
	private static final class ForwardingStore implements SegmentStore, SegmentKeyAdmin {

		private final InMemorySegmentStore store;

		private final boolean descriptions;

		int deletes;

		ForwardingStore(InMemorySegmentStore store, boolean descriptions) {
			this.store = store;
			this.descriptions = descriptions;
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
			return this.store.keys();
		}

		@Override
		public boolean createKey(String key, long firstId, int step, String description) {
			return this.store.createKey(key, firstId, step, description);
		}

		@Override
		public void updateStep(String key, int step) {
			this.store.updateStep(key, step);
		}

		@Override
		public boolean deleteKey(String key) {
			this.deletes++;
			return SegmentKeyAdmin.super.deleteKey(key);
		}

		@Override
		public @Nullable String description(String key) {
			return this.descriptions ? this.store.description(key) : SegmentKeyAdmin.super.description(key);
		}

	}

	@Test
	void aMonthlyKeyKeepsThePreviousMonthAndDeletesOlderOnesPastTheRetention() {
		this.generator.start();
		ManualTimeSource clock = new ManualTimeSource(Instant.parse("2026-09-15T12:00:00Z"));
		PeriodicNumbers numbers = new PeriodicNumbers(this.generator, this.store,
				List.of(PeriodicKey.of("order", ResetPeriod.MONTHLY, "SO{yyyyMM}{seq:5}")
					.withRetention(Duration.ofDays(10))),
				ZoneOffset.UTC, clock);
		assertThat(numbers.next("order")).isEqualTo("SO20260900001");
		clock.advance(Duration.ofDays(30)); // 15 October
		assertThat(numbers.next("order")).isEqualTo("SO20261000001");
		clock.advance(Duration.ofDays(31)); // 15 November: September ended 45 days ago
		assertThat(numbers.next("order")).isEqualTo("SO20261100001");
		assertThat(this.store.keys()).containsExactlyInAnyOrder("order:settings", "order:202610", "order:202611");
		assertThat(this.generator.missingKeys()).isEmpty();
	}

}
