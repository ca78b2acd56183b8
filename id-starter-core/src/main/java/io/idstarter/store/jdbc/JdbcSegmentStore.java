package io.idstarter.store.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.Objects;
import java.util.Set;

import javax.sql.DataSource;

import io.idstarter.segment.SegmentAllocation;
import io.idstarter.segment.SegmentKeyAdmin;
import io.idstarter.segment.SegmentKeys;
import io.idstarter.segment.SegmentStore;
import io.idstarter.segment.SegmentKeyExhaustedException;
import io.idstarter.segment.SegmentStoreException;
import io.idstarter.segment.UnknownKeyException;
import org.jspecify.annotations.Nullable;

/**
 * A {@link SegmentStore} on a table with Leaf's {@code leaf_alloc} layout (MySQL/MariaDB, PostgreSQL, H2). Pointed at
 * the table of a running Leaf installation, it continues where Leaf left off: a key's next range is
 * {@code [max_id, max_id + step)}, and {@code max_id} is moved to its end.
 *
 * <p>Keys, steps, first IDs and descriptions follow {@link SegmentKeys}; anything else is rejected with an
 * {@link IllegalArgumentException} before the database is touched.
 *
 * <p>Give it a {@link DataSource} whose connections are not bound to the caller's transaction (a connection pool, not
 * a transaction-aware proxy): an allocation rolled back with the caller's work would hand the same range out again.
 *
 * @see JdbcSchema
 */
public class JdbcSegmentStore implements SegmentStore, SegmentKeyAdmin {

	/*
	 * Allocation protocol. One transaction at READ COMMITTED per allocation:
	 *   1. SELECT max_id, step ... FOR UPDATE  -- takes the row's write lock; concurrent allocators of the key, in any
	 *                                             process, wait here, and then read the value the winner committed.
	 *   2. check the row in Java: step >= 1, max_id >= 0, max_id + size <= Long.MAX_VALUE; a bad row is reported and
	 *      left untouched (the transaction is rolled back).
	 *   3. UPDATE ... SET max_id = max_id + size WHERE biz_tag = ? AND max_id = <read value>, and commit.
	 * The range is [read max_id, read max_id + size): exactly Leaf's [max_id_after - step, max_id_after). The
	 * compare in step 3 is redundant under the lock and only guards against a database that ignores FOR UPDATE.
	 * A failure before the commit returns nothing and moves nothing. A failure after the commit (the connection drops
	 * before the driver sees the reply) loses the range: a gap, never a duplicate. Nothing is retried.
	 */

	/** Table used when none is given; Leaf's name. */
	public static final String DEFAULT_TABLE_NAME = "leaf_alloc";

	private final JdbcAccess access;

	private final String tableName;

	private final String selectForUpdateSql;

	private final String advanceSql;

	private final String selectKeysSql;

	private final String existsSql;

	private final String insertSql;

	private final String updateStepSql;

	private final String raiseSql;

	private final String giveBackSql;

	private final String deleteSql;

	private final String descriptionSql;

	/**
	 * Creates a store on the {@value #DEFAULT_TABLE_NAME} table.
	 * @param dataSource where the table is
	 */
	public JdbcSegmentStore(DataSource dataSource) {
		this(dataSource, DEFAULT_TABLE_NAME);
	}

	/**
	 * Creates a store on a table with the {@code leaf_alloc} layout.
	 * @param dataSource where the table is
	 * @param tableName the table, an SQL identifier optionally qualified by a schema
	 * @throws IllegalArgumentException if the table name is not an SQL identifier
	 */
	public JdbcSegmentStore(DataSource dataSource, String tableName) {
		this.tableName = JdbcAccess.checkTableName(tableName);
		this.access = new JdbcAccess(dataSource, "JDBC segment store");
		this.selectForUpdateSql = "SELECT max_id, step FROM " + tableName + " WHERE biz_tag = ? FOR UPDATE";
		this.advanceSql = "UPDATE " + tableName
				+ " SET max_id = max_id + ?, update_time = CURRENT_TIMESTAMP WHERE biz_tag = ? AND max_id = ?";
		this.selectKeysSql = "SELECT biz_tag FROM " + tableName + " ORDER BY biz_tag";
		this.existsSql = "SELECT 1 FROM " + tableName + " WHERE biz_tag = ?";
		this.insertSql = "INSERT INTO " + tableName
				+ " (biz_tag, max_id, step, description, update_time) VALUES (?, ?, ?, ?, CURRENT_TIMESTAMP)";
		this.updateStepSql = "UPDATE " + tableName
				+ " SET step = ?, update_time = CURRENT_TIMESTAMP WHERE biz_tag = ?";
		this.raiseSql = "UPDATE " + tableName
				+ " SET max_id = ?, update_time = CURRENT_TIMESTAMP WHERE biz_tag = ? AND max_id < ?";
		this.giveBackSql = "UPDATE " + tableName
				+ " SET max_id = ?, update_time = CURRENT_TIMESTAMP WHERE biz_tag = ? AND max_id = ?";
		this.deleteSql = "DELETE FROM " + tableName + " WHERE biz_tag = ?";
		this.descriptionSql = "SELECT description FROM " + tableName + " WHERE biz_tag = ?";
	}

