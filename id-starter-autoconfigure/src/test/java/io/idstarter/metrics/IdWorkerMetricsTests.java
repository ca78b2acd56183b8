package io.idstarter.metrics;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import io.idstarter.IdWorkerListener;
import io.idstarter.segment.InMemorySegmentStore;
import io.idstarter.segment.SegmentIdGenerator;
import io.idstarter.segment.SegmentOptions;
import io.idstarter.time.TimeSource;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link IdWorkerMetrics} without Spring.
 */
class IdWorkerMetricsTests {

	@Test
	void eventsAreRecordedWithoutGenerators() {
		SimpleMeterRegistry registry = new SimpleMeterRegistry();
		IdWorkerMetrics metrics = new IdWorkerMetrics(registry);
		metrics.storeCall("ns", "renew", Duration.ofMillis(3).toNanos(), false);
		metrics.segmentWait("order", Duration.ofMillis(20).toNanos(), true);
		metrics.clockMovedBackwards(7, "failed");
		metrics.bindTo(registry);
		assertThat(registry.get(IdWorkerMetrics.STORE_CALLS)
			.tags("key", "ns", "operation", "renew", "outcome", "failure")
			.timer()
			.totalTime(TimeUnit.MILLISECONDS)).isEqualTo(3);
		assertThat(registry.get(IdWorkerMetrics.SEGMENT_WAITS).tags("outcome", "served").timer().count()).isOne();
		assertThat(registry.get(IdWorkerMetrics.CLOCK_BACKWARDS).tag("action", "failed").counter().count()).isOne();
		assertThat(registry.find(IdWorkerMetrics.SNOWFLAKE_ISSUED).meter()).isNull();
		assertThat(registry.find(IdWorkerMetrics.LEASE_REMAINING).meter()).isNull();
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

	private static void awaitFirstId(SegmentIdGenerator segments, String key) {
		// The generator reads unknown keys from the store at most once a second.
		await().atMost(Duration.ofSeconds(5))
			.ignoreExceptions()
			.until(() -> segments.nextIds(key, 1).length == 1);
	}

	private static double issued(MeterRegistry registry, String key) {
		return registry.get(IdWorkerMetrics.SEGMENT_ISSUED).tag("key", key).functionCounter().count();
	}

}
