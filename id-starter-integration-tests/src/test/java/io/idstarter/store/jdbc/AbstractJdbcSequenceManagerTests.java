package io.idstarter.store.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

import io.idstarter.lease.LeaseLostException;
import io.idstarter.lease.LeaseRequest;
import io.idstarter.lease.LeaseStoreException;
import io.idstarter.lease.NoFreeWorkerIdException;
import io.idstarter.lease.WorkerLease;
import io.idstarter.testsupport.TcpProxy;
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
 * Behaviour of {@link JdbcSequenceManager} that every supported database must show; subclasses name the database.
 * Each class works in a lease table of its own ({@code id_worker_lease_<random>}), dropped at the end, and each test
 * in namespaces of its own.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class AbstractJdbcSequenceManagerTests {

	private static final Duration TTL = Duration.ofSeconds(30);

	protected TestDatabase database;

	protected String table;

	protected JdbcSequenceManager manager;

	private String segmentTable;

	private final List<String> extraTables = new ArrayList<>();

	protected abstract TestDatabase openDatabase();

	@BeforeAll
	void createTable() {
		this.database = openDatabase();
		this.table = TestDatabase.unique("id_worker_lease_");
		this.segmentTable = TestDatabase.unique("leaf_alloc_");
		JdbcSchema.initialize(this.database.dataSource(), this.segmentTable, this.table);
		this.manager = new JdbcSequenceManager(this.database.dataSource(), this.table);
	}

	@AfterAll
	void dropTables() {
		if (this.database != null) {
			this.database.dropTables(this.table, this.segmentTable);
			this.database.dropTables(this.extraTables.toArray(String[]::new));
			this.database.close();
		}
	}

	@Test
	void excludedSlotsAreNeverHandedOutWhetherFreeOrNeverUsed() {
		String namespace = namespace();
		List<WorkerLease> all = new ArrayList<>();
		for (int i = 0; i < 3; i++) {
			all.add(this.manager.borrow(new LeaseRequest(namespace, 3, Duration.ofSeconds(30), -1, "node-a", 0)));
		}
		this.manager.release(all.get(0), -1);
		this.manager.release(all.get(1), -1);
		int excludedFree = all.get(0).workerId();
		int neverUsed = 6 - all.get(0).workerId() - all.get(1).workerId() - all.get(2).workerId();
		java.util.Set<Integer> excluded = java.util.Set.of(excludedFree, neverUsed);
		WorkerLease lease = this.manager
			.borrow(new LeaseRequest(namespace, 3, Duration.ofSeconds(30), -1, "node-b", 0, excluded));
		assertThat(lease.workerId()).isEqualTo(all.get(1).workerId());
		assertThatExceptionOfType(NoFreeWorkerIdException.class).isThrownBy(() -> this.manager
			.borrow(new LeaseRequest(namespace, 3, Duration.ofSeconds(30), -1, "node-c", 0, excluded)));
		assertThat(this.manager.borrow(new LeaseRequest(namespace, 3, Duration.ofSeconds(30), -1, "node-d", 0))
			.workerId()).isIn(excludedFree, neverUsed);
	}

	@Test
	void aFreshNamespaceLendsSlotZeroWithNoFloorAndTheRequestedCeiling() {
		String namespace = namespace();
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
	void eachBorrowTakesADifferentSlot() {
		String namespace = namespace();
		List<Integer> workerIds = IntStream.range(0, 3)
			.mapToObj((i) -> this.manager.borrow(request(namespace, 15, TTL, -1, 0)).workerId())
			.toList();
		assertThat(workerIds).containsExactly(0, 1, 2);
	}

	@Test
	void thePreferredSlotIsTakenWhenFreeAndPassedOverWhenHeld() {
		String namespace = namespace();
		WorkerLease first = this.manager.borrow(request(namespace, 15, TTL, 5, 1000));
		assertThat(first.workerId()).isEqualTo(5);
		this.manager.release(first, 900);
		WorkerLease again = this.manager.borrow(request(namespace, 15, TTL, 5, 2000));
		assertThat(again.workerId()).isEqualTo(5);
		assertThat(again.timestampFloor()).isEqualTo(900);
		assertThat(again.timestampCeiling()).isEqualTo(2000);
		WorkerLease other = this.manager.borrow(request(namespace, 15, TTL, 5, 2000));
		assertThat(other.workerId()).isZero();
	}

	@Test
	void freeSlotsAreReusedLongestFreeFirstBeforeSlotsNeverUsed() throws InterruptedException {
		String namespace = namespace();
		List<WorkerLease> leases = new ArrayList<>();
		for (int i = 0; i < 3; i++) {
			leases.add(this.manager.borrow(request(namespace, 15, TTL, -1, 0)));
		}
		this.manager.release(leases.get(1), -1);
		Thread.sleep(20);
		this.manager.release(leases.get(0), -1);
		assertThat(this.manager.borrow(request(namespace, 15, TTL, -1, 0)).workerId()).isEqualTo(1);
		assertThat(this.manager.borrow(request(namespace, 15, TTL, -1, 0)).workerId()).isEqualTo(0);
		assertThat(this.manager.borrow(request(namespace, 15, TTL, -1, 0)).workerId()).isEqualTo(3);
	}

	@Test
	void anExpiredLeaseIsTakenOverAboveThePreviousCeilingAndTheOldOwnerCanNeitherRenewNorRelease() {
		String namespace = namespace();
		Duration ttl = Duration.ofSeconds(1);
		long ceilingA = System.currentTimeMillis() + 60_000;
		WorkerLease a = this.manager.borrow(request(namespace, 0, ttl, -1, ceilingA));
		assertThatExceptionOfType(NoFreeWorkerIdException.class)
			.isThrownBy(() -> this.manager.borrow(request(namespace, 0, ttl, -1, 0)));
		WorkerLease b = await().atMost(Duration.ofSeconds(10))
			.pollInterval(Duration.ofMillis(100))
			.ignoreException(NoFreeWorkerIdException.class)
			.until(() -> this.manager.borrow(request(namespace, 0, ttl, -1, 10)), (lease) -> true);
		assertThat(b.workerId()).isZero();
		assertThat(b.ownerToken()).isNotEqualTo(a.ownerToken());
		assertThat(b.timestampFloor()).isEqualTo(ceilingA);
		assertThat(b.timestampCeiling()).isEqualTo(ceilingA);
		// Both times come from the database's clock: the take happened after A's lease ended by that clock.
		assertThat(b.storeTimeMillis()).isGreaterThan(a.storeTimeMillis() + ttl.toMillis());
		LeaseRow held = row(namespace, 0);
		assertThatExceptionOfType(LeaseLostException.class).isThrownBy(() -> this.manager.renew(a, ceilingA + 1))
			.withMessageContaining("Worker ID 0 of namespace '" + namespace + "'")
			.withMessageContaining("owner token " + a.ownerToken())
			.withMessageContaining("held by instance 'host-a/1' with owner token " + b.ownerToken());
		this.manager.release(a, 5);
		assertThat(row(namespace, 0)).isEqualTo(held);
	}

	@Test
	void renewExtendsTheLeaseByTheDatabaseClockAndOnlyRaisesTheMark() {
		String namespace = namespace();
		WorkerLease lease = this.manager.borrow(request(namespace, 15, TTL, -1, 1000));
		WorkerLease raised = this.manager.renew(lease, 5000);
		assertThat(raised.timestampCeiling()).isEqualTo(5000);
		assertThat(raised.timestampFloor()).isEqualTo(-1);
		assertThat(raised.ownerToken()).isEqualTo(lease.ownerToken());
		assertThat(raised.storeTimeMillis()).isGreaterThanOrEqualTo(lease.storeTimeMillis());
		assertThat(row(namespace, 0).expiresAt()).isEqualTo(raised.storeTimeMillis() + TTL.toMillis());
		WorkerLease kept = this.manager.renew(raised, 2000);
		assertThat(kept.timestampCeiling()).isEqualTo(5000);
		assertThat(row(namespace, 0).maxTimestamp()).isEqualTo(5000);
	}

	@Test
	void renewAndReleaseWithAnotherOwnerTokenChangeNothing() {
		String namespace = namespace();
		WorkerLease lease = this.manager.borrow(request(namespace, 15, TTL, -1, 1000));
		WorkerLease impostor = new WorkerLease(namespace, 0, "not-the-owner", TTL, -1, 1000, 0);
		LeaseRow before = row(namespace, 0);
		assertThatExceptionOfType(LeaseLostException.class).isThrownBy(() -> this.manager.renew(impostor, 9000))
			.withMessageContaining("Worker ID 0 of namespace '" + namespace + "'")
			.withMessageContaining("owner token not-the-owner")
			.withMessageContaining(lease.ownerToken());
		this.manager.release(impostor, 10);
		assertThat(row(namespace, 0)).isEqualTo(before);
		WorkerLease neverBorrowed = new WorkerLease(namespace, 7, "nobody", TTL, -1, 1000, 0);
		assertThatExceptionOfType(LeaseLostException.class).isThrownBy(() -> this.manager.renew(neverBorrowed, 9000))
			.withMessageContaining("Worker ID 7")
			.withMessageContaining("gone");
		assertThat(row(namespace, 7)).isNull();
	}

	@Test
	void releaseFreesTheSlotAndSetsTheMarkToTheReportedTimestampNeverBelowTheFloor() {
		String namespace = namespace();
		WorkerLease lease = this.manager.borrow(request(namespace, 15, TTL, -1, 10_000));
		lease = this.manager.renew(lease, 20_000);
		this.manager.release(lease, 15_000);
		LeaseRow released = row(namespace, 0);
		assertThat(released.owner()).isNull();
		assertThat(released.maxTimestamp()).isEqualTo(15_000);
		assertThat(released.expiresAt()).isLessThanOrEqualTo(dbNow());

		WorkerLease next = this.manager.borrow(request(namespace, 15, TTL, -1, 16_000));
		assertThat(next.workerId()).isZero();
		assertThat(next.timestampFloor()).isEqualTo(15_000);
		next = this.manager.renew(next, 30_000);
		this.manager.release(next, -1);
		assertThat(row(namespace, 0).maxTimestamp()).isEqualTo(30_000);

		WorkerLease third = this.manager.borrow(request(namespace, 15, TTL, -1, 0));
		assertThat(third.timestampFloor()).isEqualTo(30_000);
		this.manager.release(third, 100);
		assertThat(row(namespace, 0).maxTimestamp()).isEqualTo(30_000);
	}

	@Test
	void concurrentBorrowersGetEverySlotOnceAndTheNextBorrowFindsNoneFree() throws Exception {
		String namespace = namespace();
		// First race: every slot is new (INSERT); second race: every slot was released (conditional UPDATE).
		List<WorkerLease> inserted = borrowAllConcurrently(namespace);
		inserted.forEach((lease) -> this.manager.release(lease, -1));
		List<WorkerLease> taken = borrowAllConcurrently(namespace);
		assertThat(taken).extracting(WorkerLease::timestampFloor).containsOnly(0L);
		assertThatExceptionOfType(NoFreeWorkerIdException.class)
			.isThrownBy(() -> this.manager.borrow(request(namespace, 15, TTL, 3, 0)))
			.withMessageContaining("namespace '" + namespace + "'")
			.withMessageContaining("all 16 slots [0, 15]");
		for (WorkerLease lease : taken) {
			assertThat(row(namespace, lease.workerId()).owner()).isEqualTo(lease.ownerToken());
		}
	}

	private List<WorkerLease> borrowAllConcurrently(String namespace) throws Exception {
		List<List<WorkerLease>> perThread = AbstractJdbcSegmentStoreTests.runConcurrently(4, () -> {
			List<WorkerLease> mine = new ArrayList<>();
			while (true) {
				try {
					mine.add(this.manager.borrow(request(namespace, 15, TTL, -1, 0)));
				}
				catch (NoFreeWorkerIdException ex) {
					return mine;
				}
			}
		});
		List<WorkerLease> all = perThread.stream().flatMap(List::stream).toList();
		assertThat(all).extracting(WorkerLease::workerId)
			.containsExactlyInAnyOrderElementsOf(IntStream.rangeClosed(0, 15).boxed().toList());
		assertThat(all).extracting(WorkerLease::ownerToken).doesNotHaveDuplicates();
		return all;
	}

	@Test
	void aRowOutsideTheLayoutIsReportedAndLeftUnchanged() {
		String namespace = namespace();
		insertRow(namespace, 99, "someone", 0, 12345);
		LeaseRow before = row(namespace, 99);
		assertThatExceptionOfType(LeaseStoreException.class)
			.isThrownBy(() -> this.manager.borrow(request(namespace, 15, TTL, -1, 0)))
			.withMessageContaining("row (namespace '" + namespace + "', worker_id 99)")
			.withMessageContaining("table '" + this.table + "'")
			.withMessageContaining("outside [0, 15]")
			.withMessageContaining("left unchanged");
		assertThat(row(namespace, 99)).isEqualTo(before);
		assertThat(row(namespace, 0)).isNull();
	}

	@Test
	void aRowWithANegativeMarkIsReportedAndLeftUnchanged() {
		String namespace = namespace();
		insertRow(namespace, 3, null, 0, -5);
		assertThatExceptionOfType(LeaseStoreException.class)
			.isThrownBy(() -> this.manager.borrow(request(namespace, 15, TTL, 3, 0)))
			.withMessageContaining("worker_id 3")
			.withMessageContaining("max_timestamp is -5");
		assertThat(row(namespace, 3)).isEqualTo(new LeaseRow(null, null, 0, -5));
	}

	@Test
	void aHeldRowWhoseMarkWasCorruptedIsReportedOnRenewAndLeftUnchanged() {
		String namespace = namespace();
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
		JdbcSequenceManager onLenient = new JdbcSequenceManager(this.database.dataSource(), lenient);
		String nullMark = namespace();
		this.database.execute("INSERT INTO " + lenient + " VALUES ('" + nullMark + "', 2, NULL, NULL, 0, NULL, 0)");
		assertThatExceptionOfType(LeaseStoreException.class)
			.isThrownBy(() -> onLenient.borrow(request(nullMark, 15, TTL, -1, 0)))
			.withMessageContaining("row (namespace '" + nullMark + "', worker_id 2)")
			.withMessageContaining("max_timestamp is NULL");
		String nullExpiry = namespace();
		this.database.execute("INSERT INTO " + lenient + " VALUES ('" + nullExpiry + "', 4, NULL, NULL, NULL, -1, 0)");
		assertThatExceptionOfType(LeaseStoreException.class)
			.isThrownBy(() -> onLenient.borrow(request(nullExpiry, 15, TTL, -1, 0)))
			.withMessageContaining("worker_id 4")
			.withMessageContaining("expires_at is NULL");
		String heldThenNulled = namespace();
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
		String namespace = namespace();
		try (Connection connection = this.database.dataSource().getConnection()) {
			connection.setAutoCommit(false);
			JdbcSequenceManager onOneConnection = new JdbcSequenceManager(
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
	void aMissingTableIsReportedWithTheScriptThatCreatesIt() {
		String missing = TestDatabase.unique("no_such_lease_table_");
		JdbcSequenceManager lost = new JdbcSequenceManager(this.database.dataSource(), missing);
		assertThatExceptionOfType(LeaseStoreException.class)
			.isThrownBy(() -> lost.borrow(request(namespace(), 15, TTL, -1, 0)))
			.withMessageContaining("table '" + missing + "' does not exist")
			.withMessageContaining("classpath:" + this.database.dialect().schemaLocation())
			.withMessageContaining("JDBC lease store at jdbc:");
	}

	@Test
	void invalidTableNamesAreRejected() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new JdbcSequenceManager(this.database.dataSource(), "lease; DROP TABLE x"))
			.withMessageContaining("SQL identifier");
	}

	@Test
	void anOutageIsReportedAndTheLeaseSurvivesIt() {
		String namespace = namespace();
		try (TcpProxy proxy = this.database.startProxy()) {
			JdbcSequenceManager viaProxy = new JdbcSequenceManager(this.database.dataSourceThrough(proxy), this.table);
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

	private static String namespace() {
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
