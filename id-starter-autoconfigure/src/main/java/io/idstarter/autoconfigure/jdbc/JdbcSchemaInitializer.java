package io.idstarter.autoconfigure.jdbc;

import javax.sql.DataSource;

import io.idstarter.autoconfigure.IdWorkerProperties;
import io.idstarter.store.jdbc.JdbcSchema;

import org.springframework.beans.factory.InitializingBean;
import org.springframework.boot.jdbc.EmbeddedDatabaseConnection;

/**
 * Creates the tables of the JDBC stores at start-up, as {@code id-worker.jdbc.initialize-schema} says: in embedded
 * databases only, always, or never. Tables that exist are left as they are.
 *
 * @since 0.1.0
 */
public class JdbcSchemaInitializer implements InitializingBean {

	private final DataSource dataSource;

	private final IdWorkerProperties.Jdbc settings;

	/**
	 * Creates an initializer.
	 * @param dataSource the database
	 * @param settings the table names and when to create them
	 */
	public JdbcSchemaInitializer(DataSource dataSource, IdWorkerProperties.Jdbc settings) {
		this.dataSource = dataSource;
		this.settings = settings;
	}

	@Override
	public void afterPropertiesSet() {
		if (shouldInitialize()) {
			JdbcSchema.initialize(this.dataSource, this.settings.getSegmentTable(), this.settings.getLeaseTable());
		}
	}

	/**
	 * Returns whether the tables are to be created in this database.
	 * @return {@code true} for mode {@code always}, and for mode {@code embedded} on an embedded database
	 */
	boolean shouldInitialize() {
		return switch (this.settings.getInitializeSchema()) {
			case ALWAYS -> true;
			case NEVER -> false;
			case EMBEDDED -> EmbeddedDatabaseConnection.isEmbedded(this.dataSource);
		};
	}

}
