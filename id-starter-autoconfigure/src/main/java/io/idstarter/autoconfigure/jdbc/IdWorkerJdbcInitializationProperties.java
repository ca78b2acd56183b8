package io.idstarter.autoconfigure.jdbc;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.jdbc.init.DatabaseInitializationProperties;

/**
 * When and with which script the tables of the JDBC stores are created: {@code id-worker.jdbc.initialize-schema}
 * ({@code embedded}, the default, {@code always} or {@code never}), {@code id-worker.jdbc.schema},
 * {@code id-worker.jdbc.platform} and {@code id-worker.jdbc.continue-on-error}, as for Spring Batch's and Spring
 * Session's tables. Bound only where a JDBC store is configured, so applications without a database need no SQL
 * library.
 *
 * @since 0.1.0
 */
@ConfigurationProperties("id-worker.jdbc")
public class IdWorkerJdbcInitializationProperties extends DatabaseInitializationProperties {

	/** Script location; {@code @@platform@@} is {@code mysql} (also for MariaDB), {@code postgresql} or {@code h2}. */
	static final String DEFAULT_SCHEMA_LOCATION = "classpath:io/idstarter/store/jdbc/schema-@@platform@@.sql";

	/** The scripts, for messages that cannot tell the database. */
	static final String SCRIPTS = "classpath:io/idstarter/store/jdbc/schema-{mysql,postgresql,h2}.sql";

	/**
	 * Creates the properties; unlike Spring Boot's default, a failing statement of the script stops the start.
	 */
	public IdWorkerJdbcInitializationProperties() {
		setContinueOnError(false);
	}

	@Override
	public String getDefaultSchemaLocation() {
		return DEFAULT_SCHEMA_LOCATION;
	}

}
