package io.idstarter.hibernate;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.IntFunction;
import java.util.stream.LongStream;

import io.idstarter.IdWorkerListener;
import io.idstarter.autoconfigure.IdWorkerMode;
import io.idstarter.autoconfigure.SegmentKeysCheck;
import io.idstarter.hibernate.entities.Invoice;
import io.idstarter.hibernate.entities.Order;
import io.idstarter.hibernate.entities.Ticket;
import io.idstarter.hibernate.mistyped.Counter;
import io.idstarter.segment.InMemorySegmentStore;
import io.idstarter.segment.SegmentIdGenerator;
import io.idstarter.segment.SegmentOptions;
import io.idstarter.snowflake.ClockBackwardsPolicy;
import io.idstarter.snowflake.SnowflakeIdGenerator;
import io.idstarter.snowflake.SnowflakeLayout;
import io.idstarter.snowflake.WorkerGrant;
import io.idstarter.time.TimeSource;
import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.hibernate.autoconfigure.HibernateJpaAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.persistence.autoconfigure.EntityScan;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * Tests for {@link SnowflakeGeneratedId} and {@link SegmentGeneratedId} on Hibernate with H2, bootstrapped by Spring
 * Boot's JPA auto-configuration.
 */
class IdWorkerIdentifierGeneratorTests {

	private static final int WORKER_ID = 7;

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(
				AutoConfigurations.of(DataSourceAutoConfiguration.class, HibernateJpaAutoConfiguration.class))
		.withPropertyValues("spring.jpa.hibernate.ddl-auto=create-drop");

	@Test
	void withoutASnowflakeGeneratorTheMessageNamesEverySnowflakeMode() {
		String[] snowflakeModes = Arrays.stream(IdWorkerMode.values())
			.filter(IdWorkerMode::isSnowflake)
			.map(Enum::name)
			.toArray(String[]::new);
		assertThat(new SnowflakeIdentifierGenerator().missingWorkerHint()).contains(snowflakeModes);
	}

	@Test
	void persistedEntitiesGetSnowflakeIdsFromTheGeneratorBean() {
		this.contextRunner.withUserConfiguration(Entities.class, Snowflake.class, Segments.class).run((context) -> {
			EntityManagerFactory factory = context.getBean(EntityManagerFactory.class);
			SnowflakeIdGenerator snowflake = context.getBean(SnowflakeIdGenerator.class);
			List<Order> orders = persist(factory, 300, (i) -> new Order("item-" + i));
			List<Long> ids = orders.stream().map(Order::getId).toList();
			assertThat(ids).doesNotHaveDuplicates().isSorted();
			assertThat(ids).allSatisfy((id) -> assertThat(snowflake.parse(id).workerId()).isEqualTo(WORKER_ID));
			assertThat(snowflake.issuedCount()).isEqualTo(300);
			assertThat(count(factory, Order.class)).isEqualTo(300);
		});
	}

	@Test
	void entitiesPersistedFromManyThreadsGetUniqueIds() {
		this.contextRunner.withUserConfiguration(Entities.class, Snowflake.class, Segments.class).run((context) -> {
			EntityManagerFactory factory = context.getBean(EntityManagerFactory.class);
			ExecutorService executor = Executors.newFixedThreadPool(4);
			try {
				List<Future<List<Long>>> futures = new ArrayList<>();
				for (int t = 0; t < 4; t++) {
					futures.add(executor.submit(() -> {
						List<Long> ids = new ArrayList<>();
						ids.addAll(persist(factory, 100, (i) -> new Order("o")).stream().map(Order::getId).toList());
						ids.addAll(persist(factory, 100, (i) -> new Invoice("c")).stream().map(Invoice::getId).toList());
						return ids;
					}));
				}
				List<Long> all = new ArrayList<>();
				for (Future<List<Long>> future : futures) {
					all.addAll(future.get());
				}
				assertThat(all).hasSize(800).doesNotHaveDuplicates().allSatisfy((id) -> assertThat(id).isPositive());
			}
			finally {
				executor.shutdownNow();
			}
			assertThat(count(factory, Order.class)).isEqualTo(400);
			assertThat(count(factory, Invoice.class)).isEqualTo(400);
		});
	}

	@Test
	void persistedEntitiesGetTheNextNumbersOfTheirSegmentKey() {
		this.contextRunner.withUserConfiguration(Entities.class, Snowflake.class, Segments.class).run((context) -> {
			EntityManagerFactory factory = context.getBean(EntityManagerFactory.class);
			List<Long> ids = persist(factory, 120, (i) -> new Invoice("c" + i)).stream().map(Invoice::getId).toList();
			assertThat(ids).containsExactlyElementsOf(LongStream.rangeClosed(1, 120).boxed().toList());
			assertThat(context.getBean(SegmentIdGenerator.class).view("invoice").orElseThrow().issuedCount())
				.isEqualTo(120);
		});
	}

