package io.idstarter.autoconfigure;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;

import io.idstarter.autoconfigure.IdWorkerProperties.ClockBackwardsAction;
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
				"id-worker.segment.dynamic-step.max-step=5000", "id-worker.jdbc.segment-table=ids.segments",
				"id-worker.jdbc.lease-table=worker_leases", "id-worker.jdbc.initialize-schema=never",
				"id-worker.redis.key-prefix={ids}:", "id-worker.mongo.segment-collection=segments",
				"id-worker.mongo.lease-collection=leases")
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
				assertThat(properties.getJdbc().getSegmentTable()).isEqualTo("ids.segments");
				assertThat(properties.getJdbc().getLeaseTable()).isEqualTo("worker_leases");
				assertThat(properties.getRedis().getKeyPrefix()).isEqualTo("{ids}:");
				assertThat(properties.getMongo().getSegmentCollection()).isEqualTo("segments");
				assertThat(properties.getMongo().getLeaseCollection()).isEqualTo("leases");
			});
	}

	@Test
	void javascriptSafeLayoutDefaultsTo41And6And6() {
		this.contextRunner.withPropertyValues("id-worker.snowflake.javascript-safe=true")
			.run((context) -> assertThat(context).hasNotFailed());
		assertThat(IdWorkerPropertiesValidator.bits(javascriptSafe())).containsExactly(41, 6, 6);
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
					.hasMessageContaining("worker-id-bits to 6 (64 workers)");
			});
	}

	private static IdWorkerProperties.Snowflake javascriptSafe() {
		IdWorkerProperties.Snowflake snowflake = new IdWorkerProperties.Snowflake();
		snowflake.setJavascriptSafe(true);
		return snowflake;
	}

	@ParameterizedTest(name = "{0}={1}")
	@CsvSource(delimiter = '|', textBlock = """
			id-worker.snowflake.timestamp-bits           | 0                    | between 1 and 61
			id-worker.snowflake.worker-id-bits           | 32                   | between 1 and 31
			id-worker.snowflake.worker-id-bits           | 11                   | 41 + 11 + 12 = 64
			id-worker.snowflake.sequence-bits            | 0                    | between 1 and 61
			id-worker.snowflake.sequence-bits            | 10                   | 41 + 10 + 10 = 61
			id-worker.snowflake.worker-id-bits           | 13                   | lower timestamp-bits to 38 (IDs until 2028), or worker-id-bits to 10 (1024 workers), or sequence-bits to 9 (512 IDs/ms per worker)
			id-worker.snowflake.epoch                    | 2999-01-01T00:00:00Z | must be between 1970-01-01T00:00:00Z and now
			id-worker.snowflake.clock-backwards.max-wait | -1ms                 | between 0 and 1m
			id-worker.snowflake.clock-backwards.max-wait | 61s                  | between 0 and 1m
			id-worker.snowflake.epoch                    | 1969-12-31T00:00:00Z | must be between 1970-01-01T00:00:00Z and now
			id-worker.lease.namespace                    | ' '                  | 1 to 128 characters
			id-worker.lease.ttl                          | 500ms                | at least 1s
			id-worker.lease.heartbeat                    | 0s                   | must be positive
			id-worker.lease.heartbeat                    | 25s                  | less than 25s
			id-worker.lease.safety-margin                | -1s                  | must be positive
			id-worker.lease.max-startup-wait             | -1s                  | must not be negative
			id-worker.lease.max-clock-skew               | -1s                  | must not be negative
			id-worker.segment.prefetch-threshold         | 1                    | between 0 and 1 exclusive
			id-worker.segment.prefetch-threshold         | 0                    | between 0 and 1 exclusive
			id-worker.segment.max-wait                   | 0s                   | must be positive
			id-worker.segment.key-refresh-interval       | 0s                   | must be positive
			id-worker.segment.default-key                | ' '                  | 1 to 128 characters
			id-worker.segment.thread-chunk-size          | -1                   | between 0 and 65536 (0 turns it off)
			id-worker.segment.dynamic-step.expand-below | 0s                  | must be positive
			id-worker.segment.dynamic-step.shrink-above | 15m                 | greater than id-worker.segment.dynamic-step.expand-below (15m)
			id-worker.segment.dynamic-step.max-step      | 0                    | between 1 and 2147483647
			id-worker.jdbc.segment-table                 | leaf_alloc;drop      | SQL identifier
			id-worker.jdbc.lease-table                   | 1leases              | SQL identifier
			id-worker.redis.key-prefix                   | ' '                  | 1 to 128 characters
			id-worker.mongo.segment-collection           | system.ids           | MongoDB collection name
			id-worker.mongo.lease-collection             | a$b                  | MongoDB collection name
			""")
	void invalidValueFailsNamingTheProperty(String name, String value, String reason) {
		// The bit-sum reason also says which width to change, by how much, and what that gives.
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
				.hasMessage("Property id-worker.lease.heartbeat with value '20s' is invalid: must be less than "
						+ "id-worker.lease.ttl (15s) minus id-worker.lease.safety-margin (5s), that is less than 10s, "
						+ "so that a renewal is tried before an instance must stop issuing IDs"));
	}

	private static Throwable rootCause(Throwable failure) {
		Throwable cause = failure;
		while (cause.getCause() != null) {
			cause = cause.getCause();
		}
		return cause;
	}

}
