package io.idstarter.store.jdbc;

/**
 * {@link JdbcSequenceSegmentStore} on a real MariaDB server.
 */
class JdbcSequenceSegmentStoreMariaDbIntegrationTests extends AbstractJdbcSequenceSegmentStoreTests {

	@Override
	protected TestDatabase openDatabase() {
		return TestDatabase.mariadb();
	}

}
