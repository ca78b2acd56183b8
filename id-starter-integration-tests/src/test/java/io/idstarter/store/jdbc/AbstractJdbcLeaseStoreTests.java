package io.idstarter.store.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.idstarter.lease.ISequenceManager;
import io.idstarter.lease.LeaseRequest;
import io.idstarter.lease.LeaseStoreException;
import io.idstarter.lease.SlotMark;
import io.idstarter.lease.WorkerLease;
import io.idstarter.snowflake.RecordedLayout;
import io.idstarter.testsupport.TcpProxy;
import io.idstarter.testsupport.contract.AbstractLeaseStoreContractTests;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

/**
 * {@link JdbcLeaseStore} on every supported database (subclasses name it): the lease contract of
 * {@link AbstractLeaseStoreContractTests}, and what is particular to the JDBC store (rows, corrupt rows,
 * transactions, outages). Each class works in a lease table of its own ({@code id_worker_lease_<random>}), dropped at
 * the end, and each test in namespaces of its own.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class AbstractJdbcLeaseStoreTests extends AbstractLeaseStoreContractTests {

	protected TestDatabase database;

	protected String table;

	protected JdbcLeaseStore manager;

	private String segmentTable;

	private final List<String> extraTables = new ArrayList<>();

	private String missingTable = "";

	protected abstract TestDatabase openDatabase();

	@BeforeAll
	void createTable() {
		this.database = openDatabase();
		this.table = TestDatabase.unique("id_worker_lease_");
		this.segmentTable = TestDatabase.unique("leaf_alloc_");
		JdbcSchema.initialize(this.database.dataSource(), this.segmentTable, this.table);
		this.manager = new JdbcLeaseStore(this.database.dataSource(), this.table);
	}

	@AfterAll
	void dropTables() {
		if (this.database != null) {
			this.database.dropTables(this.table, this.segmentTable);
			this.database.dropTables(this.extraTables.toArray(String[]::new));
			this.database.close();
		}
	}

	@Override
	protected ISequenceManager createManager() {
		return this.manager;
	}

	@Override
	protected List<String> identityParts() {
		return List.of("JDBC lease store at jdbc:", "table " + this.table);
	}

	@Override
	protected ISequenceManager createManagerWithoutStorage() {
		this.missingTable = TestDatabase.unique("no_such_lease_table_");
		return new JdbcLeaseStore(this.database.dataSource(), this.missingTable);
	}

	@Override
	protected List<String> missingStorageMessageParts() {
		return List.of("table '" + this.missingTable + "' does not exist",
				"classpath:" + this.database.dialect().schemaLocation(), "JDBC lease store at jdbc:");
	}

	@Test
	void aFreshNamespaceLendsSlotZeroWithNoFloorAndTheRequestedCeiling() {
		String namespace = newNamespace();
		long ceiling = System.currentTimeMillis() + 5000;
		WorkerLease lease = this.manager.borrow(request(namespace, 15, TTL, -1, ceiling));
		assertThat(lease.namespace()).isEqualTo(namespace);
		assertThat(lease.workerId()).isZero();
		assertThat(lease.timestampFloor()).isEqualTo(-1);
		assertThat(lease.timestampCeiling()).isEqualTo(ceiling);
		assertThat(lease.ttl()).isEqualTo(TTL);
		assertThat(lease.ownerToken()).isNotBlank();
		assertThat(lease.storeTimeMillis()).isCloseTo(System.currentTimeMillis(), org.assertj.core.data.Offset.offset(5000L));
		LeaseRow row = row(namespace, 0);
		assertThat(row).isEqualTo(new LeaseRow(lease.ownerToken(), "host-a/1", lease.storeTimeMillis() + TTL.toMillis(),
				ceiling));
	}

	@Test
	void aRowAboveTheBorrowersLayoutIsPassedOverAndLeftUnchanged() {
		String namespace = newNamespace();
		insertRow(namespace, 99, "someone", 0, 12345);
		LeaseRow before = row(namespace, 99);
		WorkerLease lease = this.manager.borrow(request(namespace, 15, TTL, -1, 0));
		assertThat(lease.workerId()).as("a slot of a wider layout stops no borrower").isZero();
		assertThat(row(namespace, 99)).isEqualTo(before);
	}

	@Test
	void aRowWithANegativeWorkerIdIsReportedAndLeftUnchanged() {
		String namespace = newNamespace();
		insertRow(namespace, -3, "someone", 0, 12345);
		LeaseRow before = row(namespace, -3);
		assertThatExceptionOfType(LeaseStoreException.class)
			.isThrownBy(() -> this.manager.borrow(request(namespace, 15, TTL, -1, 0)))
			.withMessageContaining("row (namespace '" + namespace + "', worker_id -3)")
			.withMessageContaining("table '" + this.table + "'")
			.withMessageContaining("worker_id is negative")
			.withMessageContaining("left unchanged");
		assertThat(row(namespace, -3)).isEqualTo(before);
		assertThat(row(namespace, 0)).isNull();
	}

	@Test
	void aRowWithANegativeMarkIsReportedAndLeftUnchanged() {
		String namespace = newNamespace();
		insertRow(namespace, 3, null, 0, -5);
		assertThatExceptionOfType(LeaseStoreException.class)
			.isThrownBy(() -> this.manager.borrow(request(namespace, 15, TTL, 3, 0)))
			.withMessageContaining("worker_id 3")
			.withMessageContaining("max_timestamp is -5");
		assertThat(row(namespace, 3)).isEqualTo(new LeaseRow(null, null, 0, -5));
	}

	@Test
	void aHeldRowWhoseMarkWasCorruptedIsReportedOnRenewAndLeftUnchanged() {
		String namespace = newNamespace();
		WorkerLease lease = this.manager.borrow(request(namespace, 15, TTL, -1, 1000));
		this.database.execute("UPDATE " + this.table + " SET max_timestamp = -7 WHERE namespace = '" + namespace + "'");
		LeaseRow corrupted = row(namespace, 0);
		assertThatExceptionOfType(LeaseStoreException.class).isThrownBy(() -> this.manager.renew(lease, 2000))
			.withMessageContaining("worker_id 0")
			.withMessageContaining("max_timestamp is -7");
		this.manager.release(lease, 1500);
		assertThat(row(namespace, 0)).isEqualTo(corrupted);
	}

	@Test
	void nullColumnsInALeaseTableWithoutConstraintsAreReportedAndLeftUnchanged() {
		String lenient = TestDatabase.unique("lenient_lease_");
		this.extraTables.add(lenient);
		this.database.execute("CREATE TABLE " + lenient + " (namespace varchar(128) NOT NULL, worker_id int NOT NULL, "
				+ "owner_token varchar(64), instance varchar(255), expires_at bigint, max_timestamp bigint, "
				+ "updated_at bigint, PRIMARY KEY (namespace, worker_id))");
		JdbcLeaseStore onLenient = new JdbcLeaseStore(this.database.dataSource(), lenient);
		String nullMark = newNamespace();
		this.database.execute("INSERT INTO " + lenient + " VALUES ('" + nullMark + "', 2, NULL, NULL, 0, NULL, 0)");
		assertThatExceptionOfType(LeaseStoreException.class)
			.isThrownBy(() -> onLenient.borrow(request(nullMark, 15, TTL, -1, 0)))
			.withMessageContaining("row (namespace '" + nullMark + "', worker_id 2)")
			.withMessageContaining("max_timestamp is NULL");
		String nullExpiry = newNamespace();
		this.database.execute("INSERT INTO " + lenient + " VALUES ('" + nullExpiry + "', 4, NULL, NULL, NULL, -1, 0)");
		assertThatExceptionOfType(LeaseStoreException.class)
			.isThrownBy(() -> onLenient.borrow(request(nullExpiry, 15, TTL, -1, 0)))
			.withMessageContaining("worker_id 4")
			.withMessageContaining("expires_at is NULL");
		String heldThenNulled = newNamespace();
		WorkerLease lease = onLenient.borrow(request(heldThenNulled, 15, TTL, -1, 1000));
		this.database.execute("UPDATE " + lenient + " SET max_timestamp = NULL WHERE namespace = '" + heldThenNulled + "'");
		assertThatExceptionOfType(LeaseStoreException.class).isThrownBy(() -> onLenient.renew(lease, 2000))
			.withMessageContaining("max_timestamp is NULL");
		onLenient.release(lease, 1500);
		assertThat(rawRow(lenient, nullMark, 2)).containsExactly(null, null, 0L, null);
		assertThat(rawRow(lenient, nullExpiry, 4)).containsExactly(null, null, null, -1L);
		assertThat(rawRow(lenient, heldThenNulled, 0)).containsExactly(lease.ownerToken(), "host-a/1",
				lease.storeTimeMillis() + TTL.toMillis(), null);
	}

	@Test
	void theLayoutRecordIsTheRowOfWorkerIdMinusOneWhichNoSlotStatementTouches() {
		String namespace = newNamespace();
		String layout = "epoch=2010-11-04T01:42:54.657Z;timestamp-bits=41;worker-id-bits=10;sequence-bits=12";
		assertThat(this.manager.recordLayout(namespace, layout)).isEqualTo(layout);
		assertThat(row(namespace, JdbcLeaseStore.LAYOUT_WORKER_ID)).isEqualTo(new LeaseRow(null, layout, 0, -1));
		WorkerLease lease = this.manager.borrow(request(namespace, 0, TTL, -1, 1000));
		assertThat(lease.workerId()).isZero();
		this.manager.renew(lease, 2000);
		this.manager.release(lease, 1500);
		assertThat(this.manager.slotMarks(namespace)).extracting(SlotMark::workerId).containsExactly(0);
		assertThat(row(namespace, JdbcLeaseStore.LAYOUT_WORKER_ID)).isEqualTo(new LeaseRow(null, layout, 0, -1));
	}

	@Test
	void aRowOfTheReservedWorkerIdThatIsNoLayoutRecordIsReportedAndLeftUnchanged() {
		String held = newNamespace();
		insertRow(held, JdbcLeaseStore.LAYOUT_WORKER_ID, "someone", 0, 12345);
		LeaseRow before = row(held, JdbcLeaseStore.LAYOUT_WORKER_ID);
		assertThatExceptionOfType(LeaseStoreException.class)
			.isThrownBy(() -> this.manager.recordLayout(held, "epoch=2010-11-04T01:42:54.657Z"))
			.withMessageContaining("row (namespace '" + held + "', worker_id -1) of table '" + this.table + "'")
			.withMessageContaining("not a layout record (it has owner_token 'someone')")
			.withMessageContaining("delete the row");
		assertThat(this.manager.replaceLayout(held, "anything", "epoch=2010-11-04T01:42:54.657Z")).isFalse();
		assertThat(row(held, JdbcLeaseStore.LAYOUT_WORKER_ID)).isEqualTo(before);
		String empty = newNamespace();
		insertRow(empty, JdbcLeaseStore.LAYOUT_WORKER_ID, null, 0, -1);
		assertThatExceptionOfType(LeaseStoreException.class)
			.isThrownBy(() -> this.manager.recordLayout(empty, "epoch=2010-11-04T01:42:54.657Z"))
			.withMessageContaining("worker_id -1")
			.withMessageContaining("instance column, where the layout is kept, is NULL");
		assertThat(row(empty, JdbcLeaseStore.LAYOUT_WORKER_ID)).isEqualTo(new LeaseRow(null, null, 0, -1));
	}

	@Test
	void aLayoutLongerThanTheInstanceColumnIsRefusedAndNothingIsWritten() {
		String namespace = newNamespace();
		String tooLong = "epoch=2010-11-04T01:42:54.657Z;note=" + "x".repeat(RecordedLayout.MAX_LENGTH);
		assertThatIllegalArgumentException().isThrownBy(() -> this.manager.recordLayout(namespace, tooLong))
			.withMessageContaining("layout must be 1 to 255 characters")
			.withMessageContaining("was " + tooLong.length());
		assertThat(row(namespace, JdbcLeaseStore.LAYOUT_WORKER_ID)).isNull();
		this.manager.recordLayout(namespace, "epoch=2010-11-04T01:42:54.657Z");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> this.manager.replaceLayout(namespace, "epoch=2010-11-04T01:42:54.657Z", tooLong))
			.withMessageContaining("replacement must be 1 to 255 characters");
		assertThat(row(namespace, JdbcLeaseStore.LAYOUT_WORKER_ID).instance())
			.isEqualTo("epoch=2010-11-04T01:42:54.657Z");
	}

	@Test
	void aLayoutIsReplacedOnlyIfItIsTheExpectedTextCharacterForCharacter() {
		String namespace = newNamespace();
		String layout = "epoch=2010-11-04T01:42:54.657Z;timestamp-bits=41;worker-id-bits=10;sequence-bits=12;"
				+ "preset=twitter";
		this.manager.recordLayout(namespace, layout);
		String replacement = layout.replace("preset=twitter", "preset=other");
		// MySQL's and MariaDB's usual collations would find these equal to the record.
		assertThat(this.manager.replaceLayout(namespace, layout.toUpperCase(java.util.Locale.ROOT), replacement))
			.isFalse();
		assertThat(this.manager.replaceLayout(namespace, layout + " ", replacement)).isFalse();
		assertThat(row(namespace, JdbcLeaseStore.LAYOUT_WORKER_ID).instance()).isEqualTo(layout);
		assertThat(this.manager.replaceLayout(namespace, layout, replacement)).isTrue();
		assertThat(this.manager.recordLayout(namespace, layout)).isEqualTo(replacement);
	}

	@Test
	void aCorruptSlotRowIsReportedWhenTheMarksAreRead() {
		String namespace = newNamespace();
		insertRow(namespace, 3, null, 0, -5);
		assertThatExceptionOfType(LeaseStoreException.class).isThrownBy(() -> this.manager.slotMarks(namespace))
			.withMessageContaining("Cannot read the slot marks of namespace '" + namespace + "'")
			.withMessageContaining("worker_id 3")
			.withMessageContaining("max_timestamp is -5");
	}

	@Test
	void namespacesAreExactStringsAndLongInstanceNamesAreCut() {
		String base = TestDatabase.unique("Ns-");
		String upper = base.toUpperCase(java.util.Locale.ROOT) + " ünï/cøde";
		String lower = base.toLowerCase(java.util.Locale.ROOT) + " ünï/cøde";
		String longest = (lower + "x".repeat(128)).substring(0, 128);
		assertThat(this.manager.borrow(request(upper, 3, TTL, -1, 0)).workerId()).isZero();
		assertThat(this.manager.borrow(request(lower, 3, TTL, -1, 0)).workerId()).isZero();
		LeaseRequest longInstance = new LeaseRequest(longest, 3, TTL, -1, "i".repeat(300), 0);
		assertThat(this.manager.borrow(longInstance).workerId()).isZero();
		assertThat(row(longest, 0).instance()).isEqualTo("i".repeat(255));
	}

	@Test
	void workOnAConnectionThatIsNotInAutoCommitModeIsCommitted() throws SQLException {
		String namespace = newNamespace();
		try (Connection connection = this.database.dataSource().getConnection()) {
			connection.setAutoCommit(false);
			JdbcLeaseStore onOneConnection = new JdbcLeaseStore(
					AbstractJdbcSegmentStoreTests.singleConnection(connection), this.table);
			WorkerLease lease = onOneConnection.borrow(request(namespace, 15, TTL, -1, 1000));
			assertThat(row(namespace, 0).owner()).isEqualTo(lease.ownerToken());
			onOneConnection.renew(lease, 3000);
			assertThat(row(namespace, 0).maxTimestamp()).isEqualTo(3000);
			onOneConnection.release(lease, 2500);
			assertThat(row(namespace, 0).owner()).isNull();
			assertThat(connection.getAutoCommit()).isFalse();
			connection.setAutoCommit(true);
		}
	}

	@Test
	void invalidTableNamesAreRejected() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new JdbcLeaseStore(this.database.dataSource(), "lease; DROP TABLE x"))
			.withMessageContaining("SQL identifier");
	}

	@Test
	void anOutageIsReportedAndTheLeaseSurvivesIt() {
		String namespace = newNamespace();
		try (TcpProxy proxy = this.database.startProxy()) {
			JdbcLeaseStore viaProxy = new JdbcLeaseStore(this.database.dataSourceThrough(proxy), this.table);
			WorkerLease lease = viaProxy.borrow(request(namespace, 15, TTL, -1, 1000));
			proxy.cut();
			assertThatExceptionOfType(LeaseStoreException.class).isThrownBy(() -> viaProxy.renew(lease, 2000))
				.withMessageContaining("Cannot renew worker ID 0 of namespace '" + namespace + "'")
				.withMessageContaining("JDBC lease store at jdbc:")
				.withMessageContaining("cannot be reached")
				.withCauseInstanceOf(SQLException.class);
			assertThatExceptionOfType(LeaseStoreException.class)
				.isThrownBy(() -> viaProxy.borrow(request(namespace, 15, TTL, -1, 0)));
			assertThat(row(namespace, 1)).isNull();
			proxy.restore();
			// Slower than HikariCP's 500 ms alive-bypass window, so the pool replaces the connections the cut killed.
			WorkerLease renewed = await().atMost(Duration.ofSeconds(15))
				.pollInterval(Duration.ofMillis(700))
				.ignoreException(LeaseStoreException.class)
				.until(() -> viaProxy.renew(lease, 2000), (l) -> true);
			assertThat(renewed.workerId()).isZero();
			assertThat(renewed.timestampCeiling()).isEqualTo(2000);
			assertThat(row(namespace, 0).owner()).isEqualTo(lease.ownerToken());
			assertThat(this.manager.borrow(request(namespace, 15, TTL, -1, 0)).workerId()).isEqualTo(1);
		}
	}

	protected static LeaseRequest request(String namespace, int maxWorkerId, Duration ttl, int preferred,
			long ceiling) {
		return new LeaseRequest(namespace, maxWorkerId, ttl, preferred, "host-a/1", ceiling);
	}

	private static String newNamespace() {
		return TestDatabase.unique("ns-");
	}

	private void insertRow(String namespace, int workerId, @Nullable String owner, long expiresAt, long maxTimestamp) {
		this.database.execute("INSERT INTO " + this.table + " (namespace, worker_id, owner_token, instance, expires_at, "
				+ "max_timestamp, updated_at) VALUES ('" + namespace + "', " + workerId + ", "
				+ ((owner != null) ? "'" + owner + "'" : "NULL") + ", NULL, " + expiresAt + ", " + maxTimestamp + ", 0)");
	}

	protected @Nullable LeaseRow row(String namespace, int workerId) {
		try (Connection connection = this.database.dataSource().getConnection();
				PreparedStatement select = connection.prepareStatement("SELECT owner_token, instance, expires_at, "
						+ "max_timestamp FROM " + this.table + " WHERE namespace = ? AND worker_id = ?")) {
			select.setString(1, namespace);
			select.setInt(2, workerId);
			try (ResultSet row = select.executeQuery()) {
				if (!row.next()) {
					return null;
				}
				return new LeaseRow(row.getString(1), row.getString(2), row.getLong(3), row.getLong(4));
			}
		}
		catch (SQLException ex) {
			throw new IllegalStateException(ex);
		}
	}

	private List<@Nullable Object> rawRow(String tableName, String namespace, int workerId) {
		try (Connection connection = this.database.dataSource().getConnection();
				PreparedStatement select = connection.prepareStatement("SELECT owner_token, instance, expires_at, "
						+ "max_timestamp FROM " + tableName + " WHERE namespace = ? AND worker_id = ?")) {
			select.setString(1, namespace);
			select.setInt(2, workerId);
			try (ResultSet row = select.executeQuery()) {
				assertThat(row.next()).isTrue();
				List<@Nullable Object> values = new ArrayList<>();
				values.add(row.getString(1));
				values.add(row.getString(2));
				for (int column = 3; column <= 4; column++) {
					long value = row.getLong(column);
					values.add(row.wasNull() ? null : value);
				}
				return values;
			}
		}
		catch (SQLException ex) {
			throw new IllegalStateException(ex);
		}
	}

	private long dbNow() {
		try (Connection connection = this.database.dataSource().getConnection();
				PreparedStatement select = connection
					.prepareStatement("SELECT " + this.database.dialect().currentTimeMillis());
				ResultSet row = select.executeQuery()) {
			row.next();
			return row.getLong(1);
		}
		catch (SQLException ex) {
			throw new IllegalStateException(ex);
		}
	}

	/**
	 * A lease row as stored.
	 */
	protected record LeaseRow(@Nullable String owner, @Nullable String instance, long expiresAt, long maxTimestamp) {
	}

}
