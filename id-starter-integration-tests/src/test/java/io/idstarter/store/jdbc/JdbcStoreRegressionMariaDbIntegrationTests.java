package io.idstarter.store.jdbc;

/**
 * A {@link JdbcSegmentStore} that loses writes, on a real MariaDB server.
 */
class JdbcStoreRegressionMariaDbIntegrationTests extends AbstractJdbcStoreRegressionTests {

	@Override
	protected TestDatabase openDatabase() {
		return TestDatabase.mariadb();
	}

}
