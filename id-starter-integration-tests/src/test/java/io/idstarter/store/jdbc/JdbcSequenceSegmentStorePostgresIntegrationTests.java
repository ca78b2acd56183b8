package io.idstarter.store.jdbc;

/**
 * {@link JdbcSequenceSegmentStore} on a real Postgres server.
 */
class JdbcSequenceSegmentStorePostgresIntegrationTests extends AbstractJdbcSequenceSegmentStoreTests {

	@Override
	protected TestDatabase openDatabase() {
		return TestDatabase.postgres();
	}

}
