package io.idstarter.actuate;

import java.time.Duration;
import java.util.Map;

import io.idstarter.IdWorker;
import io.idstarter.actuate.endpoint.IdWorkerEndpoint;
import io.idstarter.actuate.health.IdWorkerHealthIndicator;
import io.idstarter.autoconfigure.EnableIdWorker;
import io.idstarter.autoconfigure.IdWorkerMode;
import io.idstarter.autoconfigure.SegmentIds;
import io.idstarter.autoconfigure.endpoint.IdWorkerEndpointAutoConfiguration;
import io.idstarter.autoconfigure.health.IdWorkerHealthContributorAutoConfiguration;
import io.idstarter.autoconfigure.metrics.IdWorkerMetricsAutoConfiguration;
import io.idstarter.hibernate.entities.Invoice;
import io.idstarter.hibernate.entities.Order;
import io.idstarter.lease.ISequenceManager;
import io.idstarter.lease.InMemoryLeaseStore;
import io.idstarter.lease.WorkerLeaseKeeper;
import io.idstarter.metrics.IdWorkerMetrics;
import io.micrometer.core.instrument.MeterRegistry;
import io.idstarter.segment.InMemorySegmentStore;
import io.idstarter.segment.SegmentIdGenerator;
import io.idstarter.segment.SegmentStore;
import io.idstarter.store.jdbc.JdbcSegmentStore;
import io.idstarter.snowflake.SnowflakeIdGenerator;
import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;
import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.health.actuate.endpoint.HealthDescriptor;
import org.springframework.boot.health.actuate.endpoint.HealthEndpoint;
import org.springframework.boot.health.autoconfigure.contributor.HealthContributorAutoConfiguration;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.hibernate.autoconfigure.HibernateJpaAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.persistence.autoconfigure.EntityScan;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The observability and entity-ID integrations on the generators that {@code @EnableIdWorker} wires, with in-memory
 * stores.
 */
class EnableIdWorkerObservabilityTests {

	private final InMemoryLeaseStore sequenceManager = new InMemoryLeaseStore();

	private final InMemorySegmentStore segmentStore = new InMemorySegmentStore();

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withUserConfiguration(BothModes.class)
		.withBean(ISequenceManager.class, () -> this.sequenceManager)
		.withBean(SegmentStore.class, () -> this.segmentStore)
		.withPropertyValues("management.endpoints.web.exposure.include=idworker", "id-worker.lease.namespace=obs",
				"id-worker.segment.default-key=order");

	EnableIdWorkerObservabilityTests() {
		this.segmentStore.createKey("order", 1, 100, "orders");
		this.segmentStore.createKey("invoice", 1, 100, "invoices");
	}

	@Test
	void metricsListenerSeesEventsFromTheStartOfTheWiredGenerators() {
		this.contextRunner.run((context) -> {
			MeterRegistry registry = context.getBean(MeterRegistry.class);
			assertThat(registry.get(IdWorkerMetrics.STORE_CALLS)
				.tags("namespace", "obs", "operation", "borrow", "outcome", "success")
				.timer()
				.count()).isOne();
			context.getBean(SnowflakeIdGenerator.class).nextId();
			context.getBean(SnowflakeIdGenerator.class).nextId();
			context.getBean(SegmentIdGenerator.class).nextId("order");
			assertThat(registry.get(IdWorkerMetrics.SNOWFLAKE_ISSUED).functionCounter().count()).isEqualTo(2);
			assertThat(registry.get(IdWorkerMetrics.SEGMENT_ISSUED).tag("key", "order").functionCounter().count())
				.isEqualTo(1);
			assertThat(registry.get(IdWorkerMetrics.LEASE_REMAINING).gauge().value()).isPositive();
		});
	}

	@Test
	void healthAndEndpointReportTheWiredGenerators() {
		this.contextRunner.run((context) -> {
			Health health = context.getBean(IdWorkerHealthIndicator.class).health();
			assertThat(health.getStatus()).isEqualTo(Status.UP);
			assertThat(health.getDetails()).containsKeys("snowflake", "segment");
			IdWorkerEndpoint.IdWorkerDescriptor descriptor = context.getBean(IdWorkerEndpoint.class).idWorker();
			assertThat(descriptor.modes()).containsExactly("SEGMENT", "DB");
			assertThat(descriptor.snowflake().lease().state()).isEqualTo("ACTIVE");
			assertThat(descriptor.snowflake().workerId())
				.isEqualTo(context.getBean(WorkerLeaseKeeper.class).status().workerId());
			assertThat(descriptor.segment().keys()).containsOnlyKeys("invoice", "order");
		});
	}

