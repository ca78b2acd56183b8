package io.idstarter.hibernate;

import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;

import io.idstarter.hibernate.periodic.Receipt;
import io.idstarter.segment.InMemorySegmentStore;
import io.idstarter.segment.PeriodicKey;
import io.idstarter.segment.PeriodicNumbers;
import io.idstarter.segment.ResetPeriod;
import io.idstarter.segment.SegmentIdGenerator;
import io.idstarter.segment.SegmentOptions;
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

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link PeriodicGeneratedId} on Hibernate with H2, bootstrapped by Spring Boot's JPA auto-configuration.
 */
class PeriodicGeneratedIdTests {

	private static final ManualTimeSource CLOCK = new ManualTimeSource(Instant.parse("2026-11-26T23:59:59.999Z"));

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(
				AutoConfigurations.of(DataSourceAutoConfiguration.class, HibernateJpaAutoConfiguration.class))
		.withPropertyValues("spring.jpa.hibernate.ddl-auto=create-drop")
		.withUserConfiguration(Receipts.class);

	@Test
	void persistedEntitiesGetFormattedNumbersOfTheirPeriodAndAssignedOnesAreKept() {
		this.contextRunner.run((context) -> {
			EntityManagerFactory factory = context.getBean(EntityManagerFactory.class);
			Receipt first = persist(factory, new Receipt("ada"));
			CLOCK.advanceMillis(1);
			Receipt second = persist(factory, new Receipt("grace"));
			Receipt assigned = persist(factory, new Receipt("R-MANUAL-1", "linus"));

			assertThat(List.of(first.getNumber(), second.getNumber(), assigned.getNumber()))
				.containsExactly("R20261126-0001", "R20261127-0001", "R-MANUAL-1");
			EntityManager manager = factory.createEntityManager();
			try {
				assertThat(manager.find(Receipt.class, "R20261127-0001")).isNotNull();
				assertThat(manager.createQuery("select count(r) from Receipt r", Long.class).getSingleResult())
					.isEqualTo(3);
			}
			finally {
				manager.close();
			}
		});
	}

	@Test
	void withoutAPeriodicNumbersBeanTheMappingFailsNamingTheAttribute() {
		new ApplicationContextRunner()
			.withConfiguration(
					AutoConfigurations.of(DataSourceAutoConfiguration.class, HibernateJpaAutoConfiguration.class))
			.withUserConfiguration(EntitiesOnly.class)
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.hasMessageContaining("Receipt.number")
				.hasMessageContaining("PeriodicNumbers"));
	}

	private static Receipt persist(EntityManagerFactory factory, Receipt receipt) {
		EntityManager manager = factory.createEntityManager();
		try {
			manager.getTransaction().begin();
			manager.persist(receipt);
			manager.getTransaction().commit();
			return receipt;
		}
		finally {
			manager.close();
		}
	}

	@Configuration(proxyBeanMethods = false)
	@EntityScan(basePackageClasses = Receipt.class)
	static class EntitiesOnly {

	}

	@Configuration(proxyBeanMethods = false)
	@EntityScan(basePackageClasses = Receipt.class)
	static class Receipts {

		@Bean
		InMemorySegmentStore segmentStore() {
			return new InMemorySegmentStore();
		}

		@Bean(initMethod = "start", destroyMethod = "close")
		SegmentIdGenerator segmentIdGenerator(InMemorySegmentStore store) {
			return new SegmentIdGenerator(store, SegmentOptions.defaults());
		}

		@Bean
		PeriodicNumbers periodicNumbers(SegmentIdGenerator generator, InMemorySegmentStore store) {
			return new PeriodicNumbers(generator, store,
					List.of(PeriodicKey.of("receipt", ResetPeriod.DAILY, "R{yyyyMMdd}-{seq:4}")), ZoneOffset.UTC,
					CLOCK);
		}

	}

}
