package io.idstarter.store.jdbc;

/**
 * A {@link JdbcSegmentStore} that loses writes, on a real PostgreSQL server.
 */
class JdbcStoreRegressionPostgresIntegrationTests extends AbstractJdbcStoreRegressionTests {

	@Override
	protected TestDatabase openDatabase() {
		return TestDatabase.postgres();
	}

}