	/**
	 * Returns the table this store uses.
	 * @return the table name
	 */
	public String getTableName() {
		return this.tableName;
	}

	@Override
	public SegmentAllocation allocate(String key) {
		SegmentKeys.checkKey(key);
		return allocateRange(key, 0);
	}

	@Override
	public SegmentAllocation allocate(String key, int step) {
		SegmentKeys.checkKey(key);
		SegmentKeys.checkStep(key, step);
		return allocateRange(key, step);
	}

	/**
	 * Allocates a range of the given size, or of the key's configured step when {@code size} is 0.
	 */
	private SegmentAllocation allocateRange(String key, int size) {
		try (Connection connection = this.access.connect()) {
			return JdbcAccess.inTransaction(connection, (c) -> {
				long maxId;
				int configuredStep;
				try (PreparedStatement select = c.prepareStatement(this.selectForUpdateSql)) {
					select.setString(1, key);
					try (ResultSet row = select.executeQuery()) {
						if (!row.next()) {
							throw new UnknownKeyException(key);
						}
						maxId = row.getLong(1);
						boolean maxIdNull = row.wasNull();
						configuredStep = row.getInt(2);
						if (maxIdNull || row.wasNull()) {
							throw corrupt(key, "has a null max_id or step");
						}
					}
				}
				long rangeSize = (size != 0) ? size : configuredStep;
				checkRow(key, maxId, configuredStep, rangeSize);
				try (PreparedStatement advance = c.prepareStatement(this.advanceSql)) {
					advance.setLong(1, rangeSize);
					advance.setString(2, key);
					advance.setLong(3, maxId);
					if (advance.executeUpdate() != 1) {
						throw new SegmentStoreException("Cannot allocate a range of key '" + key + "': its row in table '"
								+ this.tableName + "' changed while locked (max_id was " + maxId + "); the "
								+ this.access.describe() + " does not honour SELECT ... FOR UPDATE");
					}
				}
				return new SegmentAllocation(key, maxId, maxId + rangeSize, configuredStep);
			});
		}
		catch (SQLException ex) {
			throw failure("allocate a range of key '" + key + "'", ex);
		}
	}

	private void checkRow(String key, long maxId, int configuredStep, long rangeSize) {
		if (configuredStep < 1) {
			throw corrupt(key, "has step " + configuredStep + "; step must be at least 1 (fix the row with "
					+ "updateStep or SQL)");
		}
		if (maxId < 0) {
			throw corrupt(key, "has max_id " + maxId + "; max_id must not be negative");
		}
		if (maxId > Long.MAX_VALUE - rangeSize) {
			throw new SegmentKeyExhaustedException(key, "Cannot allocate a range of key '" + key + "': max_id " + maxId
					+ " + step " + rangeSize + " would pass Long.MAX_VALUE (" + Long.MAX_VALUE
					+ "); the key's numbers are used up, move to a new key", Long.MAX_VALUE - maxId);
		}
	}

	private SegmentStoreException corrupt(String key, String problem) {
		return new SegmentStoreException("Cannot allocate a range of key '" + key + "': its row in table '"
				+ this.tableName + "' of the " + this.access.describe() + " " + problem + "; the row was left unchanged");
	}

	@Override
	public Set<String> keys() {
		try (Connection connection = this.access.connect();
				PreparedStatement select = connection.prepareStatement(this.selectKeysSql);
				ResultSet rows = select.executeQuery()) {
			Set<String> keys = new LinkedHashSet<>();
			while (rows.next()) {
				keys.add(rows.getString(1));
			}
			return Collections.unmodifiableSet(keys);
		}
		catch (SQLException ex) {
			throw failure("list the keys", ex);
		}
	}

	/**
	 * Looks the key's row up by its primary key: one row at most, whatever the number of keys.
	 */
	@Override
	public boolean containsKey(String key) {
		try (Connection connection = this.access.connect()) {
			return exists(connection, key);
		}
		catch (SQLException ex) {
			throw failure("look up key '" + key + "'", ex);
		}
	}

