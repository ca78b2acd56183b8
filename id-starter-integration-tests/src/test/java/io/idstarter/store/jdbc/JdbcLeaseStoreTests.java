package io.idstarter.store.jdbc;

/**
 * {@link JdbcLeaseStore} on an in-memory H2 database.
 */
class JdbcLeaseStoreTests extends AbstractJdbcLeaseStoreTests {

	@Override
	protected TestDatabase openDatabase() {
		return TestDatabase.h2();
	}

}
