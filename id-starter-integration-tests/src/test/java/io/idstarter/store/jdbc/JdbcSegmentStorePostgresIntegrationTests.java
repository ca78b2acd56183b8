package io.idstarter.store.jdbc;

/**
 * {@link JdbcSegmentStore} on a real PostgreSQL server.
 */
class JdbcSegmentStorePostgresIntegrationTests extends AbstractJdbcSegmentStoreTests {

	@Override
	protected TestDatabase openDatabase() {
		return TestDatabase.postgres();
	}

	@Override
	protected String leafDdl(String tableName) {
		return LeafDdl.standard(tableName);
	}

}
