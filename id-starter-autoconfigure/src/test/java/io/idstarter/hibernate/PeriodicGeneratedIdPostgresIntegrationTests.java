package io.idstarter.hibernate;

import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import java.util.UUID;

import javax.sql.DataSource;

import io.idstarter.hibernate.periodicpg.Invoice;
import io.idstarter.segment.PeriodicKey;
import io.idstarter.segment.PeriodicNumbers;
import io.idstarter.segment.ResetPeriod;
import io.idstarter.segment.SegmentIdGenerator;
import io.idstarter.segment.SegmentOptions;
import io.idstarter.store.jdbc.JdbcSchema;
import io.idstarter.store.jdbc.JdbcSegmentStore;
import io.idstarter.testsupport.TestBackends;
import io.idstarter.time.ManualTimeSource;
import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.hibernate.autoconfigure.HibernateJpaAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.persistence.autoconfigure.EntityScan;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link PeriodicGeneratedId} on Hibernate against the real PostgreSQL of {@code TestBackends.postgres()}: entities
 * inserted across midnight get numbers of their period, drawn from period keys in a segment table of this class's own.
 */
class PeriodicGeneratedIdPostgresIntegrationTests {

	private static final ZoneId ZONE = ZoneId.of("Asia/Shanghai");

	/** One millisecond before midnight between 26 and 27 November 2026 in {@link #ZONE}. */
	private static final ManualTimeSource CLOCK = new ManualTimeSource(Instant.parse("2026-11-26T15:59:59.999Z"));

	private static final String SUFFIX = UUID.randomUUID().toString().replace("-", "").substring(0, 12);

	private static final String SEGMENT_TABLE = "it_leaf_alloc_" + SUFFIX;

	private static final String LEASE_TABLE = "it_worker_lease_" + SUFFIX;

	@Test
	void entitiesInsertedAcrossMidnightGetNumbersOfTheirPeriod() {
		TestBackends.JdbcBackend database = TestBackends.postgres();
		ApplicationContextRunner runner = new ApplicationContextRunner()
			.withConfiguration(
					AutoConfigurations.of(DataSourceAutoConfiguration.class, HibernateJpaAutoConfiguration.class))
			.withPropertyValues("spring.datasource.url=" + database.jdbcUrl(),
					"spring.datasource.hikari.maximum-pool-size=2", "spring.jpa.hibernate.ddl-auto=create-drop")
			.withUserConfiguration(Invoices.class);
		if (database.username() != null) {
			runner = runner.withPropertyValues("spring.datasource.username=" + database.username(),
					"spring.datasource.password=" + database.password());
		}
		runner.run((context) -> {
			assertThat(context).hasNotFailed();
			JdbcTemplate jdbc = new JdbcTemplate(context.getBean(DataSource.class));
			try {
				EntityManagerFactory factory = context.getBean(EntityManagerFactory.class);
				Invoice first = persist(factory, new Invoice("ada"));
				Invoice second = persist(factory, new Invoice("grace"));
				CLOCK.advanceMillis(1);
				Invoice third = persist(factory, new Invoice("linus"));
				assertThat(List.of(first.getNumber(), second.getNumber(), third.getNumber()))
					.containsExactly("INV-20261126-0001", "INV-20261126-0002", "INV-20261127-0001");
				assertThat(jdbc.queryForList("SELECT number FROM it_periodic_invoice ORDER BY number", String.class))
					.containsExactly("INV-20261126-0001", "INV-20261126-0002", "INV-20261127-0001");
				assertThat(jdbc.queryForList("SELECT description FROM " + SEGMENT_TABLE + " ORDER BY biz_tag",
						String.class))
					.containsExactly("daily period 20261126 of periodic key invoice",
							"daily period 20261127 of periodic key invoice", "settings of periodic key invoice: "
									+ "reset daily, zone Asia/Shanghai, format INV-{yyyyMMdd}-{seq:4}");
			}
			finally {
				jdbc.execute("DROP TABLE IF EXISTS " + SEGMENT_TABLE);
				jdbc.execute("DROP TABLE IF EXISTS " + LEASE_TABLE);
			}
		});
	}

	private static Invoice persist(EntityManagerFactory factory, Invoice invoice) {
		EntityManager manager = factory.createEntityManager();
		try {
			manager.getTransaction().begin();
			manager.persist(invoice);
			manager.getTransaction().commit();
			return invoice;
		}
		finally {
			manager.close();
		}
	}

	@Configuration(proxyBeanMethods = false)
	@EntityScan(basePackageClasses = Invoice.class)
	static class Invoices {

		@Bean
		JdbcSegmentStore segmentStore(DataSource dataSource) {
			JdbcSchema.initialize(dataSource, SEGMENT_TABLE, LEASE_TABLE);
			return new JdbcSegmentStore(dataSource, SEGMENT_TABLE);
		}

		@Bean(initMethod = "start", destroyMethod = "close")
		SegmentIdGenerator segmentIdGenerator(JdbcSegmentStore store) {
			return new SegmentIdGenerator(store, SegmentOptions.defaults());
		}

		@Bean
		PeriodicNumbers periodicNumbers(SegmentIdGenerator generator, JdbcSegmentStore store) {
			return new PeriodicNumbers(generator, store,
					List.of(PeriodicKey.of("invoice", ResetPeriod.DAILY, "INV-{yyyyMMdd}-{seq:4}")), ZONE, CLOCK);
		}

	}

}
