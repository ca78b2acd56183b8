package io.idstarter.store.jdbc;

/**
 * {@link JdbcSequenceManager} on a real MariaDB (or MySQL) server.
 */
class JdbcSequenceManagerMariaDbIntegrationTests extends AbstractJdbcSequenceManagerTests {

	@Override
	protected TestDatabase openDatabase() {
		return TestDatabase.mariadb();
	}

}
