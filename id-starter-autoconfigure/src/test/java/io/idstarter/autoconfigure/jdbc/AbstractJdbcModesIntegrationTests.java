package io.idstarter.autoconfigure.jdbc;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;

import io.idstarter.IdWorker;
import io.idstarter.autoconfigure.EnableIdWorker;
import io.idstarter.autoconfigure.IdWorkerMode;
import io.idstarter.lease.WorkerLeaseKeeper;
import io.idstarter.store.jdbc.JdbcSegmentStore;
import io.idstarter.store.jdbc.JdbcLeaseStore;
import io.idstarter.testsupport.TestBackends.JdbcBackend;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * SEGMENT and DB modes on a real database, each test on tables of its own (the server is shared).
 */
abstract class AbstractJdbcModesIntegrationTests {

	private final JdbcBackend database;

	private final String suffix = UUID.randomUUID().toString().replace("-", "").substring(0, 12);

	private final String segmentTable = "it_leaf_alloc_" + this.suffix;

	private final String leaseTable = "it_worker_lease_" + this.suffix;

	private final ApplicationContextRunner contextRunner;

	AbstractJdbcModesIntegrationTests(JdbcBackend database) {
		this.database = database;
		ApplicationContextRunner runner = new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class))
			.withPropertyValues("spring.datasource.url=" + database.jdbcUrl(),
					"spring.datasource.hikari.maximum-pool-size=2", "id-worker.jdbc.initialize-schema=always",
					"id-worker.jdbc.segment-table=" + this.segmentTable,
					"id-worker.jdbc.lease-table=" + this.leaseTable,
					"id-worker.lease.namespace=it-" + this.suffix);
		if (database.username() != null) {
			runner = runner.withPropertyValues("spring.datasource.username=" + database.username(),
					"spring.datasource.password=" + database.password());
		}
		this.contextRunner = runner;
	}

	@Test
	void segmentModeHandsOutDisjointRangesToTwoInstances() {
		ApplicationContextRunner segments = this.contextRunner.withUserConfiguration(SegmentMode.class);
		// The key must exist when the generators start: they read the key list then.
		segments.run((setup) -> {
			assertThat(setup).hasNotFailed();
			assertThat(setup.getBean(JdbcSegmentStore.class).getTableName()).isEqualTo(this.segmentTable);
			setup.getBean(JdbcSegmentStore.class).createKey("orders", 1, 100, "integration test");
		});
		segments.run((first) -> segments.run((second) -> {
			IdWorker one = first.getBean(IdWorker.class);
			IdWorker two = second.getBean(IdWorker.class);
			assertThat(one.nextId("orders")).isEqualTo(1);
			assertThat(two.nextId("orders")).isEqualTo(101);
			assertThat(one.nextId("orders")).isEqualTo(2);
		}));
	}

	@Test
	void dbModeLeasesDifferentWorkerIdsAndGivesThemBack() throws SQLException {
		this.contextRunner.withUserConfiguration(DbMode.class).run((first) -> {
			assertThat(first).hasNotFailed();
			assertThat(first.getBean(JdbcLeaseStore.class).getTableName()).isEqualTo(this.leaseTable);
			int firstWorkerId = first.getBean(WorkerLeaseKeeper.class).status().workerId();
			this.contextRunner.withUserConfiguration(DbMode.class).run((second) -> {
				int secondWorkerId = second.getBean(WorkerLeaseKeeper.class).status().workerId();
				assertThat(secondWorkerId).isNotEqualTo(firstWorkerId);
				long id = second.getBean(IdWorker.class).nextId();
				assertThat(id).isNotEqualTo(first.getBean(IdWorker.class).nextId());
			});
			assertThat(heldSlots()).isEqualTo(1);
		});
		assertThat(heldSlots()).isZero();
	}

	@AfterEach
	void dropOwnTables() throws SQLException {
		try (Connection connection = connect(); Statement statement = connection.createStatement()) {
			statement.execute("DROP TABLE IF EXISTS " + this.segmentTable);
			statement.execute("DROP TABLE IF EXISTS " + this.leaseTable);
		}
	}

	private int heldSlots() throws SQLException {
		try (Connection connection = connect();
				PreparedStatement statement = connection.prepareStatement(
						"SELECT COUNT(*) FROM " + this.leaseTable + " WHERE owner_token IS NOT NULL");
				ResultSet result = statement.executeQuery()) {
			result.next();
			return result.getInt(1);
		}
	}

	private Connection connect() throws SQLException {
		return (this.database.username() != null)
				? DriverManager.getConnection(this.database.jdbcUrl(), this.database.username(),
						this.database.password())
				: DriverManager.getConnection(this.database.jdbcUrl());
	}

	@Configuration(proxyBeanMethods = false)
	@EnableIdWorker(mode = IdWorkerMode.SEGMENT)
	static class SegmentMode {

	}

	@Configuration(proxyBeanMethods = false)
	@EnableIdWorker(mode = IdWorkerMode.DB)
	static class DbMode {

	}

}
