package io.idstarter.metrics;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.idstarter.IdWorkerListener;
import io.idstarter.segment.InMemorySegmentStore;
import io.idstarter.segment.PeriodicKey;
import io.idstarter.segment.PeriodicNumbers;
import io.idstarter.segment.ResetPeriod;
import io.idstarter.segment.SegmentIdGenerator;
import io.idstarter.segment.SegmentOptions;
import io.idstarter.snowflake.ClockBackwardsPolicy;
import io.idstarter.snowflake.SnowflakeIdGenerator;
import io.idstarter.snowflake.SnowflakeLayout;
import io.idstarter.time.ManualTimeSource;
import io.idstarter.time.TimeSource;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link IdWorkerMetrics} without Spring.
 */
@ExtendWith(OutputCaptureExtension.class)
class IdWorkerMetricsTests {

	@Test
	void eventsAreRecordedWithoutGenerators() {
		SimpleMeterRegistry registry = new SimpleMeterRegistry();
		ManualTimeSource time = new ManualTimeSource();
		IdWorkerMetrics metrics = new IdWorkerMetrics(registry, () -> null, () -> null, () -> null, time);
		metrics.storeCall("ns", "renew", Duration.ofMillis(3).toNanos(), false);
		metrics.storeCall("order", "allocate", Duration.ofMillis(1).toNanos(), true);
		time.advance(Duration.ofSeconds(1));
		metrics.segmentWait("order", Duration.ofMillis(20).toNanos(), true);
		metrics.clockMovedBackwards(7, "failed");
		metrics.bindTo(registry);
		assertThat(registry.get(IdWorkerMetrics.STORE_CALLS)
			.tags("key", "none", "namespace", "ns", "operation", "renew", "outcome", "failure")
			.timer()
			.totalTime(TimeUnit.MILLISECONDS)).isEqualTo(3);
		assertThat(registry.get(IdWorkerMetrics.SEGMENT_WAITS).tags("outcome", "served").timer().count()).isOne();
		assertThat(registry.get(IdWorkerMetrics.CLOCK_BACKWARDS).tag("action", "failed").counter().count()).isOne();
		assertThat(registry.find(IdWorkerMetrics.SNOWFLAKE_ISSUED).meter()).isNull();
		assertThat(registry.find(IdWorkerMetrics.LEASE_REMAINING).meter()).isNull();
	}

	@Test
	void theLayoutsRemainingTimeIsAGaugeThatStopsAtZeroAndLayoutCallsAreLeaseCalls() {
		SimpleMeterRegistry registry = new SimpleMeterRegistry();
		Instant start = Instant.parse("2026-11-26T00:00:00Z");
		ManualTimeSource time = new ManualTimeSource(start);
		SnowflakeLayout layout = SnowflakeLayout.of(start.minusMillis(1L << 35).plus(Duration.ofDays(10)), 35, 10, 18);
		SnowflakeIdGenerator generator = new SnowflakeIdGenerator(layout, time, ClockBackwardsPolicy.defaults(),
				IdWorkerListener.NONE);
		IdWorkerMetrics metrics = new IdWorkerMetrics(registry, () -> generator, () -> null, () -> null, time);
		metrics.bindTo(registry);
		assertThat(registry.get(IdWorkerMetrics.LAYOUT_REMAINING).gauge().value())
			.isEqualTo(Duration.ofDays(10).toSeconds());
		time.advance(Duration.ofDays(11));
		assertThat(registry.get(IdWorkerMetrics.LAYOUT_REMAINING).gauge().value()).isZero();
		metrics.storeCall("ns", "record-layout", 1_000, true);
		assertThat(registry.get(IdWorkerMetrics.STORE_CALLS)
			.tags("key", "none", "namespace", "ns", "operation", "record-layout")
			.timer()
			.count()).isOne();
	}

	@Test
	void refusedSegmentsAreCountedPerKeyAndReason() {
		SimpleMeterRegistry registry = new SimpleMeterRegistry();
		IdWorkerMetrics metrics = new IdWorkerMetrics(registry);
		metrics.segmentRefused("order", 5000, 1);
		metrics.segmentRefused("order", 5000, 1001);
		metrics.segmentRefused("invoice", 70, -1);
		assertThat(registry.get(IdWorkerMetrics.SEGMENT_REFUSED).tags("key", "order", "reason", "below-mark")
			.counter()
			.count()).isEqualTo(2);
		assertThat(registry.get(IdWorkerMetrics.SEGMENT_REFUSED).tags("key", "invoice", "reason", "missing")
			.counter()
			.count()).isOne();
	}

