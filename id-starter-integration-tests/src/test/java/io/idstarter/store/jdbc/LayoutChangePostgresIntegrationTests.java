package io.idstarter.store.jdbc;

import io.idstarter.lease.AbstractLayoutChangeIntegrationTests;
import io.idstarter.lease.ISequenceManager;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;

/**
 * The layout record and a planned layout change on PostgreSQL: the record is the lease table's row of worker ID -1.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class LayoutChangePostgresIntegrationTests extends AbstractLayoutChangeIntegrationTests {

	private TestDatabase database;

	private String table;

	private String segmentTable;

	private JdbcLeaseStore store;

	@BeforeAll
	void createTable() {
		this.database = TestDatabase.postgres();
		this.table = TestDatabase.unique("id_worker_lease_");
		this.segmentTable = TestDatabase.unique("leaf_alloc_");
		JdbcSchema.initialize(this.database.dataSource(), this.segmentTable, this.table);
		this.store = new JdbcLeaseStore(this.database.dataSource(), this.table);
	}

	@AfterAll
	void dropTable() {
		if (this.database != null) {
			this.database.dropTables(this.table, this.segmentTable);
			this.database.close();
		}
	}

	@Override
	protected ISequenceManager store() {
		return this.store;
	}

	@Override
	protected void deleteLayoutRecord(String namespace) {
		this.database.execute("DELETE FROM " + this.table + " WHERE namespace = '" + namespace + "' AND worker_id = "
				+ JdbcLeaseStore.LAYOUT_WORKER_ID);
	}

}
