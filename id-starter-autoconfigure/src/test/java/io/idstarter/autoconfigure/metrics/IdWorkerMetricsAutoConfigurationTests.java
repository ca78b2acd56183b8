package io.idstarter.autoconfigure.metrics;

import java.time.Duration;

import io.idstarter.IdGenerationException;
import io.idstarter.autoconfigure.IdWorkerProperties;
import io.idstarter.lease.InMemoryLeaseStore;
import io.idstarter.metrics.IdWorkerMetrics;
import io.idstarter.segment.InMemorySegmentStore;
import io.idstarter.segment.SegmentIdGenerator;
import io.idstarter.snowflake.SnowflakeIdGenerator;
import io.idstarter.testing.TestGenerators;
import io.idstarter.time.ManualTimeSource;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link IdWorkerMetricsAutoConfiguration}.
 */
class IdWorkerMetricsAutoConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(MetricsAutoConfiguration.class,
				SimpleMetricsExportAutoConfiguration.class, IdWorkerMetricsAutoConfiguration.class));

	@Test
	void backsOffWithoutAMeterRegistry() {
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(IdWorkerMetricsAutoConfiguration.class))
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(IdWorkerMetrics.class));
	}

	@Test
	void backsOffWithoutMicrometer() {
		this.contextRunner.withClassLoader(new FilteredClassLoader(MeterRegistry.class))
			.withUserConfiguration(TestGenerators.Snowflake.class)
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(IdWorkerMetrics.class));
	}

	@Test
	void worksWithoutGenerators() {
		this.contextRunner.run((context) -> assertThat(context).hasSingleBean(IdWorkerMetrics.class));
	}

	@Test
	void userDefinedMetricsBeanWins() {
		IdWorkerMetrics mine = new IdWorkerMetrics(new SimpleMeterRegistry());
		this.contextRunner.withBean(IdWorkerMetrics.class, () -> mine)
			.run((context) -> assertThat(context).getBean(IdWorkerMetrics.class).isSameAs(mine));
	}

	@Test
	void snowflakeIdsIssuedAreCounted() {
		this.contextRunner.withUserConfiguration(TestGenerators.Snowflake.class).run((context) -> {
			MeterRegistry registry = context.getBean(MeterRegistry.class);
			SnowflakeIdGenerator snowflake = context.getBean(SnowflakeIdGenerator.class);
			assertThat(registry.get(IdWorkerMetrics.SNOWFLAKE_ISSUED).functionCounter().count()).isZero();
			for (int i = 0; i < 5; i++) {
				snowflake.nextId();
			}
			assertThat(registry.get(IdWorkerMetrics.SNOWFLAKE_ISSUED).functionCounter().count()).isEqualTo(5);
		});
	}

	@Test
	void segmentIdsIssuedAndStoreCallsAreRecordedPerKey() {
		this.contextRunner.withUserConfiguration(TestGenerators.Segments.class).run((context) -> {
			MeterRegistry registry = context.getBean(MeterRegistry.class);
			SegmentIdGenerator segments = context.getBean(SegmentIdGenerator.class);
			assertThat(registry.find(IdWorkerMetrics.SEGMENT_ISSUED).meters())
				.as("no meters of keys this instance has not used yet")
				.isEmpty();
			assertThat(registry.find(IdWorkerMetrics.SEGMENT_REMAINING).meters()).isEmpty();
			for (int i = 0; i < 250; i++) {
				segments.nextId(TestGenerators.ORDER);
			}
			segments.nextId(TestGenerators.INVOICE);
			assertThat(issued(registry, TestGenerators.ORDER)).isEqualTo(250);
			assertThat(issued(registry, TestGenerators.INVOICE)).isEqualTo(1);
			await().until(() -> !segments.view(TestGenerators.ORDER).orElseThrow().fetchInFlight()
					&& !segments.view(TestGenerators.INVOICE).orElseThrow().fetchInFlight());
			InMemorySegmentStore store = context.getBean(InMemorySegmentStore.class);
			assertThat(registry.get(IdWorkerMetrics.STORE_CALLS)
				.tags("operation", "allocate", "outcome", "success")
				.timers()
				.stream()
				.mapToLong(Timer::count)
				.sum()).isEqualTo(store.allocateCalls());
			assertThat(registry.get(IdWorkerMetrics.STORE_CALLS)
				.tags("key", TestGenerators.ORDER, "operation", "allocate", "outcome", "success")
				.timer()
				.count()).isGreaterThanOrEqualTo(2);
			double remaining = registry.get(IdWorkerMetrics.SEGMENT_REMAINING)
				.tag("key", TestGenerators.ORDER)
				.gauge()
				.value();
			long inMemory = segments.view(TestGenerators.ORDER).map((view) -> view.current().remaining()
					+ ((view.next() != null) ? view.next().remaining() : 0)).orElseThrow();
			assertThat(remaining).isPositive().isEqualTo(inMemory);
		});
	}

	@Test
	void keysBeyondMaxKeyTagsAreCountedUnderOtherWithoutGauges() {
		IdWorkerProperties properties = new IdWorkerProperties();
		properties.getSegment().setMaxKeyTags(1);
		this.contextRunner.withBean(IdWorkerProperties.class, () -> properties)
			.withUserConfiguration(TestGenerators.Segments.class)
			.run((context) -> {
				MeterRegistry registry = context.getBean(MeterRegistry.class);
				SegmentIdGenerator segments = context.getBean(SegmentIdGenerator.class);
				segments.nextId(TestGenerators.ORDER);
				segments.nextId(TestGenerators.INVOICE);
				assertThat(issued(registry, TestGenerators.ORDER)).isEqualTo(1);
				assertThat(registry.find(IdWorkerMetrics.PREFIX + "segment.issued")
					.tag("key", TestGenerators.INVOICE)
					.meters()).isEmpty();
				assertThat(registry.find(IdWorkerMetrics.STORE_CALLS).tag("key", TestGenerators.INVOICE).meters())
					.isEmpty();
				assertThat(registry.get(IdWorkerMetrics.STORE_CALLS)
					.tags("key", IdWorkerMetrics.OTHER_KEYS, "operation", "allocate", "outcome", "success")
					.timer()
					.count()).isPositive();
			});
	}

	@Test
	void keyCreatedAfterStartGetsItsMetersWhenFirstUsed() {
		this.contextRunner.withUserConfiguration(TestGenerators.Segments.class).run((context) -> {
			MeterRegistry registry = context.getBean(MeterRegistry.class);
			context.getBean(InMemorySegmentStore.class).createKey("late", 1, 10, "created after start");
			assertThat(registry.find(IdWorkerMetrics.SEGMENT_ISSUED).tag("key", "late").functionCounter()).isNull();
			SegmentIdGenerator segments = context.getBean(SegmentIdGenerator.class);
			// The generator looks unknown keys up in the store at most once a second.
			await().atMost(Duration.ofSeconds(5)).ignoreExceptions().until(() -> segments.nextId("late") > 0);
			segments.nextId("late");
			assertThat(issued(registry, "late")).isEqualTo(2);
		});
	}

	@Test
	void storeOutageIsRecordedAsFailedCallsAndAFailedFirstFetchIsNotAWait() {
		this.contextRunner.withUserConfiguration(TestGenerators.Segments.class).run((context) -> {
			MeterRegistry registry = context.getBean(MeterRegistry.class);
			context.getBean(InMemorySegmentStore.class).setAvailable(false);
			assertThatExceptionOfType(IdGenerationException.class)
				.isThrownBy(() -> context.getBean(SegmentIdGenerator.class).nextId(TestGenerators.INVOICE));
			assertThat(registry.get(IdWorkerMetrics.STORE_CALLS)
				.tags("key", TestGenerators.INVOICE, "operation", "allocate", "outcome", "failure")
				.timer()
				.count()).isPositive();
			assertThat(registry.find(IdWorkerMetrics.SEGMENT_WAITS).timer()).isNull();
		});
	}

	@Test
	void clockMovingBackwardsIsCountedByAction() {
		this.contextRunner.withUserConfiguration(TestGenerators.Snowflake.class).run((context) -> {
			MeterRegistry registry = context.getBean(MeterRegistry.class);
			SnowflakeIdGenerator snowflake = context.getBean(SnowflakeIdGenerator.class);
			snowflake.nextId();
			context.getBean(ManualTimeSource.class).stepWallClock(Duration.ofMillis(-20));
			snowflake.nextId();
			assertThat(registry.get(IdWorkerMetrics.CLOCK_BACKWARDS).tag("action", "tolerated").counter().count())
				.isEqualTo(1);
		});
	}

	@Test
	void leaseTimeLeftIsAGaugeThatDropsToZeroWhenTheLeaseIsLost() {
		this.contextRunner.withUserConfiguration(TestGenerators.LeasedSnowflake.class).run((context) -> {
			MeterRegistry registry = context.getBean(MeterRegistry.class);
			// ttl 1 s minus safety margin 0.3 s, renewed every 0.2 s
			assertThat(leaseRemaining(registry)).isPositive().isLessThanOrEqualTo(0.7);
			assertThat(registry.get(IdWorkerMetrics.STORE_CALLS)
				.tags("namespace", TestGenerators.NAMESPACE, "operation", "borrow", "outcome", "success")
				.timer()
				.count()).isEqualTo(1);
			context.getBean(InMemoryLeaseStore.class).setAvailable(false);
			await().atMost(Duration.ofSeconds(5)).until(() -> leaseRemaining(registry) == 0);
			assertThat(registry.get(IdWorkerMetrics.STORE_CALLS)
				.tags("namespace", TestGenerators.NAMESPACE, "operation", "renew", "outcome", "failure")
				.timer()
				.count()).isPositive();
		});
	}

	@Test
	void theClockOffsetToTheLeaseStoreIsAGaugeThatFollowsEachRenewal() {
		this.contextRunner.withUserConfiguration(TestGenerators.LeasedSnowflake.class).run((context) -> {
			MeterRegistry registry = context.getBean(MeterRegistry.class);
			assertThat(clockOffset(registry)).isBetween(-0.1, 0.1);
			context.getBean(TestGenerators.StoreClock.class).setOffset(Duration.ofMillis(1500));
			await().atMost(Duration.ofSeconds(5)).until(() -> clockOffset(registry) > 1.4);
			assertThat(clockOffset(registry)).isLessThan(1.6);
		});
	}

	private static double clockOffset(MeterRegistry registry) {
		return registry.get(IdWorkerMetrics.LEASE_CLOCK_OFFSET).gauge().value();
	}

	private static double leaseRemaining(MeterRegistry registry) {
		return registry.get(IdWorkerMetrics.LEASE_REMAINING).gauge().value();
	}

	private static double issued(MeterRegistry registry, String key) {
		return registry.get(IdWorkerMetrics.SEGMENT_ISSUED).tag("key", key).functionCounter().count();
	}

}
