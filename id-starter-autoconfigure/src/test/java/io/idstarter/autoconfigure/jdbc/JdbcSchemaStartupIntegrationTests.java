package io.idstarter.autoconfigure.jdbc;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;

import io.idstarter.store.jdbc.JdbcSchema;
import io.idstarter.store.jdbc.JdbcSegmentStore;
import io.idstarter.store.jdbc.JdbcLeaseStore;
import io.idstarter.testsupport.TestBackends;
import io.idstarter.testsupport.TestBackends.JdbcBackend;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.NestedExceptionUtils;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Start-up of the JDBC stores with {@code initialize-schema=always} on MariaDB, which checks the {@code CREATE}
 * privilege before {@code IF NOT EXISTS}: an application user without it starts when the tables exist, and the
 * report says what to do when they do not, or when the database cannot be reached. The user {@code idstarter_app}
 * (SELECT, INSERT, UPDATE, DELETE only) is created by {@code scripts/ensure-test-services.sh}.
 */
class JdbcSchemaStartupIntegrationTests {

	private static final String APP_USER = "idstarter_app";

	private final JdbcBackend mariadb = TestBackends.mariadb();

	private final String suffix = UUID.randomUUID().toString().replace("-", "").substring(0, 12);

	private final String segmentTable = "it_schema_alloc_" + this.suffix;

	private final String leaseTable = "it_schema_lease_" + this.suffix;

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class, JdbcLeaseStoreConfiguration.class,
				JdbcSegmentStoreConfiguration.class))
		.withPropertyValues("id-worker.jdbc.initialize-schema=always",
				"id-worker.jdbc.segment-table=" + this.segmentTable, "id-worker.jdbc.lease-table=" + this.leaseTable,
				"spring.datasource.hikari.connection-timeout=1000");

	private final IdWorkerSchemaFailureAnalyzer analyzer = new IdWorkerSchemaFailureAnalyzer();

	@Test
	void userWithoutCreatePrivilegeStartsWhenTheTablesExist() {
		DriverManagerDataSource owner = new DriverManagerDataSource(this.mariadb.jdbcUrl(), this.mariadb.username(),
				this.mariadb.password());
		JdbcSchema.initialize(owner, this.segmentTable, this.leaseTable);
		asApplicationUser().run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(context.getBean(JdbcSegmentStore.class).getTableName()).isEqualTo(this.segmentTable);
			assertThat(context.getBean(JdbcLeaseStore.class).getTableName()).isEqualTo(this.leaseTable);
		});
	}

	@Test
	void userWithoutCreatePrivilegeIsToldToRunTheScriptAndUseNever() {
		asApplicationUser().run((context) -> {
			assertThat(context).hasFailed();
			IdWorkerSchemaException failure = rootCause(context.getStartupFailure());
			assertThat(failure.getProblem()).isEqualTo(IdWorkerSchemaException.Problem.PERMISSION_DENIED);
			FailureAnalysis analysis = this.analyzer.analyze(context.getStartupFailure());
			System.out.println("Permission denied:\n" + analysis.getDescription() + "\n" + analysis.getAction());
			assertThat(analysis.getDescription()).contains(this.segmentTable, "may not create tables",
					"CREATE command denied");
			assertThat(analysis.getAction()).contains("classpath:io/idstarter/store/jdbc/schema-mysql.sql",
					"id-worker.jdbc.initialize-schema=never");
		});
	}

	@Test
	void unreachableDatabaseIsReportedAsSuch() {
		this.contextRunner
			.withPropertyValues("spring.datasource.url=jdbc:mariadb://127.0.0.1:1/idstarter",
					"spring.datasource.username=" + APP_USER, "spring.datasource.password=idstarter")
			.run((context) -> {
				assertThat(context).hasFailed();
				IdWorkerSchemaException failure = rootCause(context.getStartupFailure());
				assertThat(failure.getProblem()).isEqualTo(IdWorkerSchemaException.Problem.UNREACHABLE);
				FailureAnalysis analysis = this.analyzer.analyze(context.getStartupFailure());
				System.out.println("Unreachable:\n" + analysis.getDescription() + "\n" + analysis.getAction());
				assertThat(analysis.getDescription()).contains("could not be reached");
				assertThat(analysis.getAction()).contains("spring.datasource.url");
			});
	}

	private ApplicationContextRunner asApplicationUser() {
		return this.contextRunner.withPropertyValues("spring.datasource.url=" + this.mariadb.jdbcUrl(),
				"spring.datasource.username=" + APP_USER, "spring.datasource.password=idstarter");
	}

	private static IdWorkerSchemaException rootCause(Throwable failure) {
		for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
			if (cause instanceof IdWorkerSchemaException schema) {
				return schema;
			}
		}
		throw new AssertionError("no IdWorkerSchemaException in " + NestedExceptionUtils.getMostSpecificCause(failure),
				failure);
	}

	@AfterEach
	void dropTables() throws SQLException {
		try (Connection connection = DriverManager.getConnection(this.mariadb.jdbcUrl(), this.mariadb.username(),
				this.mariadb.password()); Statement statement = connection.createStatement()) {
			statement.execute("DROP TABLE IF EXISTS " + this.segmentTable);
			statement.execute("DROP TABLE IF EXISTS " + this.leaseTable);
		}
	}

}
