package io.idstarter.autoconfigure.jdbc;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

import javax.sql.DataSource;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.LongStream;

import io.idstarter.IdWorker;
import io.idstarter.autoconfigure.jdbc.sequenceentities.Receipt;
import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;
import io.idstarter.autoconfigure.EnableIdWorker;
import io.idstarter.autoconfigure.IdWorkerMode;
import io.idstarter.segment.SegmentAllocation;
import io.idstarter.store.jdbc.JdbcSegmentStore;
import io.idstarter.store.jdbc.JdbcSequenceSegmentStore;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.hibernate.autoconfigure.HibernateJpaAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.persistence.autoconfigure.EntityScan;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

class SequenceSegmentStoreConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withUserConfiguration(SegmentMode.class)
		.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class))
		.withPropertyValues("spring.datasource.generate-unique-name=true", "id-worker.segment.store=sequence");

	@Test
	void segmentStoreSequenceServesDeclaredKeysFromSequencesItCreates() {
		this.contextRunner
			.withPropertyValues("id-worker.segment.keys.orders.first-id=1000", "id-worker.segment.keys.orders.step=50")
			.run((context) -> {
				assertThat(context).hasSingleBean(JdbcSequenceSegmentStore.class).doesNotHaveBean(JdbcSegmentStore.class);
				assertThat(context.getBean(IdWorker.class).nextId("orders")).isEqualTo(1000);
				assertThat(incrementOf(context.getBean(DataSource.class), "ID_SEQ_ORDERS")).isEqualTo(50);
			});
	}

	@Test
	void prefixAndMappedSequencesReachTheStore() throws Exception {
		this.contextRunner
			.withPropertyValues("id-worker.sequence.prefix=app_", "id-worker.sequence.sequences.order=orders_seq")
			.run((context) -> {
				DataSource dataSource = context.getBean(DataSource.class);
				try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
					statement.execute("CREATE SEQUENCE orders_seq START WITH 1 INCREMENT BY 20");
				}
				JdbcSequenceSegmentStore store = context.getBean(JdbcSequenceSegmentStore.class);
				assertThat(store.sequenceName("invoice")).isEqualTo("app_invoice");
				assertThat(store.sequenceName("order")).isEqualTo("orders_seq");
				assertThat(store.allocate("order")).isEqualTo(new SegmentAllocation("order", 1, 2, 20));
			});
	}

	@Test
	void jpaEntitiesGetTheirIdsFromTheKeysSequence() {
		this.contextRunner.withConfiguration(AutoConfigurations.of(HibernateJpaAutoConfiguration.class))
			.withUserConfiguration(Entities.class)
			.withPropertyValues("spring.jpa.hibernate.ddl-auto=create-drop", "id-worker.segment.keys.receipt.first-id=1",
					"id-worker.segment.keys.receipt.step=50")
			.run((context) -> {
				EntityManagerFactory factory = context.getBean(EntityManagerFactory.class);
				List<Long> ids = new ArrayList<>();
				EntityManager manager = factory.createEntityManager();
				try {
					manager.getTransaction().begin();
					for (int i = 0; i < 120; i++) {
						Receipt receipt = new Receipt();
						manager.persist(receipt);
						ids.add(receipt.getId());
					}
					manager.getTransaction().commit();
				}
				finally {
					manager.close();
				}
				assertThat(ids).containsExactlyElementsOf(LongStream.rangeClosed(1, 120).boxed().toList());
				assertThat(incrementOf(context.getBean(DataSource.class), "ID_SEQ_RECEIPT")).isEqualTo(50);
			});
	}

	private static long incrementOf(DataSource dataSource, String sequence) throws SQLException {
		try (Connection connection = dataSource.getConnection();
				Statement statement = connection.createStatement();
				ResultSet row = statement.executeQuery(
						"SELECT INCREMENT FROM INFORMATION_SCHEMA.SEQUENCES WHERE SEQUENCE_NAME = '" + sequence + "'")) {
			assertThat(row.next()).as(sequence).isTrue();
			return row.getLong(1);
		}
	}

	@Configuration(proxyBeanMethods = false)
	@EntityScan(basePackageClasses = Receipt.class)
	static class Entities {

	}

	@Configuration(proxyBeanMethods = false)
	@EnableIdWorker(mode = IdWorkerMode.SEGMENT)
	static class SegmentMode {

	}

}
