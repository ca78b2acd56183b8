package io.idstarter.autoconfigure;

import io.idstarter.IdWorker;
import io.idstarter.lease.WorkerLeaseKeeper;
import io.idstarter.segment.SegmentIdGenerator;
import io.idstarter.snowflake.SnowflakeIdGenerator;
import io.idstarter.store.jdbc.JdbcSegmentStore;
import io.idstarter.store.jdbc.JdbcLeaseStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;

/**
 * Applications started with {@link SpringApplication}, as users start them, with {@code @EnableIdWorker} on the main
 * class. The auto-configurations come through {@code @ImportAutoConfiguration}, which shares the auto-configuration
 * group with {@code @EnableAutoConfiguration} and with the mode configurations: so this shows that the mode
 * configurations are sorted after Spring Boot's store auto-configurations, and what a failed start prints, without
 * starting JPA, MongoDB and Redis clients that these tests do not need.
 */
@ExtendWith(OutputCaptureExtension.class)
class IdWorkerApplicationTests {

	@Test
	void segmentAndSnowflakeIdsFromTheEmbeddedDatabase() {
		try (ConfigurableApplicationContext context = run(SegmentAndDbApplication.class)) {
			assertThat(context.getBean(JdbcSegmentStore.class).createKey("orders", 1, 10, "test")).isTrue();
			assertThat(context.getBean(IdWorker.class)).isInstanceOf(SegmentIdGenerator.class);
			assertThat(context.getBean(SnowflakeIds.BEAN_NAME, IdWorker.class).nextId()).isPositive();
			assertThat(context.getBean(JdbcLeaseStore.class)).isNotNull();
			assertThat(context.getBean(WorkerLeaseKeeper.class).status().workerId()).isZero();
			assertThat(context.getBean(SnowflakeIdGenerator.class).workerId()).hasValue(0);
		}
	}

	@Test
	void missingStoreIsExplained(CapturedOutput output) {
		assertThatException().isThrownBy(() -> run(MongoApplication.class));
		assertThat(output).contains("APPLICATION FAILED TO START")
			.contains("@EnableIdWorker(mode = MONGO) leases worker IDs from MongoDB, but the application has no "
					+ "org.springframework.data.mongodb.core.MongoOperations bean.")
			.contains("Set spring.mongodb.uri so that Spring Boot defines the MongoOperations bean");
	}

	@Test
	void invalidPropertyIsReportedWithItsOrigin(CapturedOutput output) {
		assertThatException().isThrownBy(() -> run(SegmentAndDbApplication.class,
				"--spring.config.location=classpath:idworker-invalid-heartbeat.yml"));
		assertThat(output).contains("Invalid value '20s' for configuration property 'id-worker.lease.heartbeat' "
				+ "(originating from 'class path resource [idworker-invalid-heartbeat.yml] - 4:16')")
			.contains("heartbeat (20s) + safetyMargin (5s) must be less than ttl (15s)");
	}

	private static ConfigurableApplicationContext run(Class<?> application, String... args) {
		SpringApplication springApplication = new SpringApplication(application);
		springApplication.setWebApplicationType(WebApplicationType.NONE);
		springApplication.setDefaultProperties(java.util.Map.of("spring.datasource.generate-unique-name", "true",
				"spring.main.banner-mode", "off"));
		return springApplication.run(args);
	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ DataSourceAutoConfiguration.class, IdWorkerAutoConfiguration.class })
	@EnableIdWorker(mode = { IdWorkerMode.SEGMENT, IdWorkerMode.DB })
	static class SegmentAndDbApplication {

	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration(IdWorkerAutoConfiguration.class)
	@EnableIdWorker(mode = IdWorkerMode.MONGO)
	static class MongoApplication {

	}

}