	@Test
	void stringIdentifiersGetTheIdInDecimal() {
		this.contextRunner.withUserConfiguration(Entities.class, Snowflake.class, Segments.class).run((context) -> {
			EntityManagerFactory factory = context.getBean(EntityManagerFactory.class);
			Ticket ticket = persist(factory, 1, (i) -> Ticket.create()).get(0);
			long id = Long.parseLong(ticket.getId());
			assertThat(context.getBean(SnowflakeIdGenerator.class).parse(id).workerId()).isEqualTo(WORKER_ID);
		});
	}

	@Test
	void identifierSetByTheApplicationIsKept() {
		this.contextRunner.withUserConfiguration(Entities.class, Snowflake.class, Segments.class).run((context) -> {
			EntityManagerFactory factory = context.getBean(EntityManagerFactory.class);
			Order order = persist(factory, 1, (i) -> {
				Order imported = new Order("imported");
				imported.setId(42L);
				return imported;
			}).get(0);
			assertThat(order.getId()).isEqualTo(42L);
			assertThat(context.getBean(SnowflakeIdGenerator.class).issuedCount()).isZero();
			EntityManager manager = factory.createEntityManager();
			assertThat(manager.find(Order.class, 42L).getItem()).isEqualTo("imported");
			manager.close();
		});
	}

	@Test
	void missingGeneratorBeanFailsTheStartWithAHint() {
		this.contextRunner.withUserConfiguration(Entities.class, Snowflake.class)
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.hasMessage("@SegmentGeneratedId on io.idstarter.hibernate.entities.Invoice.id needs a "
						+ "SegmentIdGenerator bean, and the application defines none: enable segment mode "
						+ "(@EnableIdWorker(mode = SEGMENT))"));
	}

	@Test
	void segmentKeyMissingFromTheStoreFailsTheStart() {
		this.contextRunner.withUserConfiguration(Entities.class, Snowflake.class, SegmentsWithoutKeys.class)
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.hasMessageContaining("The segment key 'invoice' of io.idstarter.hibernate.entities.Invoice.id is "
						+ "not in the segment store (it has [])")
				.hasMessageContaining("SegmentKeyAdmin.createKey"));
	}

	@Test
	void identifierTooSmallForAnIdFailsTheStart() {
		this.contextRunner.withUserConfiguration(MistypedEntities.class, Snowflake.class)
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.hasMessageContaining("@SnowflakeGeneratedId on io.idstarter.hibernate.mistyped.Counter.id needs a "
						+ "long, Long or String identifier, found java.lang.Integer"));
	}

	private static <T> List<T> persist(EntityManagerFactory factory, int count, IntFunction<T> entities) {
		EntityManager manager = factory.createEntityManager();
		try {
			manager.getTransaction().begin();
			List<T> persisted = new ArrayList<>(count);
			for (int i = 0; i < count; i++) {
				T entity = entities.apply(i);
				manager.persist(entity);
				persisted.add(entity);
			}
			manager.getTransaction().commit();
			return persisted;
		}
		finally {
			if (manager.getTransaction().isActive()) {
				manager.getTransaction().rollback();
			}
			manager.close();
		}
	}

	private static long count(EntityManagerFactory factory, Class<?> type) {
		EntityManager manager = factory.createEntityManager();
		try {
			return manager.createQuery("select count(e) from " + type.getSimpleName() + " e", Long.class)
				.getSingleResult();
		}
		finally {
			manager.close();
		}
	}

	@Configuration(proxyBeanMethods = false)
	@EntityScan(basePackageClasses = Order.class)
	static class Entities {

	}

	@Configuration(proxyBeanMethods = false)
	@EntityScan(basePackageClasses = Counter.class)
	static class MistypedEntities {

	}

	@Configuration(proxyBeanMethods = false)
	static class Snowflake {

		@Bean
		SnowflakeIdGenerator snowflakeIdGenerator() {
			SnowflakeIdGenerator generator = new SnowflakeIdGenerator(SnowflakeLayout.defaults(), TimeSource.system(),
					ClockBackwardsPolicy.defaults(), IdWorkerListener.NONE);
			generator.grant(WorkerGrant.fixed(WORKER_ID));
			return generator;
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class SegmentsWithoutKeys {

		@Bean(initMethod = "start")
		SegmentIdGenerator segmentIdGenerator() {
			return new SegmentIdGenerator(new InMemorySegmentStore(), SegmentOptions.defaults());
		}

		@Bean
		SegmentKeysCheck segmentKeysCheck(ObjectProvider<SegmentIdGenerator> segments) {
			return new SegmentKeysCheck(segments);
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class Segments {

		@Bean
		InMemorySegmentStore segmentStore() {
			InMemorySegmentStore store = new InMemorySegmentStore();
			store.createKey("invoice", 1, 50, "invoices");
			return store;
		}

		@Bean(initMethod = "start")
		SegmentIdGenerator segmentIdGenerator(InMemorySegmentStore store) {
			return new SegmentIdGenerator(store, SegmentOptions.defaults());
		}

	}

}
