package io.idstarter.autoconfigure;

import io.idstarter.IdWorker;
import io.idstarter.lease.ISequenceManager;
import io.idstarter.lease.InMemoryLeaseStore;
import io.idstarter.segment.InMemorySegmentStore;
import io.idstarter.segment.SegmentIdGenerator;
import io.idstarter.segment.SegmentStore;
import io.idstarter.snowflake.SnowflakeIdGenerator;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Primary;

import static org.assertj.core.api.Assertions.assertThat;

class EnableIdWorkerTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withBean(ISequenceManager.class, InMemoryLeaseStore::new)
		.withBean(SegmentStore.class, EnableIdWorkerTests::segmentStore);

	@Test
	void withoutTheAnnotationNoGeneratorIsCreated() {
		this.contextRunner.withConfiguration(AutoConfigurations.of(IdWorkerAutoConfiguration.class))
			.run((context) -> assertThat(context).hasNotFailed()
				.hasSingleBean(IdWorkerProperties.class)
				.doesNotHaveBean(IdWorker.class)
				.doesNotHaveBean(IdWorkerModes.class));
	}

	@Test
	void firstModeIsPrimaryAndTheOtherIsQualified() {
		this.contextRunner.withUserConfiguration(SegmentThenDb.class, Consumer.class).run((context) -> {
			assertThat(context).hasSingleBean(SegmentIdGenerator.class).hasSingleBean(SnowflakeIdGenerator.class);
			assertThat(context.getBean(IdWorker.class)).isInstanceOf(SegmentIdGenerator.class);
			Consumer consumer = context.getBean(Consumer.class);
			assertThat(consumer.primary).isSameAs(context.getBean(SegmentIdGenerator.class));
			assertThat(consumer.segments).isSameAs(context.getBean(SegmentIdGenerator.class));
			assertThat(consumer.snowflake).isSameAs(context.getBean(SnowflakeIdGenerator.class));
			assertThat(consumer.byName).isSameAs(context.getBean(SnowflakeIdGenerator.class));
			assertThat(context.getBean(IdWorkerModes.class).modes()).containsExactly(IdWorkerMode.SEGMENT,
					IdWorkerMode.DB);
		});
	}

	@Test
	void theAnnotatedClassMayDeclareBeansLikeAnyMainClass() {
		this.contextRunner.withUserConfiguration(SegmentWithBeans.class).run((context) -> {
			assertThat(context).hasNotFailed().hasSingleBean(SegmentIdGenerator.class).hasBean("greeting");
			assertThat(context.getBean(IdWorker.class).nextId("orders")).isEqualTo(1);
		});
	}

	@Test
	void orderOfTheModesDecidesThePrimary() {
		this.contextRunner.withUserConfiguration(DbThenSegment.class, Consumer.class).run((context) -> {
			assertThat(context.getBean(IdWorker.class)).isInstanceOf(SnowflakeIdGenerator.class);
			Consumer consumer = context.getBean(Consumer.class);
			assertThat(consumer.segments).isSameAs(context.getBean(SegmentIdGenerator.class));
			assertThat(consumer.snowflake).isSameAs(context.getBean(SnowflakeIdGenerator.class));
		});
	}

	@Test
	void applicationPrimaryIdWorkerIsLeftPrimary() {
		this.contextRunner.withUserConfiguration(SegmentThenDb.class, OwnPrimary.class)
			.run((context) -> assertThat(context.getBean(IdWorker.class))
				.isSameAs(context.getBean("ownIdWorker")));
	}

	@Test
	void twoSnowflakeModesAreRejected() {
		this.contextRunner.withUserConfiguration(DbAndRedis.class)
			.run((context) -> assertThat(SnowflakeIdWorkerConfigurationTests.rootCause(context.getStartupFailure()))
				.isInstanceOf(IllegalStateException.class)
				.hasMessageContaining("names 2 Snowflake modes [DB, REDIS]")
				.hasMessageContaining("keep one of them"));
	}

	@Test
	void noModeIsRejected() {
		this.contextRunner.withUserConfiguration(NoMode.class)
			.run((context) -> assertThat(SnowflakeIdWorkerConfigurationTests.rootCause(context.getStartupFailure()))
				.hasMessageContaining(
						"names no mode: set mode = SEGMENT, DB, REDIS, MONGO, ZOOKEEPER, ETCD, KUBERNETES or HTTP"));
	}

	@Test
	void annotationOnTwoClassesIsRejected() {
		this.contextRunner.withUserConfiguration(SegmentThenDb.class, DbThenSegment.class)
			.run((context) -> assertThat(SnowflakeIdWorkerConfigurationTests.rootCause(context.getStartupFailure()))
				.hasMessageContaining("@EnableIdWorker is on more than one class")
				.hasMessageContaining(SegmentThenDb.class.getName())
				.hasMessageContaining(DbThenSegment.class.getName()));
	}

	private static InMemorySegmentStore segmentStore() {
		InMemorySegmentStore store = new InMemorySegmentStore();
		store.createKey("orders", 1, 100, "orders");
		return store;
	}

	@Configuration(proxyBeanMethods = false)
	@EnableIdWorker(mode = { IdWorkerMode.SEGMENT, IdWorkerMode.DB })
	static class SegmentThenDb {

	}

	@Configuration(proxyBeanMethods = false)
	@EnableIdWorker(mode = IdWorkerMode.SEGMENT)
	static class SegmentWithBeans {

		@Bean
		String greeting() {
			return "hello";
		}

		@Bean
		Integer answer() {
			return 42;
		}

	}

	@Configuration(proxyBeanMethods = false)
	@EnableIdWorker(mode = { IdWorkerMode.DB, IdWorkerMode.SEGMENT })
	static class DbThenSegment {

	}

	@Configuration(proxyBeanMethods = false)
	@EnableIdWorker(mode = { IdWorkerMode.DB, IdWorkerMode.REDIS })
	static class DbAndRedis {

	}

	@Configuration(proxyBeanMethods = false)
	@EnableIdWorker(mode = {})
	static class NoMode {

	}

	@Configuration(proxyBeanMethods = false)
	static class OwnPrimary {

		@Bean
		@Primary
		io.idstarter.codec.ObfuscatedIdWorker ownIdWorker(@SnowflakeIds IdWorker snowflake) {
			return new io.idstarter.codec.ObfuscatedIdWorker(snowflake,
					io.idstarter.codec.IdPermutation.of("a test secret of enough length"));
		}

	}

	static class Consumer {

		final IdWorker primary;

		final IdWorker segments;

		final IdWorker snowflake;

		final IdWorker byName;

		Consumer(IdWorker primary, @SegmentIds IdWorker segments, @SnowflakeIds IdWorker snowflake,
				@Qualifier("snowflakeIdWorker") IdWorker byName) {
			this.primary = primary;
			this.segments = segments;
			this.snowflake = snowflake;
			this.byName = byName;
		}

	}

}
