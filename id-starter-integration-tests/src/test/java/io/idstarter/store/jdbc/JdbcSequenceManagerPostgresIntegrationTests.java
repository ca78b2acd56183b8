package io.idstarter.store.jdbc;

/**
 * {@link JdbcSequenceManager} on a real PostgreSQL server.
 */
class JdbcSequenceManagerPostgresIntegrationTests extends AbstractJdbcSequenceManagerTests {

	@Override
	protected TestDatabase openDatabase() {
		return TestDatabase.postgres();
	}

}