	@Test
	void keysAreRegisteredInEveryBoundRegistryIncludingKeysSeenBetweenBinds() {
		InMemorySegmentStore store = new InMemorySegmentStore();
		store.createKey("a", 1, 10, "");
		SimpleMeterRegistry events = new SimpleMeterRegistry();
		IdWorkerMetrics[] metrics = new IdWorkerMetrics[1];
		SegmentIdGenerator segments = new SegmentIdGenerator(store, SegmentOptions.defaults(), TimeSource.system(),
				new IdWorkerListener() {

					@Override
					public void storeCall(String key, String operation, long nanos, boolean success) {
						metrics[0].storeCall(key, operation, nanos, success);
					}

				}, null);
		metrics[0] = new IdWorkerMetrics(events, () -> null, () -> null, () -> segments, TimeSource.system());
		try {
			segments.start();
			MeterRegistry first = new SimpleMeterRegistry();
			metrics[0].bindTo(first);
			store.createKey("b", 1, 10, "");
			awaitFirstId(segments, "b");
			assertThat(issued(first, "b")).isEqualTo(1);
			MeterRegistry second = new SimpleMeterRegistry();
			metrics[0].bindTo(second);
			segments.nextId("b");
			segments.nextId("a");
			for (MeterRegistry registry : new MeterRegistry[] { first, second }) {
				assertThat(issued(registry, "a")).isEqualTo(1);
				assertThat(issued(registry, "b")).isEqualTo(2);
			}
		}
		finally {
			segments.close();
		}
	}

	@Test
	void eachPeriodOfAPeriodicKeyIsMeteredUnderItsSegmentKeyUntilItIsDeleted() {
		InMemorySegmentStore store = new InMemorySegmentStore();
		MeterRegistry registry = new SimpleMeterRegistry();
		IdWorkerMetrics[] metrics = new IdWorkerMetrics[1];
		SegmentIdGenerator segments = reportingTo(store, metrics);
		metrics[0] = new IdWorkerMetrics(registry, () -> null, () -> null, () -> segments, TimeSource.system());
		ManualTimeSource clock = new ManualTimeSource(Instant.parse("2026-11-26T23:59:59.999Z"));
		PeriodicNumbers numbers = new PeriodicNumbers(segments, store,
				List.of(PeriodicKey.of("invoice", ResetPeriod.DAILY, "INV-{yyyyMMdd}-{seq:6}")
					.withRetention(Duration.ZERO)),
				ZoneOffset.UTC, clock);
		try {
			segments.start();
			metrics[0].bindTo(registry);
			numbers.next("invoice");
			numbers.next("invoice");
			clock.advanceMillis(1);
			numbers.next("invoice");
			assertThat(issued(registry, "invoice:20261126")).isEqualTo(2);
			assertThat(issued(registry, "invoice:20261127")).isEqualTo(1);
			// A day later the 26th is past its retention (zero) and no longer the previous day: deleted, and its
			// meters go with it.
			clock.advance(Duration.ofDays(1));
			numbers.next("invoice");
			assertThat(store.keys()).doesNotContain("invoice:20261126");
			assertThat(registry.find(IdWorkerMetrics.SEGMENT_ISSUED).tag("key", "invoice:20261126").meters()).isEmpty();
			assertThat(registry.find(IdWorkerMetrics.STORE_CALLS).tag("key", "invoice:20261126").meters()).isEmpty();
			assertThat(issued(registry, "invoice:20261127")).isEqualTo(1);
			assertThat(issued(registry, "invoice:20261128")).isEqualTo(1);
		}
		finally {
			segments.close();
		}
	}

