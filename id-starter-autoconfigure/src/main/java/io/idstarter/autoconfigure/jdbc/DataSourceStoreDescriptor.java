package io.idstarter.autoconfigure.jdbc;

import io.idstarter.autoconfigure.IdWorkerStoreDescriptor;

/**
 * What the stores that work through the application's {@code DataSource} share: the bean, the libraries and the
 * connection property; the tables ({@link JdbcStoreDescriptor}) and the sequences ({@link SequenceStoreDescriptor})
 * differ in what they keep there.
 */
abstract class DataSourceStoreDescriptor implements IdWorkerStoreDescriptor {

	@Override
	public String corePackage() {
		return "io.idstarter.store.jdbc";
	}

	@Override
	public String beanType() {
		return "javax.sql.DataSource";
	}

	@Override
	public String requiredClass() {
		return "org.springframework.boot.jdbc.EmbeddedDatabaseConnection";
	}

	@Override
	public String dependency() {
		return "spring-boot-starter-jdbc (or spring-boot-starter-data-jpa) and a JDBC driver";
	}

	@Override
	public String connectionProperty() {
		return "spring.datasource.url";
	}

}