	@Test
	void entitiesGetIdsFromTheWiredGenerators() {
		this.contextRunner
			.withConfiguration(
					AutoConfigurations.of(DataSourceAutoConfiguration.class, HibernateJpaAutoConfiguration.class))
			.withUserConfiguration(Entities.class)
			.withPropertyValues("spring.jpa.hibernate.ddl-auto=create-drop")
			.run((context) -> {
				EntityManagerFactory factory = context.getBean(EntityManagerFactory.class);
				EntityManager manager = factory.createEntityManager();
				manager.getTransaction().begin();
				Order order = new Order("book");
				Invoice invoice = new Invoice("ann");
				manager.persist(order);
				manager.persist(invoice);
				manager.getTransaction().commit();
				manager.close();
				SnowflakeIdGenerator snowflake = context.getBean(SnowflakeIdGenerator.class);
				assertThat(snowflake.parse(order.getId()).workerId()).isEqualTo(snowflake.workerId().getAsInt());
				assertThat(invoice.getId()).isEqualTo(1);
				assertThat(context.getBean(SegmentIds.BEAN_NAME, IdWorker.class)).isInstanceOf(SegmentIdGenerator.class);
			});
	}

	@Test
	void wholeApplicationWithEveryAutoConfigurationReportsOnTheGenerators() {
		SpringApplication application = new SpringApplication(WholeApplication.class);
		application.setWebApplicationType(WebApplicationType.NONE);
		application.setDefaultProperties(Map.of("spring.datasource.generate-unique-name", "true",
				"spring.main.banner-mode", "off", "management.endpoints.web.exposure.include", "health,idworker",
				"management.endpoint.health.show-details", "always"));
		try (ConfigurableApplicationContext context = application.run()) {
			context.getBean(JdbcSegmentStore.class).createKey("order", 1, 10, "orders");
			SegmentIdGenerator segments = context.getBean(SegmentIdGenerator.class);
			// The generator looks a key it does not know up in the store at most once a second.
			await().atMost(Duration.ofSeconds(5)).ignoreExceptions().until(() -> segments.nextId("order") == 1);
			HealthDescriptor health = context.getBean(HealthEndpoint.class).healthForPath("idWorker");
			assertThat(health).isNotNull();
			assertThat(health.getStatus()).isEqualTo(Status.UP);
			assertThat(context.getBean(IdWorkerEndpoint.class).idWorker().modes()).containsExactly("SEGMENT", "DB");
			MeterRegistry registry = context.getBean(MeterRegistry.class);
			assertThat(registry.get(IdWorkerMetrics.STORE_CALLS).tag("operation", "borrow").timer().count()).isOne();
			assertThat(registry.get(IdWorkerMetrics.SEGMENT_ISSUED).tag("key", "order").functionCounter().count())
				.isOne();
		}
	}

	/**
	 * A Spring Boot application with every auto-configuration on the test class path, the generators' stores in the
	 * embedded database.
	 */
	@Configuration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	@EnableIdWorker(mode = { IdWorkerMode.SEGMENT, IdWorkerMode.DB })
	static class WholeApplication {

	}

	/**
	 * An application: its auto-configurations are sorted together with the configurations {@code @EnableIdWorker}
	 * selects, as {@code @SpringBootApplication} would sort them.
	 */
	@Configuration(proxyBeanMethods = false)
	@EnableIdWorker(mode = { IdWorkerMode.SEGMENT, IdWorkerMode.DB })
	@ImportAutoConfiguration({ MetricsAutoConfiguration.class, SimpleMetricsExportAutoConfiguration.class,
			HealthContributorAutoConfiguration.class, IdWorkerMetricsAutoConfiguration.class,
			IdWorkerHealthContributorAutoConfiguration.class, IdWorkerEndpointAutoConfiguration.class })
	static class BothModes {

	}

	@Configuration(proxyBeanMethods = false)
	@EntityScan(basePackageClasses = Order.class)
	static class Entities {

	}

}
