package io.idstarter.store.jdbc;

/**
 * {@link JdbcLeaseStore} on a real MariaDB (or MySQL) server.
 */
class JdbcLeaseStoreMariaDbIntegrationTests extends AbstractJdbcLeaseStoreTests {

	@Override
	protected TestDatabase openDatabase() {
		return TestDatabase.mariadb();
	}

}
