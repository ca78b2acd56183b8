package io.idstarter.store.jdbc;

/**
 * {@link JdbcSequenceManager} on an in-memory H2 database.
 */
class JdbcSequenceManagerTests extends AbstractJdbcSequenceManagerTests {

	@Override
	protected TestDatabase openDatabase() {
		return TestDatabase.h2();
	}

}
