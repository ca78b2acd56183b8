package io.idstarter.autoconfigure.jdbc;

import io.idstarter.autoconfigure.PropertyRules;
import io.idstarter.store.jdbc.JdbcSchema;

import org.springframework.beans.factory.InitializingBean;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.jdbc.init.DatabaseInitializationProperties;

/**
 * Relational database store settings, under {@code id-worker.jdbc}: the table names, and when and with which script
 * the tables are created ({@code initialize-schema}: {@code embedded}, the default, {@code always} or {@code never};
 * {@code schema}, {@code platform}, {@code continue-on-error}), as for Spring Batch's and Spring Session's tables.
 * Bound only where a JDBC store is selected, so applications without a database need no SQL library.
 *
 * @since 0.1.0
 */
@ConfigurationProperties(prefix = "id-worker.jdbc", ignoreUnknownFields = false)
public class JdbcStoreProperties extends DatabaseInitializationProperties implements InitializingBean {

	/** Script location; {@code @@platform@@} is {@code mysql} (also for MariaDB), {@code postgresql} or {@code h2}. */
	static final String DEFAULT_SCHEMA_LOCATION = "classpath:io/idstarter/store/jdbc/schema-@@platform@@.sql";

	/** The scripts, for messages that cannot tell the database. */
	static final String SCRIPTS = "classpath:io/idstarter/store/jdbc/schema-{mysql,postgresql,h2}.sql";


	/**
	 * Table of segment keys, in Leaf's leaf_alloc layout.
	 */
	private String segmentTable = "leaf_alloc";

	/**
	 * Table of worker-ID leases.
	 */
	private String leaseTable = "id_worker_lease";

	public String getSegmentTable() {
		return this.segmentTable;
	}

	public void setSegmentTable(String segmentTable) {
		this.segmentTable = segmentTable;
	}

	public String getLeaseTable() {
		return this.leaseTable;
	}

	public void setLeaseTable(String leaseTable) {
		this.leaseTable = leaseTable;
	}

	/**
	 * Creates the properties; unlike Spring Boot's default, a failing statement of the script stops the start.
	 */
	public JdbcStoreProperties() {
		setContinueOnError(false);
	}

	@Override
	public String getDefaultSchemaLocation() {
		return DEFAULT_SCHEMA_LOCATION;
	}

	@Override
	public void afterPropertiesSet() {
		PropertyRules.check("id-worker.jdbc.segment-table", this.segmentTable,
				() -> JdbcSchema.checkTableName(this.segmentTable));
		PropertyRules.check("id-worker.jdbc.lease-table", this.leaseTable,
				() -> JdbcSchema.checkTableName(this.leaseTable));
	}

}
