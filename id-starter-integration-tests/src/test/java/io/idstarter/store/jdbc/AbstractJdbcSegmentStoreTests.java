package io.idstarter.store.jdbc;

import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import javax.sql.DataSource;

import io.idstarter.segment.SegmentAllocation;
import io.idstarter.segment.SegmentStore;
import io.idstarter.segment.SegmentStoreException;
import io.idstarter.segment.UnknownKeyException;
import io.idstarter.testsupport.TcpProxy;
import io.idstarter.testsupport.contract.AbstractSegmentStoreContractTests;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

/**
 * {@link JdbcSegmentStore} on every supported database (subclasses name it): the segment contract of
 * {@link AbstractSegmentStoreContractTests}, and what is particular to the JDBC store (Leaf's table, corrupt rows,
 * transactions, outages). Each class works in a table of its own ({@code leaf_alloc_<random>}), dropped at the end.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class AbstractJdbcSegmentStoreTests extends AbstractSegmentStoreContractTests {

	protected TestDatabase database;

	protected String table;

	protected JdbcSegmentStore store;

	private final List<String> tables = new ArrayList<>();

	private String missingTable = "";

	protected abstract TestDatabase openDatabase();

	/**
	 * Leaf's own DDL for {@code leaf_alloc} (MySQL), or its closest form for this database.
	 */
	protected abstract String leafDdl(String tableName);

	@BeforeAll
	void createTable() {
		this.database = openDatabase();
		this.table = newTable();
		String leaseTable = TestDatabase.unique("id_worker_lease_");
		this.tables.add(leaseTable);
		JdbcSchema.initialize(this.database.dataSource(), this.table, leaseTable);
		this.store = new JdbcSegmentStore(this.database.dataSource(), this.table);
	}

	@AfterAll
	void dropTables() {
		if (this.database != null) {
			this.database.dropTables(this.tables.toArray(String[]::new));
			this.database.close();
		}
	}

	@Override
	protected SegmentStore createStore() {
		return this.store;
	}

	@Override
	protected SegmentStore createStoreWithoutStorage() {
		this.missingTable = TestDatabase.unique("no_such_table_");
		return new JdbcSegmentStore(this.database.dataSource(), this.missingTable);
	}

	@Override
	protected List<String> missingStorageMessageParts() {
		return List.of("table '" + this.missingTable + "' does not exist",
				"classpath:" + this.database.dialect().schemaLocation(), "JDBC segment store at jdbc:");
	}

	private String newTable() {
		String name = TestDatabase.unique("leaf_alloc_");
		this.tables.add(name);
		return name;
	}

	@Test
	void aKeyInsertedAsLeafDocumentsItStartsAtOneAndMovesMaxIdByTheStep() {
		String key = TestDatabase.unique("leaf-segment-test-");
		insertLeafRow(this.table, key, 1, 2000);
		SegmentAllocation first = this.store.allocate(key);
		SegmentAllocation second = this.store.allocate(key);
		assertThat(first).isEqualTo(new SegmentAllocation(key, 1, 2001, 2000));
		assertThat(second).isEqualTo(new SegmentAllocation(key, 2001, 4001, 2000));
		assertThat(maxIdAndStep(this.table, key)).containsExactly(4001L, 2000L);
	}

	@Test
	void aTableCreatedWithLeafsDdlWorksUnchanged() {
		String leafTable = newTable();
		this.database.execute(leafDdl(leafTable));
		this.database.execute("insert into " + leafTable + "(biz_tag, max_id, step, description) "
				+ "values('leaf-segment-test', 1, 2000, 'Test leaf Segment Mode Get Id')");
		JdbcSegmentStore leafStore = new JdbcSegmentStore(this.database.dataSource(), leafTable);
		assertThat(leafStore.keys()).containsExactly("leaf-segment-test");
		assertThat(leafStore.allocate("leaf-segment-test")).isEqualTo(new SegmentAllocation("leaf-segment-test", 1, 2001, 2000));
		assertThat(leafStore.allocate("leaf-segment-test", 5000))
			.isEqualTo(new SegmentAllocation("leaf-segment-test", 2001, 7001, 2000));
		assertThat(leafStore.createKey("created-here", 100, 10, "made by id-starter")).isTrue();
		assertThat(leafStore.allocate("created-here")).isEqualTo(new SegmentAllocation("created-here", 100, 110, 10));
		assertThat(maxIdAndStep(leafTable, "leaf-segment-test")).containsExactly(7001L, 2000L);
	}

	@Test
	void allocatingRefreshesUpdateTime() {
		String key = createKey(1, 10);
		this.database.execute("UPDATE " + this.table + " SET update_time = TIMESTAMP '2001-02-03 04:05:06' WHERE biz_tag = '"
				+ key + "'");
		this.store.allocate(key);
		assertThat(updateTime(key)).isAfter(Timestamp.valueOf("2001-02-03 04:05:06"));
	}

	@Test
	void aRowWithAStepBelowOneIsReportedAndLeftUnchanged() {
		String key = TestDatabase.unique("bad-step-");
		insertLeafRow(this.table, key, 1, 0);
		assertThatExceptionOfType(SegmentStoreException.class).isThrownBy(() -> this.store.allocate(key))
			.withMessageContaining("'" + key + "'")
			.withMessageContaining("step 0")
			.withMessageContaining(this.table)
			.withMessageContaining("left unchanged");
		assertThatExceptionOfType(SegmentStoreException.class).isThrownBy(() -> this.store.allocate(key, 10));
		assertThat(maxIdAndStep(this.table, key)).containsExactly(1L, 0L);
	}

	@Test
	void aRowWithANegativeMaxIdIsReportedAndLeftUnchanged() {
		String key = TestDatabase.unique("bad-max-");
		insertLeafRow(this.table, key, -5, 10);
		assertThatExceptionOfType(SegmentStoreException.class).isThrownBy(() -> this.store.allocate(key))
			.withMessageContaining("'" + key + "'")
			.withMessageContaining("max_id -5");
		assertThat(maxIdAndStep(this.table, key)).containsExactly(-5L, 10L);
	}

	@Test
	void theConnectionsAutoCommitAndIsolationAreRestored() throws SQLException {
		String key = createKey(1, 10);
		try (Connection connection = this.database.dataSource().getConnection()) {
			connection.setAutoCommit(true);
			connection.setTransactionIsolation(Connection.TRANSACTION_SERIALIZABLE);
			JdbcSegmentStore onOneConnection = new JdbcSegmentStore(singleConnection(connection), this.table);
			assertThat(onOneConnection.allocate(key)).isEqualTo(new SegmentAllocation(key, 1, 11, 10));
			assertThat(connection.getAutoCommit()).isTrue();
			assertThat(connection.getTransactionIsolation()).isEqualTo(Connection.TRANSACTION_SERIALIZABLE);
			assertThatExceptionOfType(UnknownKeyException.class).isThrownBy(() -> onOneConnection.allocate("nope-x"));
			assertThat(connection.getAutoCommit()).isTrue();
			assertThat(connection.getTransactionIsolation()).isEqualTo(Connection.TRANSACTION_SERIALIZABLE);
			connection.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
			connection.setAutoCommit(false);
			assertThat(onOneConnection.allocate(key)).isEqualTo(new SegmentAllocation(key, 11, 21, 10));
			assertThat(connection.getAutoCommit()).isFalse();
			connection.setAutoCommit(true);
		}
		// Committed, not left pending on the connection: another connection sees it.
		assertThat(maxIdAndStep(this.table, key)).containsExactly(21L, 10L);
	}

	@Test
	void invalidTableNamesAreRejected() {
		for (String name : new String[] { "", "1abc", "leaf alloc", "leaf_alloc;drop", "a.b.c", "x".repeat(64) }) {
			assertThatIllegalArgumentException().isThrownBy(() -> new JdbcSegmentStore(this.database.dataSource(), name))
				.withMessageContaining("'" + name + "'");
		}
	}

	@Test
	void anOutageIsReportedAndAllocationResumesWithoutLosingOrRepeatingARange() {
		String key = createKey(1, 10);
		try (TcpProxy proxy = this.database.startProxy()) {
			JdbcSegmentStore viaProxy = new JdbcSegmentStore(this.database.dataSourceThrough(proxy), this.table);
			assertThat(viaProxy.allocate(key)).isEqualTo(new SegmentAllocation(key, 1, 11, 10));
			proxy.cut();
			assertThatExceptionOfType(SegmentStoreException.class).isThrownBy(() -> viaProxy.allocate(key))
				.withMessageContaining("Cannot allocate a range of key '" + key + "'")
				.withMessageContaining("JDBC segment store at jdbc:")
				.withMessageContaining("cannot be reached")
				.withCauseInstanceOf(SQLException.class);
			assertThatExceptionOfType(SegmentStoreException.class).isThrownBy(viaProxy::keys);
			assertThat(maxIdAndStep(this.table, key)).containsExactly(11L, 10L);
			proxy.restore();
			// Polled more slowly than HikariCP's 500 ms alive-bypass window, so the pool checks and replaces the
			// connections the cut killed (H2 reports a dead remote connection with a code HikariCP does not evict on).
			SegmentAllocation next = await().atMost(Duration.ofSeconds(15))
				.pollInterval(Duration.ofMillis(700))
				.ignoreException(SegmentStoreException.class)
				.until(() -> viaProxy.allocate(key), (allocation) -> true);
			assertThat(next).isEqualTo(new SegmentAllocation(key, 11, 21, 10));
			assertThat(this.store.allocate(key)).isEqualTo(new SegmentAllocation(key, 21, 31, 10));
		}
	}

	@Test
	void aStoreThatWasNeverReachableIsNamedByTheUrlOfItsDataSource() {
		try (TcpProxy proxy = this.database.startProxy()) {
			proxy.cut();
			JdbcSegmentStore unreachable = new JdbcSegmentStore(this.database.dataSourceThrough(proxy), this.table);
			assertThatExceptionOfType(SegmentStoreException.class).isThrownBy(() -> unreachable.allocate("any-key"))
				.withMessageStartingWith("Cannot allocate a range of key 'any-key': the JDBC segment store at jdbc:")
				.withMessageContaining(":" + proxy.port() + "/")
				.withCauseInstanceOf(SQLException.class);
		}
	}

	protected String createKey(long firstId, int step) {
		String key = TestDatabase.unique("key-");
		assertThat(this.store.createKey(key, firstId, step, "test key")).isTrue();
		return key;
	}

	protected void insertLeafRow(String tableName, String key, long maxId, int step) {
		this.database.execute("INSERT INTO " + tableName + " (biz_tag, max_id, step, description) VALUES ('" + key
				+ "', " + maxId + ", " + step + ", 'inserted by a test')");
	}

	protected List<Long> maxIdAndStep(String tableName, String key) {
		try (Connection connection = this.database.dataSource().getConnection();
				PreparedStatement select = connection
					.prepareStatement("SELECT max_id, step FROM " + tableName + " WHERE biz_tag = ?")) {
			select.setString(1, key);
			try (ResultSet row = select.executeQuery()) {
				assertThat(row.next()).as("row of %s", key).isTrue();
				return List.of(row.getLong(1), (long) row.getInt(2));
			}
		}
		catch (SQLException ex) {
			throw new IllegalStateException(ex);
		}
	}

	private Timestamp updateTime(String key) {
		try (Connection connection = this.database.dataSource().getConnection();
				PreparedStatement select = connection
					.prepareStatement("SELECT update_time FROM " + this.table + " WHERE biz_tag = ?")) {
			select.setString(1, key);
			try (ResultSet row = select.executeQuery()) {
				row.next();
				return row.getTimestamp(1);
			}
		}
		catch (SQLException ex) {
			throw new IllegalStateException(ex);
		}
	}

	/**
	 * A DataSource that always hands out the same connection and never closes it.
	 */
	static DataSource singleConnection(Connection connection) {
		Connection unclosable = (Connection) Proxy.newProxyInstance(AbstractJdbcSegmentStoreTests.class.getClassLoader(),
				new Class<?>[] { Connection.class }, (proxy, method, args) -> {
					if (method.getName().equals("close")) {
						return null;
					}
					try {
						return method.invoke(connection, args);
					}
					catch (java.lang.reflect.InvocationTargetException ex) {
						throw ex.getCause();
					}
				});
		return (DataSource) Proxy.newProxyInstance(AbstractJdbcSegmentStoreTests.class.getClassLoader(),
				new Class<?>[] { DataSource.class }, (proxy, method, args) -> {
					if (method.getName().equals("getConnection")) {
						return unclosable;
					}
					if (method.getName().equals("toString")) {
						return "single connection";
					}
					throw new UnsupportedOperationException(method.getName());
				});
	}

}