	@Test
	void aPeriodDeletedPastItsRetentionGivesItsPlaceAmongTheTaggedKeysToTheNext() {
		InMemorySegmentStore store = new InMemorySegmentStore();
		MeterRegistry registry = new SimpleMeterRegistry();
		IdWorkerMetrics[] metrics = new IdWorkerMetrics[1];
		SegmentIdGenerator segments = reportingTo(store, metrics);
		// two places: the day's key and the day before's, which the retention keeps until the day after
		metrics[0] = new IdWorkerMetrics(registry, () -> null, () -> null, () -> segments, () -> null,
				TimeSource.system(), 2);
		ManualTimeSource clock = new ManualTimeSource(Instant.parse("2026-11-26T12:00:00Z"));
		PeriodicNumbers numbers = new PeriodicNumbers(segments, store,
				List.of(PeriodicKey.of("invoice", ResetPeriod.DAILY, "INV-{yyyyMMdd}-{seq:6}")
					.withRetention(Duration.ZERO)),
				ZoneOffset.UTC, clock);
		try {
			segments.start();
			metrics[0].bindTo(registry);
			for (int day = 26; day <= 30; day++) {
				numbers.next("invoice");
				assertThat(issued(registry, "invoice:202611" + day)).as("day %d", day).isEqualTo(1);
				clock.advance(Duration.ofDays(1));
			}
			assertThat(registry.find(IdWorkerMetrics.STORE_CALLS).tag("key", IdWorkerMetrics.OTHER_KEYS).meters())
				.isEmpty();
		}
		finally {
			segments.close();
		}
	}

	@Test
	void eachPeriodicKeyWithAWidthHasTheNumbersItsCurrentPeriodCanStillHave() {
		SimpleMeterRegistry registry = new SimpleMeterRegistry();
		InMemorySegmentStore store = new InMemorySegmentStore();
		SegmentIdGenerator segments = new SegmentIdGenerator(store, SegmentOptions.builder().build(),
				TimeSource.system(), IdWorkerListener.NONE, null);
		ManualTimeSource clock = new ManualTimeSource(Instant.parse("2026-11-26T12:00:00Z"));
		PeriodicNumbers numbers = new PeriodicNumbers(segments, store,
				List.of(PeriodicKey.of("invoice", ResetPeriod.DAILY, "INV-{yyyyMMdd}-{seq:3}").withStep(10),
						PeriodicKey.of("ticket", ResetPeriod.DAILY, "{period}-{seq}")),
				ZoneOffset.UTC, clock);
		try {
			segments.start();
			new IdWorkerMetrics(registry, () -> null, () -> null, () -> segments, () -> numbers, TimeSource.system())
				.bindTo(registry);
			assertThat(periodicRemaining(registry, "invoice")).as("999 numbers from first-id 1").isEqualTo(999);
			numbers.next("invoice");
			numbers.next("invoice");
			assertThat(periodicRemaining(registry, "invoice")).isEqualTo(997);
			assertThat(registry.find(IdWorkerMetrics.PERIODIC_REMAINING).tag("key", "ticket").meters())
				.as("no width").isEmpty();
		}
		finally {
			segments.close();
		}
	}

	private static double periodicRemaining(SimpleMeterRegistry registry, String key) {
		return registry.get(IdWorkerMetrics.PERIODIC_REMAINING).tag("key", key).gauge().value();
	}

	@Test
	void aKeysFirstFetchIsNotAWait() {
		SimpleMeterRegistry registry = new SimpleMeterRegistry();
		ManualTimeSource time = new ManualTimeSource();
		IdWorkerMetrics metrics = new IdWorkerMetrics(registry, () -> null, () -> null, () -> null, time);
		// The first caller waits for the key's first range: the wait began before any allocation.
		time.advance(Duration.ofMillis(30));
		metrics.storeCall("order", "allocate", Duration.ofMillis(30).toNanos(), true);
		metrics.segmentWait("order", Duration.ofMillis(30).toNanos(), true);
		assertThat(registry.find(IdWorkerMetrics.SEGMENT_WAITS).timer()).isNull();
		// Later both segments are spent and a caller waits for the next one.
		time.advance(Duration.ofSeconds(5));
		metrics.segmentWait("order", Duration.ofMillis(10).toNanos(), true);
		assertThat(registry.get(IdWorkerMetrics.SEGMENT_WAITS).tag("key", "order").timer().count()).isOne();
	}

