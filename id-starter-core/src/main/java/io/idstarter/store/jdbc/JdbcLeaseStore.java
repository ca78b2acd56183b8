package io.idstarter.store.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;

import javax.sql.DataSource;

import io.idstarter.lease.ISequenceManager;
import io.idstarter.lease.LeaseLostException;
import io.idstarter.lease.LeaseRequest;
import io.idstarter.lease.LeaseStoreException;
import io.idstarter.lease.NoFreeWorkerIdException;
import io.idstarter.lease.SlotMark;
import io.idstarter.lease.SlotOrder;
import io.idstarter.lease.WorkerLease;
import io.idstarter.snowflake.RecordedLayout;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An {@link ISequenceManager} that leases worker IDs from a table (MySQL/MariaDB, PostgreSQL, H2), one row per slot
 * ever used. Lease expiry is judged by the database's clock, never by the nodes' clocks.
 *
 * <p>Give it a {@link DataSource} whose connections are not bound to the caller's transaction.
 *
 * <p>A namespace's layout record ({@link #recordLayout}) is a row of the same table with the reserved worker ID
 * {@value #LAYOUT_WORKER_ID}: its {@code instance} column holds the layout's stored form, its {@code owner_token} is
 * {@code NULL} and its {@code max_timestamp} {@code -1}. No slot statement matches that row, so it is never lent,
 * counted or listed as a slot, and no schema change is needed.
 *
 * @see JdbcSchema
 */
public class JdbcLeaseStore implements ISequenceManager {

	/*
	 * Table: one row per (namespace, worker_id) ever used. owner_token is NULL when the slot was released;
	 * expires_at and updated_at are milliseconds since the Unix epoch by the database's clock ("now" below is that
	 * clock, read inside the statement); max_timestamp is the slot's high-water mark, -1 for none.
	 *
	 * Every change is a single conditional statement, committed on its own, so two nodes can never both win:
	 *   take     UPDATE ... SET owner_token = mine, expires_at = now + ttl, max_timestamp = max(seen, requested)
	 *            WHERE slot AND (owner_token IS NULL OR expires_at < now) AND max_timestamp = seen
	 *            "seen" is the mark read by the scan before; comparing it makes the scan's value the floor: if an
	 *            owner raised or lowered the mark since, the take fails and the slot is looked at again.
	 *   new slot INSERT ...; a primary-key violation means another node took that slot first: try the next one.
	 *   renew    UPDATE ... SET expires_at = now + ttl, max_timestamp = GREATEST(max_timestamp, requested)
	 *            WHERE slot AND owner_token = mine
	 *   release  UPDATE ... SET owner_token = NULL, expires_at = now, max_timestamp = reported
	 *            WHERE slot AND owner_token = mine
	 * A take or insert is followed by a read of its own row, only to learn the database time it used
	 * (expires_at - ttl). Borrowing scans the namespace once and tries the slots in SlotOrder's order, a slot free
	 * since its expires_at (which release sets to the time of release); it scans again when every candidate was lost
	 * to a concurrent borrower. Rows above the request's maxWorkerId belong to a wider layout and are passed over. Rows
	 * that cannot be right (negative worker_id, mark below -1, NULLs) stop the borrow with an error naming the row; no
	 * statement here ever matches such a row, so it stays as it is.
	 *
	 * Layout record: the row (namespace, LAYOUT_WORKER_ID), the text in its instance column. Recording is one INSERT
	 * (a primary-key violation means another node recorded first: read that row); reading, what the nodes do on every
	 * renewal, is one SELECT, so that no renewal sends an INSERT that fails; replacing is one UPDATE whose
	 * WHERE compares the text byte for byte (MySQL's default collations would ignore case and trailing spaces). The
	 * scans of slots pass over that row, and only that row: any other negative worker_id is still reported.
	 */

	/** Worker ID of the row that holds a namespace's layout record; never a slot. */
	public static final int LAYOUT_WORKER_ID = -1;

	/** Table used when none is given. */
	public static final String DEFAULT_TABLE_NAME = "id_worker_lease";

	/** Width of the {@code instance} column; longer instance names are cut. */
	static final int MAX_INSTANCE_LENGTH = 255;

	/** How many times a borrow scans the namespace again after losing every candidate to concurrent borrowers. */
	private static final int MAX_SCANS = 5;

	/** Stands for a NULL {@code max_timestamp} read back from a row (a valid mark is never below -1). */
	private static final long NULL_MARK = Long.MIN_VALUE;

	/** Placeholder for the dialect's "current time in milliseconds" expression in the statements below. */
	private static final String NOW = ":now";

	private static final Logger logger = LoggerFactory.getLogger(JdbcLeaseStore.class);

	private final JdbcAccess access;

	private final String tableName;

	/** Statements for the database's dialect, built on the first connection; never changes after. */
	private volatile @Nullable Statements statements;

	/**
	 * Creates a manager on the {@value #DEFAULT_TABLE_NAME} table.
	 * @param dataSource where the table is
	 */
	public JdbcLeaseStore(DataSource dataSource) {
		this(dataSource, DEFAULT_TABLE_NAME);
	}

	/**
	 * Creates a manager on a lease table.
	 * @param dataSource where the table is
	 * @param tableName the table, an SQL identifier optionally qualified by a schema
	 * @throws IllegalArgumentException if the table name is not an SQL identifier
	 */
	public JdbcLeaseStore(DataSource dataSource, String tableName) {
		this.tableName = JdbcAccess.checkTableName(tableName);
		this.access = new JdbcAccess(dataSource, "JDBC lease store");
	}

	/**
	 * Returns the table this manager uses.
	 * @return the table name
	 */
	public String getTableName() {
		return this.tableName;
	}

	@Override
	public WorkerLease borrow(LeaseRequest request) {
		Objects.requireNonNull(request, "request");
		String action = "borrow a worker ID in namespace '" + request.namespace() + "'";
		String ownerToken = UUID.randomUUID().toString();
		try (Connection connection = this.access.connect()) {
			Statements sql = statements(action);
			for (int scan = 0; scan < MAX_SCANS; scan++) {
				Slots slots = scan(connection, sql, request, action);
				Outcome outcome = tryCandidates(connection, sql, request, slots, ownerToken);
				if (outcome.lease != null) {
					logger.debug("Borrowed worker ID {} of namespace '{}' from table '{}' (floor {}, ceiling {})",
							outcome.lease.workerId(), request.namespace(), this.tableName,
							outcome.lease.timestampFloor(), outcome.lease.timestampCeiling());
					return outcome.lease;
				}
				if (!outcome.attempted) {
					throw noFreeWorkerId(request, "");
				}
			}
			throw noFreeWorkerId(request, ", or free but taken by concurrent borrowers in each of " + MAX_SCANS
					+ " scans");
		}
		catch (SQLException ex) {
			throw failure(action, ex);
		}
	}

	private Slots scan(Connection connection, Statements sql, LeaseRequest request, String action)
			throws SQLException {
		return JdbcAccess.committed(connection, (c) -> {
			try (PreparedStatement select = c.prepareStatement(sql.scan)) {
				select.setString(1, request.namespace());
				try (ResultSet rows = select.executeQuery()) {
					Map<Integer, SlotRow> byWorkerId = new HashMap<>();
					long now = 0;
					while (rows.next()) {
						now = rows.getLong(5);
						if (rows.getInt(1) > request.maxWorkerId()) {
							// A slot of a wider layout sharing the namespace: not this borrower's to take or judge.
							continue;
						}
						SlotRow row = readSlotRow(rows, request.namespace(), action);
						byWorkerId.put(row.workerId, row);
					}
					return new Slots(byWorkerId, now);
				}
			}
		});
	}

	private SlotRow readSlotRow(ResultSet rows, String namespace, String action) throws SQLException {
		int workerId = rows.getInt(1);
		String owner = rows.getString(2);
		long expiresAt = rows.getLong(3);
		boolean expiresAtNull = rows.wasNull();
		long maxTimestamp = rows.getLong(4);
		boolean maxTimestampNull = rows.wasNull();
		@Nullable String problem = null;
		if (workerId < 0) {
			problem = "worker_id is negative (the row was edited); delete the row";
		}
		else if (expiresAtNull) {
			problem = "expires_at is NULL; fix or delete the row";
		}
		else if (maxTimestampNull || maxTimestamp < -1) {
			problem = "max_timestamp is " + (maxTimestampNull ? "NULL" : Long.toString(maxTimestamp))
					+ ", must be -1 or a timestamp; fix the row with the greatest timestamp its owners issued";
		}
		if (problem != null) {
			throw new LeaseStoreException("Cannot " + action + ": row (namespace '" + namespace + "', worker_id "
					+ workerId + ") of table '"
					+ this.tableName + "' in the " + this.access.describe() + " is corrupt: " + problem
					+ "; the row was left unchanged");
		}
		return new SlotRow(workerId, owner, expiresAt, maxTimestamp);
	}

	private Outcome tryCandidates(Connection connection, Statements sql, LeaseRequest request, Slots slots,
			String ownerToken) throws SQLException {
		List<SlotOrder.UsedSlot<SlotRow>> used = new ArrayList<>();
		for (SlotRow row : slots.byWorkerId.values()) {
			used.add(new SlotOrder.UsedSlot<>(row.workerId, row.isFree(slots.now), row.expiresAt, row));
		}
		boolean attempted = false;
		for (SlotOrder.Candidate<SlotRow> candidate : SlotOrder.candidates(request, used)) {
			attempted = true;
			SlotOrder.UsedSlot<SlotRow> row = candidate.used();
			WorkerLease lease = (row != null) ? tryTake(connection, sql, request, row.read(), ownerToken)
					: tryInsert(connection, sql, request, candidate.workerId(), ownerToken);
			if (lease != null) {
				return new Outcome(lease, true);
			}
		}
		return new Outcome(null, attempted);
	}

	private @Nullable WorkerLease tryTake(Connection connection, Statements sql, LeaseRequest request, SlotRow row,
			String ownerToken) throws SQLException {
		long ttl = request.ttl().toMillis();
		long ceiling = Math.max(row.maxTimestamp, request.timestampCeiling());
		int updated;
		try {
			updated = JdbcAccess.committed(connection, (c) -> {
				try (PreparedStatement take = c.prepareStatement(sql.take)) {
					take.setString(1, ownerToken);
					take.setString(2, instance(request));
					take.setLong(3, ttl);
					take.setLong(4, ceiling);
					take.setString(5, request.namespace());
					take.setInt(6, row.workerId);
					take.setLong(7, row.maxTimestamp);
					return take.executeUpdate();
				}
			});
		}
		catch (SQLException ex) {
			if (JdbcAccess.isConcurrencyConflict(ex)) {
				return null;
			}
			throw ex;
		}
		if (updated == 0) {
			return null;
		}
		return granted(connection, sql, request, row.workerId, ownerToken, row.maxTimestamp);
	}

	private @Nullable WorkerLease tryInsert(Connection connection, Statements sql, LeaseRequest request, int workerId,
			String ownerToken) throws SQLException {
		long ttl = request.ttl().toMillis();
		try {
			JdbcAccess.committed(connection, (c) -> {
				try (PreparedStatement insert = c.prepareStatement(sql.insert)) {
					insert.setString(1, request.namespace());
					insert.setInt(2, workerId);
					insert.setString(3, ownerToken);
					insert.setString(4, instance(request));
					insert.setLong(5, ttl);
					insert.setLong(6, Math.max(-1, request.timestampCeiling()));
					return insert.executeUpdate();
				}
			});
		}
		catch (SQLException ex) {
			if (JdbcAccess.isDuplicateKey(ex) || JdbcAccess.isConcurrencyConflict(ex)) {
				return null;
			}
			throw ex;
		}
		return granted(connection, sql, request, workerId, ownerToken, -1);
	}

	/**
	 * Reads back a slot just taken, for the database time of the grant and the stored mark.
	 */
	private WorkerLease granted(Connection connection, Statements sql, LeaseRequest request, int workerId,
			String ownerToken, long floor) throws SQLException {
		SlotRow row = inspect(connection, sql, request.namespace(), workerId);
		if (row == null || !ownerToken.equals(row.owner)) {
			throw new LeaseStoreException("Cannot borrow a worker ID in namespace '" + request.namespace()
					+ "': worker ID " + workerId + " was taken and then found " + describeHolder(row) + " in the "
					+ this.access.describe() + " (is the lease TTL shorter than the database round trip?)");
		}
		long ttl = request.ttl().toMillis();
		return new WorkerLease(request.namespace(), workerId, ownerToken, request.ttl(), floor, row.maxTimestamp,
				row.expiresAt - ttl);
	}

	@Override
	public WorkerLease renew(WorkerLease lease, long timestampCeiling) {
		Objects.requireNonNull(lease, "lease");
		long ttl = ttlMillis(lease.ttl());
		String action = "renew worker ID " + lease.workerId() + " of namespace '" + lease.namespace() + "'";
		try (Connection connection = this.access.connect()) {
			Statements sql = statements(action);
			int updated = JdbcAccess.committed(connection, (c) -> {
				try (PreparedStatement renew = c.prepareStatement(sql.renew)) {
					renew.setLong(1, ttl);
					renew.setLong(2, timestampCeiling);
					renew.setString(3, lease.namespace());
					renew.setInt(4, lease.workerId());
					renew.setString(5, lease.ownerToken());
					return renew.executeUpdate();
				}
			});
			SlotRow row = inspect(connection, sql, lease.namespace(), lease.workerId());
			if (row == null || !lease.ownerToken().equals(row.owner)) {
				throw LeaseLostException.notHeld(lease, store(), "the slot is " + describeHolder(row));
			}
			if (updated == 0) {
				// Still ours, so the only condition that failed is the mark's: the row is corrupt.
				throw new LeaseStoreException("Cannot " + action + ": row (namespace '" + lease.namespace()
						+ "', worker_id " + lease.workerId() + ") of table '" + this.tableName + "' in the "
						+ this.access.describe() + " is corrupt: max_timestamp is " + markText(row.maxTimestamp)
						+ ", must be -1 or a timestamp; the row was left unchanged");
			}
			return new WorkerLease(lease.namespace(), lease.workerId(), lease.ownerToken(), lease.ttl(),
					lease.timestampFloor(), row.maxTimestamp, row.expiresAt - ttl);
		}
		catch (SQLException ex) {
			throw failure(action, ex);
		}
	}

	@Override
	public void release(WorkerLease lease, long lastIssuedTimestamp) {
		Objects.requireNonNull(lease, "lease");
		String action = "release worker ID " + lease.workerId() + " of namespace '" + lease.namespace() + "'";
		boolean report = lastIssuedTimestamp >= 0;
		try (Connection connection = this.access.connect()) {
			Statements sql = statements(action);
			int updated = JdbcAccess.committed(connection, (c) -> {
				try (PreparedStatement release = c.prepareStatement(report ? sql.releaseReporting : sql.release)) {
					int index = 1;
					if (report) {
						// Never below the floor: timestamps up to it may have been issued by a previous owner.
						release.setLong(index++, Math.max(lastIssuedTimestamp, lease.timestampFloor()));
					}
					release.setString(index++, lease.namespace());
					release.setInt(index++, lease.workerId());
					release.setString(index, lease.ownerToken());
					return release.executeUpdate();
				}
			});
			if (updated == 0) {
				logger.info("Worker ID {} of namespace '{}' was no longer held by owner token {} in table '{}'; "
						+ "nothing to release", lease.workerId(), lease.namespace(), lease.ownerToken(),
						this.tableName);
			}
		}
		catch (SQLException ex) {
			throw failure(action, ex);
		}
	}

	@Override
	public String recordLayout(String namespace, String layout) {
		Objects.requireNonNull(namespace, "namespace");
		RecordedLayout.requireStorable("layout", layout);
		String action = "record the layout of namespace '" + namespace + "'";
		try (Connection connection = this.access.connect()) {
			Statements sql = statements(action);
			// A record is never deleted by this store, so a lost insert finds one to read; retried if deleted by hand.
			for (int attempt = 0; attempt < 3; attempt++) {
				if (insertLayout(connection, sql, namespace, layout)) {
					logger.debug("Recorded the layout of namespace '{}' in table '{}': {}", namespace, this.tableName,
							layout);
					return layout;
				}
				LayoutRow recorded = readLayoutRow(connection, sql, namespace);
				if (recorded != null) {
					return recorded.text(action, namespace);
				}
			}
			throw new LeaseStoreException("Cannot " + action + ": its row (worker_id " + LAYOUT_WORKER_ID
					+ ") of table '" + this.tableName + "' in the " + this.access.describe()
					+ " kept being deleted while it was written; stop whatever deletes it");
		}
		catch (SQLException ex) {
			throw failure(action, ex);
		}
	}

	private boolean insertLayout(Connection connection, Statements sql, String namespace, String layout)
			throws SQLException {
		try {
			JdbcAccess.committed(connection, (c) -> {
				try (PreparedStatement insert = c.prepareStatement(sql.insertLayout)) {
					insert.setString(1, namespace);
					insert.setString(2, layout);
					return insert.executeUpdate();
				}
			});
			return true;
		}
		catch (SQLException ex) {
			if (JdbcAccess.isDuplicateKey(ex) || JdbcAccess.isConcurrencyConflict(ex)) {
				return false;
			}
			throw ex;
		}
	}

	private @Nullable LayoutRow readLayoutRow(Connection connection, Statements sql, String namespace)
			throws SQLException {
		return JdbcAccess.committed(connection, (c) -> {
			try (PreparedStatement select = c.prepareStatement(sql.readLayout)) {
				select.setString(1, namespace);
				try (ResultSet row = select.executeQuery()) {
					return row.next() ? new LayoutRow(row.getString(1), row.getString(2)) : null;
				}
			}
		});
	}

	@Override
	public @Nullable String readLayout(String namespace) {
		Objects.requireNonNull(namespace, "namespace");
		String action = "read the layout of namespace '" + namespace + "'";
		try (Connection connection = this.access.connect()) {
			LayoutRow recorded = readLayoutRow(connection, statements(action), namespace);
			return (recorded != null) ? recorded.text(action, namespace) : null;
		}
		catch (SQLException ex) {
			throw failure(action, ex);
		}
	}

	@Override
	public boolean replaceLayout(String namespace, String expected, String replacement) {
		Objects.requireNonNull(namespace, "namespace");
		Objects.requireNonNull(expected, "expected");
		RecordedLayout.requireStorable("replacement", replacement);
		String action = "replace the layout of namespace '" + namespace + "'";
		try (Connection connection = this.access.connect()) {
			Statements sql = statements(action);
			int updated = JdbcAccess.committed(connection, (c) -> {
				try (PreparedStatement replace = c.prepareStatement(sql.replaceLayout)) {
					replace.setString(1, replacement);
					replace.setString(2, namespace);
					replace.setString(3, expected);
					return replace.executeUpdate();
				}
			});
			if (updated > 0) {
				logger.info("Replaced the layout of namespace '{}' in table '{}': {} (was {})", namespace,
						this.tableName, replacement, expected);
			}
			return updated > 0;
		}
		catch (SQLException ex) {
			throw failure(action, ex);
		}
	}

	@Override
	public List<SlotMark> slotMarks(String namespace) {
		Objects.requireNonNull(namespace, "namespace");
		String action = "read the slot marks of namespace '" + namespace + "'";
		try (Connection connection = this.access.connect()) {
			Statements sql = statements(action);
			return JdbcAccess.committed(connection, (c) -> {
				try (PreparedStatement select = c.prepareStatement(sql.scan)) {
					select.setString(1, namespace);
					try (ResultSet rows = select.executeQuery()) {
						List<SlotMark> marks = new ArrayList<>();
						while (rows.next()) {
							long now = rows.getLong(5);
							SlotRow row = readSlotRow(rows, namespace, action);
							marks.add(new SlotMark(row.workerId, row.maxTimestamp, !row.isFree(now)));
						}
						return marks;
					}
				}
			});
		}
		catch (SQLException ex) {
			throw failure(action, ex);
		}
	}

	private @Nullable SlotRow inspect(Connection connection, Statements sql, String namespace, int workerId)
			throws SQLException {
		return JdbcAccess.committed(connection, (c) -> {
			try (PreparedStatement select = c.prepareStatement(sql.inspect)) {
				select.setString(1, namespace);
				select.setInt(2, workerId);
				try (ResultSet row = select.executeQuery()) {
					if (!row.next()) {
						return null;
					}
					long expiresAt = row.getLong(3);
					long maxTimestamp = row.getLong(4);
					if (row.wasNull()) {
						maxTimestamp = NULL_MARK;
					}
					return new SlotRow(workerId, row.getString(1), expiresAt, maxTimestamp, row.getString(2));
				}
			}
		});
	}

	private static String markText(long maxTimestamp) {
		return (maxTimestamp != NULL_MARK) ? Long.toString(maxTimestamp) : "NULL";
	}

	private static String describeHolder(@Nullable SlotRow row) {
		if (row == null) {
			return "gone (its row was deleted)";
		}
		if (row.owner == null) {
			return "free (released)";
		}
		return "held by instance '" + row.instance + "' with owner token " + row.owner;
	}

	private NoFreeWorkerIdException noFreeWorkerId(LeaseRequest request, String detail) {
		return NoFreeWorkerIdException.allHeld(request, store(), detail);
	}

	/** Where the slots are, in messages. */
	private String store() {
		return "table '" + this.tableName + "' of the " + this.access.describe();
	}

	private Statements statements(String action) {
		Statements current = this.statements;
		if (current == null) {
			JdbcDialect dialect = this.access.dialect();
			if (dialect == null) {
				throw new LeaseStoreException("Cannot " + action + ": the " + this.access.unsupportedMessage());
			}
			current = new Statements(this.tableName, dialect);
			this.statements = current;
		}
		return current;
	}

	@Override
	public String identity() {
		try {
			return this.access.identity(this.tableName);
		}
		catch (SQLException ex) {
			throw failure("read the database's URL", ex);
		}
	}

	private LeaseStoreException failure(String action, SQLException ex) {
		return new LeaseStoreException(this.access.failureMessage(action, this.tableName, ex), ex);
	}

	private static String instance(LeaseRequest request) {
		String instance = request.instance();
		return (instance.length() <= MAX_INSTANCE_LENGTH) ? instance : instance.substring(0, MAX_INSTANCE_LENGTH);
	}

	private static long ttlMillis(Duration ttl) {
		long millis = ttl.toMillis();
		if (millis < 1) {
			throw new IllegalArgumentException("lease ttl must be at least 1ms: " + ttl);
		}
		return millis;
	}

	/**
	 * One slot's row as read.
	 */
	private static final class SlotRow {

		final int workerId;

		final @Nullable String owner;

		final long expiresAt;

		final long maxTimestamp;

		final @Nullable String instance;

		SlotRow(int workerId, @Nullable String owner, long expiresAt, long maxTimestamp) {
			this(workerId, owner, expiresAt, maxTimestamp, null);
		}

		SlotRow(int workerId, @Nullable String owner, long expiresAt, long maxTimestamp, @Nullable String instance) {
			this.workerId = workerId;
			this.owner = owner;
			this.expiresAt = expiresAt;
			this.maxTimestamp = maxTimestamp;
			this.instance = instance;
		}

		boolean isFree(long now) {
			return this.owner == null || this.expiresAt < now;
		}

	}

	/**
	 * A namespace's layout row as read: the text in its {@code instance} column, and its owner token, which a record
	 * written by this store never has.
	 */
	private final class LayoutRow {

		final @Nullable String text;

		final @Nullable String owner;

		LayoutRow(@Nullable String text, @Nullable String owner) {
			this.text = text;
			this.owner = owner;
		}

		String text(String action, String namespace) {
			if (this.text == null || this.text.isEmpty() || this.owner != null) {
				throw new LeaseStoreException("Cannot " + action + ": row (namespace '" + namespace + "', worker_id "
						+ LAYOUT_WORKER_ID + ") of table '" + JdbcLeaseStore.this.tableName + "' in the "
						+ JdbcLeaseStore.this.access.describe() + " is not a layout record ("
						+ ((this.owner != null) ? "it has owner_token '" + this.owner + "'"
								: "its instance column, where the layout is kept, is "
										+ ((this.text == null) ? "NULL" : "empty"))
						+ "); worker_id " + LAYOUT_WORKER_ID + " is reserved for the layout: delete the row and "
						+ "restart a node of the namespace to record its layout again");
			}
			return this.text;
		}

	}

	/**
	 * A namespace as scanned: its rows by worker ID, and the database's time of the scan.
	 */
	private record Slots(Map<Integer, SlotRow> byWorkerId, long now) {
	}

	/**
	 * What trying the candidates of one scan gave: a lease, or none and whether any slot looked free.
	 */
	private record Outcome(@Nullable WorkerLease lease, boolean attempted) {
	}

	/**
	 * The SQL of one table and dialect.
	 */
	private static final class Statements {

		final String scan;

		final String take;

		final String insert;

		final String inspect;

		final String renew;

		final String release;

		final String releaseReporting;

		final String insertLayout;

		final String readLayout;

		final String replaceLayout;

		Statements(String table, JdbcDialect dialect) {
			String now = dialect.currentTimeMillis();
			// Every slot of the namespace; the layout record's row is not one.
			this.scan = sql("SELECT worker_id, owner_token, expires_at, max_timestamp, :now FROM " + table
					+ " WHERE namespace = ? AND worker_id <> " + LAYOUT_WORKER_ID, now);
			this.take = sql("UPDATE " + table + " SET owner_token = ?, instance = ?, expires_at = :now + ?, "
					+ "max_timestamp = ?, updated_at = :now WHERE namespace = ? AND worker_id = ? "
					+ "AND (owner_token IS NULL OR expires_at < :now) AND max_timestamp = ?", now);
			this.insert = sql("INSERT INTO " + table + " (namespace, worker_id, owner_token, instance, expires_at, "
					+ "max_timestamp, updated_at) VALUES (?, ?, ?, ?, :now + ?, ?, :now)", now);
			this.inspect = "SELECT owner_token, instance, expires_at, max_timestamp FROM " + table
					+ " WHERE namespace = ? AND worker_id = ?";
			this.renew = sql("UPDATE " + table + " SET expires_at = :now + ?, "
					+ "max_timestamp = GREATEST(max_timestamp, ?), updated_at = :now "
					+ "WHERE namespace = ? AND worker_id = ? AND owner_token = ? AND max_timestamp >= -1", now);
			this.release = sql("UPDATE " + table + " SET owner_token = NULL, expires_at = :now, updated_at = :now "
					+ "WHERE namespace = ? AND worker_id = ? AND owner_token = ? AND max_timestamp >= -1", now);
			this.releaseReporting = sql("UPDATE " + table + " SET owner_token = NULL, expires_at = :now, "
					+ "max_timestamp = ?, updated_at = :now "
					+ "WHERE namespace = ? AND worker_id = ? AND owner_token = ? AND max_timestamp >= -1", now);
			this.insertLayout = sql("INSERT INTO " + table + " (namespace, worker_id, owner_token, instance, "
					+ "expires_at, max_timestamp, updated_at) VALUES (?, " + LAYOUT_WORKER_ID + ", NULL, ?, 0, -1, "
					+ ":now)", now);
			this.readLayout = "SELECT instance, owner_token FROM " + table + " WHERE namespace = ? AND worker_id = "
					+ LAYOUT_WORKER_ID;
			this.replaceLayout = sql("UPDATE " + table + " SET instance = ?, updated_at = :now WHERE namespace = ? "
					+ "AND worker_id = " + LAYOUT_WORKER_ID + " AND owner_token IS NULL AND "
					+ dialect.exactlyEquals("instance", "?"), now);
		}

		private static String sql(String template, String now) {
			return template.replace(NOW, now);
		}

	}

}
