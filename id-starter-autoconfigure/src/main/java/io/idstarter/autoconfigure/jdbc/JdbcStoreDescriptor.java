package io.idstarter.autoconfigure.jdbc;

import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * The relational database store (MySQL/MariaDB, PostgreSQL, H2) through the application's {@code DataSource}.
 *
 * @since 0.1.0
 */
public final class JdbcStoreDescriptor extends DataSourceStoreDescriptor {

	@Override
	public String name() {
		return "jdbc";
	}

	@Override
	public String description() {
		return "the relational database";
	}

	@Override
	public String failureAction() {
		return "Check that the database answers with the application's spring.datasource.* settings. If a table is "
				+ "missing, set id-worker.jdbc.initialize-schema=always, or create it with the script for your "
				+ "database, classpath:io/idstarter/store/jdbc/schema-{mysql,postgresql,h2}.sql (with Flyway, "
				+ "Liquibase or spring.sql.init.schema-locations).";
	}

	@Override
	public @Nullable String leaseConfiguration() {
		return "io.idstarter.autoconfigure.jdbc.JdbcLeaseStoreConfiguration";
	}

	@Override
	public @Nullable String segmentConfiguration() {
		return "io.idstarter.autoconfigure.jdbc.JdbcSegmentStoreConfiguration";
	}

	/** Schema scripts of the JDBC stores, one per database, read when the schema is initialised. */
	@Override
	public List<String> resourcePatterns() {
		return List.of("io/idstarter/store/jdbc/schema-*.sql");
	}

}
