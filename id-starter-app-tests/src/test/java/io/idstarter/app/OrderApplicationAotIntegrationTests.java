package io.idstarter.app;

import java.util.HashSet;
import java.util.Set;
import java.util.UUID;

import io.idstarter.lease.WorkerLeaseKeeper;
import io.idstarter.store.jdbc.JdbcSchema;
import io.idstarter.store.jdbc.JdbcSegmentStore;
import io.idstarter.testsupport.TestBackends;
import io.idstarter.testsupport.TestBackends.JdbcBackend;
import io.idstarter.testsupport.TestBackends.RedisBackend;
import org.junit.jupiter.api.Test;

import org.springframework.aot.AotDetector;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import org.springframework.util.ClassUtils;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * {@link OrderApplication} as it runs ahead-of-time processed: the build ran {@code spring-boot:process-aot}, and
 * this test runs with {@code -Dspring.aot.enabled=true} (the failsafe execution {@code aot}), so the context is
 * built from the generated bean definitions, as in a native image, and no configuration class is parsed. It issues
 * segment IDs from PostgreSQL and Snowflake IDs under a worker ID leased from Redis.
 */
class OrderApplicationAotIntegrationTests {

	private final String suffix = UUID.randomUUID().toString().replace("-", "").substring(0, 12);

	@Test
	void processedApplicationIssuesSegmentAndSnowflakeIds() {
		// Run by the failsafe execution "aot"; an ordinary run (-Dit.test naming this class) cannot use the code.
		assumeTrue(AotDetector.useGeneratedArtifacts(), "runs with -Dspring.aot.enabled=true (failsafe execution aot)");
		assertThat(ClassUtils.isPresent(OrderApplication.class.getName() + "__ApplicationContextInitializer",
				getClass().getClassLoader()))
			.as("initializer written by process-aot")
			.isTrue();
		JdbcBackend postgres = TestBackends.postgres();
		RedisBackend redis = TestBackends.redis();
		String segmentTable = "aot_leaf_alloc_" + this.suffix;
		// The key exists before the application starts, as an operator would have created it.
		DriverManagerDataSource database = new DriverManagerDataSource(postgres.jdbcUrl(), orEmpty(postgres.username()),
				orEmpty(postgres.password()));
		JdbcSchema.initialize(database, segmentTable, "aot_worker_lease_" + this.suffix);
		new JdbcSegmentStore(database, segmentTable).createKey("order", 1, 1000, "AOT test");
		String[] args = { "--spring.datasource.url=" + postgres.jdbcUrl(),
				"--spring.datasource.username=" + orEmpty(postgres.username()),
				"--spring.datasource.password=" + orEmpty(postgres.password()),
				"--spring.datasource.hikari.maximum-pool-size=2", "--id-worker.jdbc.initialize-schema=always",
				"--id-worker.jdbc.segment-table=" + segmentTable,
				"--id-worker.jdbc.lease-table=aot_worker_lease_" + this.suffix,
				"--spring.data.redis.host=" + redis.host(), "--spring.data.redis.port=" + redis.port(),
				"--id-worker.redis.key-prefix=aot-" + this.suffix + ":", "--id-worker.lease.namespace=aot" };
		SpringApplication application = new SpringApplication(OrderApplication.class);
		// The generated initializer is looked up by the main class, which is not on this test's stack.
		application.setMainApplicationClass(OrderApplication.class);
		// Processed without a web server (the web libraries are this module's test dependencies only).
		application.setWebApplicationType(WebApplicationType.NONE);
		try (ConfigurableApplicationContext context = application.run(args)) {
			OrderService orders = context.getBean(OrderService.class);
			Set<Long> ids = new HashSet<>();
			for (int i = 0; i < 5000; i++) {
				assertThat(ids.add(orders.newOrderId())).isTrue();
				assertThat(ids.add(orders.newEventId())).isTrue();
			}
			assertThat(orders.newOrderId()).isEqualTo(5001);
			assertThat(context.getBean(WorkerLeaseKeeper.class).status().workerId()).isNotNegative();
			System.out.printf("AOT application: %d IDs (5,000 segment, 5,000 Snowflake), 0 duplicates%n",
					ids.size());
		}
		finally {
			JdbcTemplate jdbc = new JdbcTemplate(database);
			jdbc.execute("DROP TABLE IF EXISTS " + segmentTable);
			jdbc.execute("DROP TABLE IF EXISTS aot_worker_lease_" + this.suffix);
		}
	}

	private static String orEmpty(String value) {
		return (value != null) ? value : "";
	}

}
