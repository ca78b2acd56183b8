package io.idstarter.store.jdbc;

import io.idstarter.segment.SegmentStore;
import io.idstarter.store.AbstractPeriodicNumbersTests;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * Periodic numbers on {@link JdbcSegmentStore} over a real PostgreSQL server, in tables of its own dropped at the end.
 */
class PeriodicNumbersPostgresIntegrationTests extends AbstractPeriodicNumbersTests {

	private static TestDatabase database;

	private static String table;

	private static String leaseTable;

	@BeforeAll
	static void createTable() {
		database = TestDatabase.postgres();
		table = TestDatabase.unique("leaf_alloc_");
		leaseTable = TestDatabase.unique("id_worker_lease_");
		JdbcSchema.initialize(database.dataSource(), table, leaseTable);
	}

	@AfterAll
	static void dropTable() {
		if (database != null) {
			database.dropTables(table, leaseTable);
			database.close();
		}
	}

	@Override
	protected SegmentStore newStore() {
		return new JdbcSegmentStore(database.dataSource(), table);
	}

}
