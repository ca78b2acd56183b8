package io.idstarter.autoconfigure.jdbc;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import cn.hutool.core.lang.Snowflake;
import com.baomidou.mybatisplus.core.incrementer.DefaultIdentifierGenerator;
import io.idstarter.IdWorker;
import io.idstarter.autoconfigure.EnableIdWorker;
import io.idstarter.autoconfigure.IdWorkerMode;
import io.idstarter.lease.WorkerLeaseKeeper;
import io.idstarter.snowflake.SnowflakePresets;
import io.idstarter.snowflake.TakeoverRefusedException;
import io.idstarter.testsupport.TestBackends.JdbcBackend;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Switching a fleet of MyBatis-Plus and Hutool Snowflake generators to DB mode on a real database: tables filled by
 * the real generators, then id-worker.snowflake.takeover at start.
 */
abstract class AbstractSnowflakeTakeoverIntegrationTests {

	private final JdbcBackend database;

	private final String suffix = UUID.randomUUID().toString().replace("-", "").substring(0, 12);

	private final String orders = "it_orders_" + this.suffix;

	private final String payments = "it_payments_" + this.suffix;

	private final String leaseTable = "it_worker_lease_" + this.suffix;

	private final ApplicationContextRunner contextRunner;

	AbstractSnowflakeTakeoverIntegrationTests(JdbcBackend database) {
		this.database = database;
		ApplicationContextRunner runner = new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class))
			.withUserConfiguration(DbMode.class)
			.withPropertyValues("spring.datasource.url=" + database.jdbcUrl(),
					"spring.datasource.hikari.maximum-pool-size=2", "id-worker.jdbc.initialize-schema=always",
					"id-worker.jdbc.lease-table=" + this.leaseTable, "id-worker.lease.namespace=it-" + this.suffix,
					"id-worker.lease.max-startup-wait=5s",
					"id-worker.snowflake.takeover.columns=" + this.orders + ".id," + this.payments + ".id");
		if (database.username() != null) {
			runner = runner.withPropertyValues("spring.datasource.username=" + database.username(),
					"spring.datasource.password=" + database.password());
		}
		this.contextRunner = runner;
	}

	@BeforeEach
	void createTables() throws SQLException {
		try (Connection connection = connect(); Statement statement = connection.createStatement()) {
			statement.execute("CREATE TABLE " + this.orders + " (id BIGINT PRIMARY KEY, item VARCHAR(20))");
			statement.execute("CREATE TABLE " + this.payments + " (id BIGINT PRIMARY KEY, item VARCHAR(20))");
		}
	}

	@AfterEach
	void dropTables() throws SQLException {
		try (Connection connection = connect(); Statement statement = connection.createStatement()) {
			for (String table : List.of(this.orders, this.payments, this.leaseTable)) {
				statement.execute("DROP TABLE IF EXISTS " + table);
			}
		}
	}

	@Test
	void theDefaultLayoutUnderAMyBatisPlusAndHutoolFleetIsRefusedWithAReport() throws SQLException {
		long max = fillWithTheOldFleet();
		this.contextRunner.run((context) -> {
			assertThat(context).hasFailed();
			Throwable failure = context.getStartupFailure();
			assertThat(failure).rootCause().isInstanceOf(TakeoverRefusedException.class);
			TakeoverRefusedException refused = (TakeoverRefusedException) rootCause(failure);
			assertThat(refused.getMaxId()).isEqualTo(max);
			assertThat(refused.getColumn()).isIn(this.orders + ".id", this.payments + ".id");
			assertThat(refused.getMessage()).contains(refused.getColumn(), "holds ID " + max,
					"dates " + refused.getMaxIdTime(), "use the old fleet's layout");
		});
		assertThat(count(this.leaseTable)).as("no worker ID was leased").isZero();
	}

	@Test
	void theTwitterPresetWithTheOldFleetsWorkerIdsExcludedStartsAboveTheTablesLargestId() throws SQLException {
		long max = fillWithTheOldFleet();
		this.contextRunner
			.withPropertyValues("id-worker.snowflake.preset=twitter", "id-worker.snowflake.takeover.preset=twitter",
					// MyBatis-Plus (datacenter 0, worker 1) and Hutool (datacenter 1, worker 2): 0*32+1 and 1*32+2
					"id-worker.lease.excluded-worker-ids=0-1,34")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				int workerId = context.getBean(WorkerLeaseKeeper.class).status().workerId();
				assertThat(workerId).isNotIn(0, 1, 34);
				long first = context.getBean(IdWorker.class).nextId();
				assertThat(first).isGreaterThan(max);
				assertThat(SnowflakePresets.twitter().parse(first).workerId()).isEqualTo(workerId);
			});
	}

	@Test
	void aColumnAheadByASmallGapIsWaitedForThenTheStartGoesOn() throws SQLException {
		fillWithTheOldFleet();
		Instant ahead = Instant.now().plusSeconds(2);
		long aheadId = SnowflakePresets.twitter().compose(ahead.toEpochMilli(), 7, 0);
		insert(this.payments, aheadId);
		this.contextRunner.withPropertyValues("id-worker.snowflake.preset=twitter").run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(Instant.now()).isAfter(ahead);
			assertThat(context.getBean(IdWorker.class).nextId()).isGreaterThan(aheadId);
		});
	}

	@Test
	void emptyTablesLetEvenTheDefaultLayoutStart() {
		this.contextRunner.run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(context.getBean(IdWorker.class).nextId()).isPositive();
		});
	}

	/**
	 * Fills the orders with MyBatis-Plus's DefaultIdentifierGenerator and the payments with Hutool's Snowflake, both
	 * with their default (Twitter) layout, and returns the largest ID.
	 */
	private long fillWithTheOldFleet() throws SQLException {
		assertThat(Snowflake.DEFAULT_TWEPOCH).as("Hutool's epoch").isEqualTo(SnowflakePresets.TWITTER_EPOCH.toEpochMilli());
		DefaultIdentifierGenerator myBatisPlus = new DefaultIdentifierGenerator(1, 0);
		Snowflake hutool = new Snowflake(2, 1);
		List<Long> ids = new ArrayList<>();
		for (int i = 0; i < 50; i++) {
			long order = myBatisPlus.nextId(null);
			long payment = hutool.nextId();
			insert(this.orders, order);
			insert(this.payments, payment);
			ids.add(order);
			ids.add(payment);
		}
		assertThat(SnowflakePresets.twitter().parse(ids.get(0)).workerId()).as("MyBatis-Plus's datacenter/worker")
			.isEqualTo(1);
		assertThat(SnowflakePresets.twitter().parse(ids.get(1)).workerId()).as("Hutool's datacenter/worker")
			.isEqualTo(34);
		return ids.stream().mapToLong(Long::longValue).max().orElseThrow();
	}

	private void insert(String table, long id) throws SQLException {
		try (Connection connection = connect();
				PreparedStatement statement = connection
					.prepareStatement("INSERT INTO " + table + " (id, item) VALUES (?, 'x')")) {
			statement.setLong(1, id);
			statement.executeUpdate();
		}
	}

	private int count(String table) throws SQLException {
		try (Connection connection = connect(); Statement statement = connection.createStatement()) {
			try (ResultSet exists = connection.getMetaData().getTables(null, null, table, null)) {
				if (!exists.next()) {
					return 0;
				}
			}
			try (ResultSet result = statement.executeQuery("SELECT COUNT(*) FROM " + table)) {
				result.next();
				return result.getInt(1);
			}
		}
	}

	private Connection connect() throws SQLException {
		return (this.database.username() != null)
				? DriverManager.getConnection(this.database.jdbcUrl(), this.database.username(),
						this.database.password())
				: DriverManager.getConnection(this.database.jdbcUrl());
	}

	private static Throwable rootCause(Throwable failure) {
		Throwable cause = failure;
		while (cause.getCause() != null) {
			cause = cause.getCause();
		}
		return cause;
	}

	@Configuration(proxyBeanMethods = false)
	@EnableIdWorker(mode = IdWorkerMode.DB)
	static class DbMode {

	}

}