	@Test
	void leaseCallsTagTheNamespaceAndSegmentCallsTheKey() {
		SimpleMeterRegistry registry = new SimpleMeterRegistry();
		IdWorkerMetrics metrics = new IdWorkerMetrics(registry);
		metrics.storeCall("order-service", "borrow", 1000, true);
		metrics.storeCall("order", "allocate", 1000, true);
		assertThat(registry.get(IdWorkerMetrics.STORE_CALLS)
			.tags("namespace", "order-service", "key", "none", "operation", "borrow")
			.timer()
			.count()).isOne();
		assertThat(registry.get(IdWorkerMetrics.STORE_CALLS)
			.tags("namespace", "none", "key", "order", "operation", "allocate")
			.timer()
			.count()).isOne();
	}

	@Test
	void clockBackwardsCountersExistAtZeroOnceBoundToASnowflakeGenerator() {
		SimpleMeterRegistry registry = new SimpleMeterRegistry();
		SnowflakeIdGenerator snowflake = new SnowflakeIdGenerator(SnowflakeLayout.defaults(), TimeSource.system(),
				ClockBackwardsPolicy.failAfter(Duration.ofMillis(5)), IdWorkerListener.NONE);
		IdWorkerMetrics metrics = new IdWorkerMetrics(registry, () -> snowflake, () -> null, () -> null,
				TimeSource.system());
		metrics.bindTo(registry);
		for (String action : new String[] { "waited", "tolerated", "failed" }) {
			assertThat(registry.get(IdWorkerMetrics.CLOCK_BACKWARDS).tag("action", action).counter().count()).isZero();
		}
	}

	@Test
	void bindingAgainAndSeeingAKeyAgainRegistersNothingTwice(CapturedOutput output) {
		InMemorySegmentStore store = new InMemorySegmentStore();
		store.createKey("a", 1, 10, "");
		SimpleMeterRegistry registry = new SimpleMeterRegistry();
		IdWorkerMetrics[] metrics = new IdWorkerMetrics[1];
		SegmentIdGenerator segments = new SegmentIdGenerator(store, SegmentOptions.defaults(), TimeSource.system(),
				new IdWorkerListener() {

					@Override
					public void storeCall(String key, String operation, long nanos, boolean success) {
						metrics[0].storeCall(key, operation, nanos, success);
					}

				}, null);
		SnowflakeIdGenerator snowflake = new SnowflakeIdGenerator(SnowflakeLayout.defaults(), TimeSource.system(),
				ClockBackwardsPolicy.failAfter(Duration.ofMillis(5)), IdWorkerListener.NONE);
		metrics[0] = new IdWorkerMetrics(registry, () -> snowflake, () -> null, () -> segments, TimeSource.system());
		try {
			segments.start();
			segments.nextId("a");
			metrics[0].bindTo(registry);
			metrics[0].bindTo(registry);
			metrics[0].storeCall("a", "allocate", 1000, true);
			assertThat(issued(registry, "a")).isEqualTo(1);
			assertThat(output).doesNotContain("already registered");
		}
		finally {
			segments.close();
		}
	}

	private static void awaitFirstId(SegmentIdGenerator segments, String key) {
		// The generator reads unknown keys from the store at most once a second.
		await().atMost(Duration.ofSeconds(5))
			.ignoreExceptions()
			.until(() -> segments.nextIds(key, 1).length == 1);
	}

	private static double issued(MeterRegistry registry, String key) {
		return registry.get(IdWorkerMetrics.SEGMENT_ISSUED).tag("key", key).functionCounter().count();
	}

	/** A generator whose store calls and retired keys reach {@code metrics[0]}, set after it is created. */
	private static SegmentIdGenerator reportingTo(InMemorySegmentStore store, IdWorkerMetrics[] metrics) {
		return new SegmentIdGenerator(store, SegmentOptions.defaults(), TimeSource.system(), new IdWorkerListener() {

			@Override
			public void storeCall(String key, String operation, long nanos, boolean success) {
				metrics[0].storeCall(key, operation, nanos, success);
			}

			@Override
			public void segmentKeyRetired(String key) {
				metrics[0].segmentKeyRetired(key);
			}

		}, null);
	}

}
