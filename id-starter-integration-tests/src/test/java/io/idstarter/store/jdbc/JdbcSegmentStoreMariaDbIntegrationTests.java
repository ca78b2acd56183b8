package io.idstarter.store.jdbc;

/**
 * {@link JdbcSegmentStore} on a real MariaDB (or MySQL) server, with Leaf's own DDL.
 */
class JdbcSegmentStoreMariaDbIntegrationTests extends AbstractJdbcSegmentStoreTests {

	@Override
	protected TestDatabase openDatabase() {
		return TestDatabase.mariadb();
	}

	@Override
	protected String leafDdl(String tableName) {
		return LeafDdl.mysql(tableName);
	}

}
