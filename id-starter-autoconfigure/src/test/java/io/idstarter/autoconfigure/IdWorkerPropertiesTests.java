package io.idstarter.autoconfigure;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;

import io.idstarter.autoconfigure.IdWorkerProperties.ClockBackwardsAction;
import io.idstarter.snowflake.SnowflakeLayout;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

class IdWorkerPropertiesTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(IdWorkerAutoConfiguration.class));

	@Test
	void defaultsAreValid() {
		this.contextRunner.run((context) -> {
			assertThat(context).hasNotFailed().hasSingleBean(IdWorkerProperties.class);
			IdWorkerProperties properties = context.getBean(IdWorkerProperties.class);
			assertThat(properties.getSnowflake().getEpoch()).isEqualTo(Instant.parse("2020-01-01T00:00:00Z"));
			assertThat(properties.getSegment().getStore()).isEqualTo(IdWorkerStore.JDBC);
			assertThat(properties.getLease().getNamespace()).isNull();
			assertThat(properties.getSegment().getDefaultKey()).isNull();
		});
	}

	@Test
	void everyPropertyIsBound() {
		this.contextRunner.withPropertyValues("id-worker.snowflake.epoch=2024-03-01T00:00:00Z",
				"id-worker.snowflake.timestamp-bits=40", "id-worker.snowflake.worker-id-bits=12",
				"id-worker.snowflake.sequence-bits=11", "id-worker.snowflake.clock-backwards.policy=tolerate",
				"id-worker.snowflake.clock-backwards.max-wait=20ms", "id-worker.lease.namespace=orders",
				"id-worker.lease.ttl=60s", "id-worker.lease.heartbeat=15s", "id-worker.lease.safety-margin=10s",
				"id-worker.lease.max-startup-wait=5s", "id-worker.lease.max-clock-skew=500ms", "id-worker.lease.cache-file=/tmp/worker-id",
				"id-worker.segment.store=redis", "id-worker.segment.prefetch-threshold=0.25",
				"id-worker.segment.max-wait=250ms", "id-worker.segment.key-refresh-interval=2m",
				"id-worker.segment.default-key=orders", "id-worker.segment.thread-chunk-size=8",
				"id-worker.segment.dynamic-step.enabled=false", "id-worker.segment.dynamic-step.expand-below=5m",
				"id-worker.segment.dynamic-step.shrink-above=20m",
				"id-worker.segment.dynamic-step.max-step=5000")
			.run((context) -> {
				IdWorkerProperties properties = context.getBean(IdWorkerProperties.class);
				IdWorkerProperties.Snowflake snowflake = properties.getSnowflake();
				assertThat(snowflake.getEpoch()).isEqualTo(Instant.parse("2024-03-01T00:00:00Z"));
				assertThat(snowflake.getTimestampBits()).isEqualTo(40);
				assertThat(snowflake.getWorkerIdBits()).isEqualTo(12);
				assertThat(snowflake.getSequenceBits()).isEqualTo(11);
				assertThat(snowflake.getClockBackwards().getPolicy()).isEqualTo(ClockBackwardsAction.TOLERATE);
				assertThat(snowflake.getClockBackwards().getMaxWait()).isEqualTo(Duration.ofMillis(20));
				IdWorkerProperties.Lease lease = properties.getLease();
				assertThat(lease.getNamespace()).isEqualTo("orders");
				assertThat(lease.getTtl()).isEqualTo(Duration.ofSeconds(60));
				assertThat(lease.getHeartbeat()).isEqualTo(Duration.ofSeconds(15));
				assertThat(lease.getSafetyMargin()).isEqualTo(Duration.ofSeconds(10));
				assertThat(lease.getMaxStartupWait()).isEqualTo(Duration.ofSeconds(5));
				assertThat(lease.getMaxClockSkew()).isEqualTo(Duration.ofMillis(500));
				assertThat(lease.getCacheFile()).isEqualTo(Path.of("/tmp/worker-id"));
				IdWorkerProperties.Segment segment = properties.getSegment();
				assertThat(segment.getStore()).isEqualTo(IdWorkerStore.REDIS);
				assertThat(segment.getPrefetchThreshold()).isEqualTo(0.25);
				assertThat(segment.getMaxWait()).isEqualTo(Duration.ofMillis(250));
				assertThat(segment.getKeyRefreshInterval()).isEqualTo(Duration.ofMinutes(2));
				assertThat(segment.getDefaultKey()).isEqualTo("orders");
				assertThat(segment.getThreadChunkSize()).isEqualTo(8);
				assertThat(segment.getDynamicStep().isEnabled()).isFalse();
				assertThat(segment.getDynamicStep().getExpandBelow()).isEqualTo(Duration.ofMinutes(5));
				assertThat(segment.getDynamicStep().getShrinkAbove()).isEqualTo(Duration.ofMinutes(20));
				assertThat(segment.getDynamicStep().getMaxStep()).isEqualTo(5000);
			});
	}

	@Test
	void javascriptSafeLayoutDefaultsTo41And6And6() {
		this.contextRunner.withPropertyValues("id-worker.snowflake.javascript-safe=true")
			.run((context) -> assertThat(context).hasNotFailed());
		SnowflakeLayout layout = javascriptSafe().layout();
		assertThat(new int[] { layout.timestampBits(), layout.workerIdBits(), layout.sequenceBits() })
			.containsExactly(41, 6, 6);
	}

	@Test
	void javascriptSafeLayoutOfMoreThan53BitsFailsSayingWhichWidthToLower() {
		this.contextRunner
			.withPropertyValues("id-worker.snowflake.javascript-safe=true", "id-worker.snowflake.worker-id-bits=8",
					"id-worker.snowflake.sequence-bits=6")
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(context).getFailure()
					.rootCause()
					.isInstanceOf(InvalidConfigurationPropertyValueException.class)
					.hasMessageContaining("id-worker.snowflake.worker-id-bits")
					.hasMessageContaining("at most 53 so that every ID stays below 2^53, but 41 + 8 + 6 = 55")
					.hasMessageContaining("workerIdBits to 6 (64 workers)");
			});
	}

	private static IdWorkerProperties.Snowflake javascriptSafe() {
		IdWorkerProperties.Snowflake snowflake = new IdWorkerProperties.Snowflake();
		snowflake.setJavascriptSafe(true);
		return snowflake;
	}

	@ParameterizedTest(name = "{0}={1}")
	@CsvSource(delimiter = '|', textBlock = """
			id-worker.snowflake.timestamp-bits           | 0                    | timestampBits must be at least 1: 0
			id-worker.snowflake.worker-id-bits           | 32                   | workerIdBits must be in [1, 31]: 32
			id-worker.snowflake.worker-id-bits           | 11                   | 41 + 11 + 12 = 64
			id-worker.snowflake.sequence-bits            | 0                    | sequenceBits must be at least 1: 0
			id-worker.snowflake.sequence-bits            | 10                   | 41 + 10 + 10 = 61
			id-worker.snowflake.worker-id-bits           | 13                   | lower timestampBits to 38 (IDs until 2028), or workerIdBits to 10 (1024 workers), or sequenceBits to 9 (512 IDs/ms per worker)
			id-worker.snowflake.epoch                    | 2999-01-01T00:00:00Z | epoch must not be in the future
			id-worker.snowflake.clock-backwards.max-wait | -1ms                 | maxWait must be in [0ms, 60000ms]
			id-worker.snowflake.clock-backwards.max-wait | 61s                  | maxWait must be in [0ms, 60000ms]
			id-worker.snowflake.epoch                    | 1969-12-31T00:00:00Z | epoch must not be before 1970-01-01T00:00:00Z
			id-worker.lease.namespace                    | ' '                  | 1 to 128 characters
			id-worker.lease.ttl                          | 500ms                | at least 1s
			id-worker.lease.heartbeat                    | 0s                   | must be at least 1ms
			id-worker.lease.heartbeat                    | 25s                  | heartbeat (25s) + safetyMargin (5s) must be less than ttl (30s)
			id-worker.lease.safety-margin                | -1s                  | must be at least 1ms
			id-worker.lease.max-startup-wait             | -1s                  | must not be negative
			id-worker.lease.max-clock-skew               | -1s                  | must be positive
			id-worker.segment.prefetch-threshold         | 1                    | prefetchThreshold must be in (0, 1)
			id-worker.segment.prefetch-threshold         | 0                    | prefetchThreshold must be in (0, 1)
			id-worker.segment.max-wait                   | 0s                   | maxWait must be positive
			id-worker.segment.key-refresh-interval       | 0s                   | keyRefreshInterval must be positive
			id-worker.segment.default-key                | ' '                  | 1 to 128 characters
			id-worker.segment.thread-chunk-size          | -1                   | threadChunkSize must be 0 (off) or in [1, 65536]
			id-worker.segment.dynamic-step.expand-below | 0s                  | expandBelow must be positive
			id-worker.segment.dynamic-step.shrink-above | 15m                 | shrinkAbove (PT15M) must be greater than expandBelow (PT15M)
			id-worker.segment.dynamic-step.max-step      | 0                    | maxStep must be at least 1
			id-worker.segment.max-key-tags               | 0                    | must be 1 or more
			""")
	void invalidValueFailsNamingTheProperty(String name, String value, String reason) {
		// Core's reason: the bit-sum one also says which width to change, by how much, and what that gives.
		this.contextRunner.withPropertyValues(name + "=" + value).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context).getFailure()
				.rootCause()
				.isInstanceOf(InvalidConfigurationPropertyValueException.class)
				.hasMessageContaining(name)
				.hasMessageContaining(reason);
			InvalidConfigurationPropertyValueException failure = (InvalidConfigurationPropertyValueException) rootCause(
					context.getStartupFailure());
			assertThat(failure.getName()).isEqualTo(name);
		});
	}

	@Test
	void timestampBitsThatHaveRunOutFail() {
		this.contextRunner
			.withPropertyValues("id-worker.snowflake.timestamp-bits=30", "id-worker.snowflake.worker-id-bits=20",
					"id-worker.snowflake.sequence-bits=13")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessageContaining("id-worker.snowflake.timestamp-bits")
				.hasMessageContaining("30 timestamp bits ran out at 2020-01-13T10:15:41.824Z"));
	}

	@Test
	void heartbeatRuleNamesTtlAndSafetyMargin() {
		this.contextRunner
			.withPropertyValues("id-worker.lease.ttl=15s", "id-worker.lease.heartbeat=20s")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessage("Property id-worker.lease.heartbeat with value '20s' is invalid: heartbeat (20s) + "
						+ "safetyMargin (5s) must be less than ttl (15s), or the lease runs out before the first "
						+ "renewal"));
	}

	private static Throwable rootCause(Throwable failure) {
		Throwable cause = failure;
		while (cause.getCause() != null) {
			cause = cause.getCause();
		}
		return cause;
	}

}
