package io.idstarter.store.jdbc;

/**
 * {@link JdbcSequenceSegmentStore} on an in-memory H2 database.
 */
class JdbcSequenceSegmentStoreTests extends AbstractJdbcSequenceSegmentStoreTests {

	@Override
	protected TestDatabase openDatabase() {
		return TestDatabase.h2();
	}

}