	/**
	 * Returns the number of rows of the table and sums of hashes of their keys (see
	 * {@link JdbcDialect#rowSetChecksum}): one row read, whatever the number of keys, and a value that every key
	 * inserted or deleted changes, by this store or by hand, while allocations (which change other columns) do not.
	 * A change of the list leaves the marker as it was only if the row count stays and both hash sums (64 bits
	 * together) come out the same: about one change in 2^64 for keys that are not chosen to collide, and a change so
	 * missed is still found, a key added when it is first asked for ({@link #containsKey}) and a key removed when a
	 * fetch of it finds it gone.
	 * @return the marker, or {@code null} on a database without a shipped schema script
	 */
	@Override
	public @Nullable String keysMarker() {
		try (Connection connection = this.access.connect()) {
			JdbcDialect dialect = this.access.dialect();
			if (dialect == null) {
				return null;
			}
			String sql = dialect.rowSetChecksum(this.tableName, "biz_tag");
			try (PreparedStatement select = connection.prepareStatement(sql); ResultSet row = select.executeQuery()) {
				row.next();
				StringBuilder marker = new StringBuilder();
				for (int column = 1; column <= row.getMetaData().getColumnCount(); column++) {
					marker.append((column > 1) ? ":" : "").append(row.getString(column));
				}
				return marker.toString();
			}
		}
		catch (SQLException ex) {
			throw failure("read the marker of the key list", ex);
		}
	}

	@Override
	public boolean createKey(String key, long firstId, int step, String description) {
		SegmentKeys.checkNewKey(key, firstId, step, description);
		try (Connection connection = this.access.connect()) {
			if (exists(connection, key)) {
				return false;
			}
			try (PreparedStatement insert = connection.prepareStatement(this.insertSql)) {
				insert.setString(1, key);
				insert.setLong(2, firstId);
				insert.setInt(3, step);
				insert.setString(4, description);
				insert.executeUpdate();
				return true;
			}
			catch (SQLException ex) {
				if (JdbcAccess.isDuplicateKey(ex)) {
					// Another creator inserted the key between our check and our insert: it exists, as asked.
					return false;
				}
				throw ex;
			}
		}
		catch (SQLException ex) {
			throw failure("create key '" + key + "'", ex);
		}
	}

	private boolean exists(Connection connection, String key) throws SQLException {
		try (PreparedStatement select = connection.prepareStatement(this.existsSql)) {
			select.setString(1, key);
			try (ResultSet row = select.executeQuery()) {
				return row.next();
			}
		}
	}

	@Override
	public void updateStep(String key, int step) {
		SegmentKeys.checkKey(key);
		SegmentKeys.checkStep(key, step);
		try (Connection connection = this.access.connect();
				PreparedStatement update = connection.prepareStatement(this.updateStepSql)) {
			update.setInt(1, step);
			update.setString(2, key);
			if (update.executeUpdate() == 0) {
				throw new UnknownKeyException(key);
			}
		}
		catch (SQLException ex) {
			throw failure("change the step of key '" + key + "'", ex);
		}
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

	@Override
	public boolean giveBack(String key, long cursor, long end) {
		SegmentKeys.checkGiveBack(key, cursor, end);
		try (Connection connection = this.access.connect();
				PreparedStatement giveBack = connection.prepareStatement(this.giveBackSql)) {
			giveBack.setLong(1, cursor);
			giveBack.setString(2, key);
			giveBack.setLong(3, end);
			return giveBack.executeUpdate() == 1;
		}
		catch (SQLException ex) {
			throw failure("give back [" + cursor + ", " + end + ") of key '" + key + "'", ex);
		}
	}

	@Override
	public boolean raiseMaxId(String key, long floor) {
		SegmentKeys.checkKey(key);
		try (Connection connection = this.access.connect();
				PreparedStatement raise = connection.prepareStatement(this.raiseSql)) {
			raise.setLong(1, floor);
			raise.setString(2, key);
			raise.setLong(3, floor);
			if (raise.executeUpdate() == 1) {
				return true;
			}
			try (PreparedStatement exists = connection.prepareStatement(this.existsSql)) {
				exists.setString(1, key);
				try (ResultSet row = exists.executeQuery()) {
					if (!row.next()) {
						throw new UnknownKeyException(key);
					}
				}
			}
			return false;
		}
		catch (SQLException ex) {
			throw failure("raise the max_id of key '" + key + "' to " + floor, ex);
		}
	}

	@Override
	public boolean deleteKey(String key) {
		SegmentKeys.checkKey(key);
		try (Connection connection = this.access.connect();
				PreparedStatement delete = connection.prepareStatement(this.deleteSql)) {
			delete.setString(1, key);
			return delete.executeUpdate() > 0;
		}
		catch (SQLException ex) {
			throw failure("delete key '" + key + "'", ex);
		}
	}

	@Override
	public boolean deletesKeys() {
		return true;
	}

	@Override
	public @Nullable String description(String key) {
		SegmentKeys.checkKey(key);
		try (Connection connection = this.access.connect();
				PreparedStatement select = connection.prepareStatement(this.descriptionSql)) {
			select.setString(1, key);
			try (ResultSet row = select.executeQuery()) {
				return row.next() ? Objects.requireNonNullElse(row.getString(1), "") : null;
			}
		}
		catch (SQLException ex) {
			throw failure("read the description of key '" + key + "'", ex);
		}
	}

	private SegmentStoreException failure(String action, SQLException ex) {
		return new SegmentStoreException(this.access.failureMessage(action, this.tableName, ex), ex);
	}

}
