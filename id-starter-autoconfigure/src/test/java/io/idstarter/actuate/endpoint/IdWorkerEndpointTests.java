package io.idstarter.actuate.endpoint;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;

import io.idstarter.actuate.endpoint.IdWorkerEndpoint.IdWorkerDescriptor;
import io.idstarter.actuate.endpoint.IdWorkerEndpoint.KeyDescriptor;
import io.idstarter.actuate.endpoint.IdWorkerEndpoint.LeaseDescriptor;
import io.idstarter.actuate.endpoint.IdWorkerEndpoint.PeriodicDescriptor;
import io.idstarter.actuate.endpoint.IdWorkerEndpoint.SegmentsDescriptor;
import io.idstarter.actuate.endpoint.IdWorkerEndpoint.SnowflakeDescriptor;
import io.idstarter.autoconfigure.endpoint.IdWorkerEndpointAutoConfiguration;
import io.idstarter.segment.InMemorySegmentStore;
import io.idstarter.segment.PeriodicKey;
import io.idstarter.segment.PeriodicNumbers;
import io.idstarter.segment.ResetPeriod;
import io.idstarter.segment.SegmentIdGenerator;
import io.idstarter.snowflake.SnowflakeIdGenerator;
import io.idstarter.snowflake.SnowflakeLayout;
import io.idstarter.testing.TestGenerators;
import io.idstarter.time.ManualTimeSource;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link IdWorkerEndpoint}.
 */
class IdWorkerEndpointTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(IdWorkerEndpointAutoConfiguration.class))
		.withPropertyValues("management.endpoints.web.exposure.include=idworker");

	@Test
	void showsTheSnowflakeLayoutWorkerIdAndIssuedCount() {
		this.contextRunner.withUserConfiguration(TestGenerators.Snowflake.class).run((context) -> {
			SnowflakeIdGenerator generator = context.getBean(SnowflakeIdGenerator.class);
			long last = 0;
			for (int i = 0; i < 3; i++) {
				last = generator.nextId();
			}
			SnowflakeDescriptor snowflake = context.getBean(IdWorkerEndpoint.class).idWorker().snowflake();
			assertThat(snowflake).isNotNull();
			assertThat(snowflake.layout()).isEqualTo(SnowflakeLayout.defaults().toString()).contains("1024 workers");
			assertThat(snowflake.epoch()).isEqualTo(SnowflakeLayout.DEFAULT_EPOCH);
			assertThat(snowflake.timestampBits()).isEqualTo(41);
			assertThat(snowflake.workerIdBits()).isEqualTo(10);
			assertThat(snowflake.sequenceBits()).isEqualTo(12);
			assertThat(snowflake.workerId()).isEqualTo(TestGenerators.WORKER_ID);
			assertThat(snowflake.issuedCount()).isEqualTo(3);
			assertThat(snowflake.lastTimestamp()).isEqualTo(generator.parse(last).timestamp());
			assertThat(snowflake.lease()).isNull();
		});
	}

	@Test
	void showsTheLease() {
		this.contextRunner.withUserConfiguration(TestGenerators.LeasedSnowflake.class).run((context) -> {
			LeaseDescriptor lease = context.getBean(IdWorkerEndpoint.class).idWorker().snowflake().lease();
			assertThat(lease).isNotNull();
			assertThat(lease.state()).isEqualTo("ACTIVE");
			assertThat(lease.namespace()).isEqualTo(TestGenerators.NAMESPACE);
			assertThat(lease.workerId()).isBetween(0, TestGenerators.LEASED_WORKER_IDS - 1);
			assertThat(lease.expiry()).isAfter(lease.issuingUntil());
			assertThat(lease.remainingMillis()).isBetween(0L, 700L);
			assertThat(lease.lastRenewal()).isBeforeOrEqualTo(Instant.now());
			assertThat(lease.consecutiveFailures()).isZero();
			assertThat(lease.clockOffsetMillis()).isNotNull();
		});
	}

	@Test
	void showsEverySegmentKeyAndOneKeyBySelector() {
		this.contextRunner.withUserConfiguration(TestGenerators.Segments.class).run((context) -> {
			SegmentIdGenerator segments = context.getBean(SegmentIdGenerator.class);
			IdWorkerEndpoint endpoint = context.getBean(IdWorkerEndpoint.class);
			// 15 of 100 used: past the 10 % at which the next segment is fetched
			for (int i = 0; i < 15; i++) {
				segments.nextId(TestGenerators.ORDER);
			}
			await().until(() -> segments.view(TestGenerators.ORDER).orElseThrow().next() != null);
			IdWorkerDescriptor descriptor = endpoint.idWorker();
			assertThat(descriptor.modes()).containsExactly("SEGMENT");
			assertThat(descriptor.segment().keys()).containsOnlyKeys(TestGenerators.INVOICE, TestGenerators.ORDER);
			KeyDescriptor order = endpoint.key(TestGenerators.ORDER);
			assertThat(order.current().start()).isEqualTo(1);
			assertThat(order.current().end()).isEqualTo(101);
			assertThat(order.current().nextValue()).isEqualTo(16);
			assertThat(order.current().remaining()).isEqualTo(85);
			assertThat(order.next().start()).isEqualTo(101);
			assertThat(order.remaining()).isEqualTo(85 + order.next().remaining());
			assertThat(order.configuredStep()).isEqualTo(100);
			assertThat(order.issuedCount()).isEqualTo(15);
			assertThat(order.lastFetchTime()).isNotNull();
			assertThat(order.lastFetchMillis()).isNotNull();
			assertThat(order.lastErrorCode()).isNull();
			KeyDescriptor invoice = endpoint.key(TestGenerators.INVOICE);
			assertThat(invoice.current()).isNull();
			assertThat(invoice.issuedCount()).isZero();
			assertThat(endpoint.key("unknown")).isNull();
		});
	}

	@Test
	void showsPeriodicKeysWithTheirCurrentPeriodAndEachPeriodAsASegmentKey() {
		this.contextRunner.withUserConfiguration(TestGenerators.Segments.class, Periodic.class).run((context) -> {
			PeriodicNumbers numbers = context.getBean(PeriodicNumbers.class);
			assertThat(numbers.next("receipt")).isEqualTo("R20261126-0001");
			IdWorkerEndpoint endpoint = context.getBean(IdWorkerEndpoint.class);
			SegmentsDescriptor descriptor = endpoint.idWorker().segment();
			assertThat(descriptor.keys()).containsKey("receipt:20261126");
			PeriodicDescriptor receipt = descriptor.periodic().get("receipt");
			assertThat(receipt.reset()).isEqualTo("DAILY");
			assertThat(receipt.format()).isEqualTo("R{yyyyMMdd}-{seq:4}");
			assertThat(receipt.zone()).isEqualTo("Z");
			assertThat(receipt.currentSegmentKey()).isEqualTo("receipt:20261126");
			assertThat(receipt.retention()).isEqualTo(Duration.ofDays(35));
			assertThat(endpoint.key("receipt:20261126").issuedCount()).isEqualTo(1);
		});
	}

	@Test
	void showsTheStoreErrorOfAKeyAsACodeAndATime() {
		this.contextRunner.withUserConfiguration(TestGenerators.Segments.class).run((context) -> {
			context.getBean(InMemorySegmentStore.class).setAvailable(false);
			try {
				context.getBean(SegmentIdGenerator.class).nextId(TestGenerators.INVOICE);
			}
			catch (RuntimeException ex) {
				// expected: the store is down
			}
			KeyDescriptor invoice = context.getBean(IdWorkerEndpoint.class).key(TestGenerators.INVOICE);
			assertThat(invoice.lastErrorCode()).isEqualTo("store-unavailable");
			assertThat(invoice.lastErrorTime()).isNotNull();
			assertThat(invoice.toString()).as("no store error text in the endpoint").doesNotContain("Exception");
			assertThat(invoice.remaining()).isZero();
		});
	}

	@Test
	void keySelectorWithoutSegmentGeneratorIsNull() {
		this.contextRunner.withUserConfiguration(TestGenerators.Snowflake.class).run((context) -> {
			IdWorkerEndpoint endpoint = context.getBean(IdWorkerEndpoint.class);
			assertThat(endpoint.key(TestGenerators.ORDER)).isNull();
			assertThat(endpoint.idWorker().segment()).isNull();
		});
	}

	@Test
	void descriptorIsWrittenAsJson() {
		this.contextRunner.withUserConfiguration(TestGenerators.LeasedSnowflake.class, TestGenerators.Segments.class)
			.run((context) -> {
				context.getBean(SegmentIdGenerator.class).nextId(TestGenerators.ORDER);
				JsonNode json = JsonMapper.builder()
					.build()
					.valueToTree(context.getBean(IdWorkerEndpoint.class).idWorker());
				assertThat(json.get("modes").get(0).asString()).isEqualTo("SNOWFLAKE");
				assertThat(json.get("snowflake").get("lease").get("state").asString()).isEqualTo("ACTIVE");
				assertThat(json.get("snowflake").get("lease").get("issuingUntil").isString()).isTrue();
				JsonNode order = json.get("segment").get("keys").get(TestGenerators.ORDER);
				assertThat(order.get("current").get("nextValue").asLong()).isEqualTo(2);
				assertThat(order.get("issuedCount").asLong()).isEqualTo(1);
			});
	}

	@Configuration(proxyBeanMethods = false)
	static class Periodic {

		@Bean
		PeriodicNumbers periodicNumbers(SegmentIdGenerator segments, InMemorySegmentStore store) {
			return new PeriodicNumbers(segments, store,
					List.of(PeriodicKey.of("receipt", ResetPeriod.DAILY, "R{yyyyMMdd}-{seq:4}")), ZoneOffset.UTC,
					new ManualTimeSource(Instant.parse("2026-11-26T10:00:00Z")));
		}

	}

}
