package io.idstarter.store.jdbc;

import java.lang.reflect.Method;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.SQLException;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;

import javax.sql.DataSource;

import org.jspecify.annotations.Nullable;

/**
 * Connections, transactions and error descriptions shared by the JDBC stores.
 */
final class JdbcAccess {

	/** A table name: an SQL identifier, optionally qualified by a schema, each part at most 63 characters. */
	private static final Pattern TABLE_NAME = Pattern.compile("([A-Za-z_][A-Za-z0-9_]{0,62}\\.)?[A-Za-z_][A-Za-z0-9_]{0,62}");

	/** SQLStates of "table does not exist": PostgreSQL (42P01), MySQL, MariaDB and H2 (42S02). */
	private static final Set<String> MISSING_TABLE_STATES = Set.of("42P01", "42S02");

	/** H2's error codes for a missing table (H2 2.x reports SQLState 42S02 with these codes). */
	private static final Set<Integer> H2_MISSING_TABLE_CODES = Set.of(42102, 42103, 42104);

	/** MySQL/MariaDB error code for a duplicate key (SQLState 23000 covers other violations too). */
	private static final int MYSQL_DUPLICATE_KEY = 1062;

	/** Secrets a JDBC URL may carry as parameters. */
	private static final Pattern URL_SECRET = Pattern.compile("(?i)(password|pwd|passwd|secret)=[^&;]*");

	/** Credentials before the host ({@code //user:password@host}). */
	private static final Pattern URL_USER_INFO = Pattern.compile("//[^/@]*@");

	/** A JDBC URL's connection parameters: from the first {@code ?} or {@code ;} (H2, SQL Server) to the end. */
	private static final Pattern URL_PARAMETERS = Pattern.compile("[?;].*$");

	/** How far down a chain of causes and next exceptions the SQLState checks look. */
	private static final int MAX_CAUSE_DEPTH = 16;

	private final DataSource dataSource;

	private final String storeName;

	/** Where the database is, for messages: from the DataSource until a connection reports its URL; then fixed. */
	private volatile String location;

	/** Whether {@link #location} and {@link #dialect} were read from a connection's metadata; only goes to true. */
	private volatile boolean inspected;

	/** The database's dialect once a connection was inspected; {@code null} before or if not supported. */
	private volatile @Nullable JdbcDialect dialect;

	/** The product name the database reported, for "not supported" messages. */
	private volatile @Nullable String productName;

	JdbcAccess(DataSource dataSource, String storeName) {
		this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
		this.storeName = storeName;
		this.location = locationOf(dataSource);
	}

	/**
	 * Opens a connection and, on the first one, records the database's URL and dialect.
	 */
	Connection connect() throws SQLException {
		Connection connection = this.dataSource.getConnection();
		if (!this.inspected) {
			try {
				DatabaseMetaData metaData = connection.getMetaData();
				String url = metaData.getURL();
				if (url != null) {
					this.location = maskUrl(url);
				}
				this.productName = metaData.getDatabaseProductName();
				this.dialect = JdbcDialect.find(this.productName);
				this.inspected = true;
			}
			catch (SQLException | RuntimeException ex) {
				closeQuietly(connection, ex);
				throw ex;
			}
		}
		return connection;
	}

	/**
	 * Returns the dialect of the database; call after {@link #connect()}.
	 * @return the dialect, or {@code null} if the database is not one with a shipped schema script
	 */
	@Nullable JdbcDialect dialect() {
		return this.dialect;
	}

	String unsupportedMessage() {
		return describe() + ": " + JdbcDialect.unsupported(this.productName);
	}

	/**
	 * Names the store for messages, e.g. {@code JDBC segment store at jdbc:postgresql://db:5432/app}.
	 */
	String describe() {
		return this.storeName + " at " + this.location;
	}

	/**
	 * Names the store's number space for the node's files ({@code identity()} of the stores): the URL the database
	 * reports, without credentials and without its connection parameters (a timeout or TLS setting changed is not
	 * another database), the catalog, and the table.
	 * @param table the store's table
	 * @return the identity
	 * @throws SQLException if no connection can be opened
	 */
	String identity(String table) throws SQLException {
		try (Connection connection = connect()) {
			String database = URL_PARAMETERS.matcher(this.location).replaceFirst("");
			return this.storeName + " at " + database + ", " + connection.getCatalog() + ", table " + table;
		}
	}

	/**
	 * Explains why an operation failed: a missing table names the table and the script that creates it; anything
	 * else names the store and the driver's error.
	 * @param action what was being done, such as {@code allocate a range of key 'order'}
	 * @param table the table involved
	 * @param ex the driver's exception
	 * @return the message
	 */
	String failureMessage(String action, String table, SQLException ex) {
		if (isMissingTable(ex)) {
			JdbcDialect known = this.dialect;
			String script = (known != null) ? "classpath:" + known.schemaLocation()
					: "the schema script for your database (classpath:io/idstarter/store/jdbc/schema-*.sql)";
			return "Cannot " + action + ": table '" + table + "' does not exist in the " + describe()
					+ "; create it with " + script + " (JdbcSchema.initialize(dataSource) runs it)";
		}
		return "Cannot " + action + ": the " + describe() + " failed or cannot be reached (SQLState "
				+ ex.getSQLState() + ", error " + ex.getErrorCode() + "): " + ex.getMessage();
	}

	/**
	 * Runs work in one transaction at READ COMMITTED, committing on success and rolling back on any failure, and
	 * restores the connection's auto-commit mode and isolation level as it found them.
	 */
	static <T> T inTransaction(Connection connection, SqlWork<T> work) throws SQLException {
		return inTransaction(connection, true, work);
	}

	/**
	 * Runs work in one transaction whose isolation level the work sets itself in its first statement (PostgreSQL's
	 * {@code SET TRANSACTION ISOLATION LEVEL}), committing on success and rolling back on any failure, and restores
	 * the connection's auto-commit mode. Saves the round trip in which the driver reads the connection's level (and,
	 * where it differs, the two that change it and back).
	 */
	static <T> T inTransactionAtItsOwnLevel(Connection connection, SqlWork<T> work) throws SQLException {
		return inTransaction(connection, false, work);
	}

	private static <T> T inTransaction(Connection connection, boolean readCommitted, SqlWork<T> work)
			throws SQLException {
		boolean autoCommit = connection.getAutoCommit();
		int isolation = readCommitted ? connection.getTransactionIsolation() : Connection.TRANSACTION_NONE;
		boolean switchIsolation = isolation != Connection.TRANSACTION_READ_COMMITTED
				&& isolation != Connection.TRANSACTION_NONE;
		@Nullable Throwable failure = null;
		try {
			if (switchIsolation) {
				connection.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
			}
			if (autoCommit) {
				connection.setAutoCommit(false);
			}
			T result = work.run(connection);
			connection.commit();
			return result;
		}
		catch (SQLException | RuntimeException | Error ex) {
			failure = ex;
			try {
				connection.rollback();
			}
			catch (SQLException rollbackFailure) {
				ex.addSuppressed(rollbackFailure);
			}
			throw ex;
		}
		finally {
			restore(connection, autoCommit, switchIsolation ? isolation : Connection.TRANSACTION_NONE, failure);
		}
	}

	/**
	 * Runs work that is a single statement as its own transaction: as is in auto-commit mode, otherwise followed by a
	 * commit (or a rollback on failure), so the connection's mode is never changed.
	 */
	static <T> T committed(Connection connection, SqlWork<T> work) throws SQLException {
		if (connection.getAutoCommit()) {
			return work.run(connection);
		}
		try {
			T result = work.run(connection);
			connection.commit();
			return result;
		}
		catch (SQLException | RuntimeException | Error ex) {
			try {
				connection.rollback();
			}
			catch (SQLException rollbackFailure) {
				ex.addSuppressed(rollbackFailure);
			}
			throw ex;
		}
	}

	/**
	 * Whether an exception says that a concurrent transaction won (serialization failure or deadlock), so the same
	 * work may be tried again or elsewhere.
	 */
	static boolean isConcurrencyConflict(SQLException ex) {
		Throwable current = ex;
		for (int depth = 0; current != null && depth < MAX_CAUSE_DEPTH; depth++, current = next(current)) {
			if (current instanceof SQLException sql) {
				if ("40001".equals(sql.getSQLState()) || "40P01".equals(sql.getSQLState())) {
					return true;
				}
			}
		}
		return false;
	}

	/**
	 * Puts back auto-commit and, unless {@code isolation} is {@code TRANSACTION_NONE}, the isolation level.
	 */
	private static void restore(Connection connection, boolean autoCommit, int isolation,
			@Nullable Throwable failure) throws SQLException {
		try {
			if (autoCommit) {
				connection.setAutoCommit(true);
			}
			if (isolation != Connection.TRANSACTION_NONE) {
				connection.setTransactionIsolation(isolation);
			}
		}
		catch (SQLException ex) {
			if (failure == null) {
				throw ex;
			}
			// The connection is most likely broken; the pool discards it. Report the first failure.
			failure.addSuppressed(ex);
		}
	}

	/**
	 * Whether an exception says that a table does not exist, by SQLState and error code, never by message text.
	 */
	static boolean isMissingTable(SQLException ex) {
		Throwable current = ex;
		for (int depth = 0; current != null && depth < MAX_CAUSE_DEPTH; depth++, current = next(current)) {
			if (current instanceof SQLException sql) {
				if (MISSING_TABLE_STATES.contains(String.valueOf(sql.getSQLState()))
						|| H2_MISSING_TABLE_CODES.contains(sql.getErrorCode())) {
					return true;
				}
			}
		}
		return false;
	}

	/**
	 * Whether an exception is a primary-key (unique) violation.
	 */
	static boolean isDuplicateKey(SQLException ex) {
		Throwable current = ex;
		for (int depth = 0; current != null && depth < MAX_CAUSE_DEPTH; depth++, current = next(current)) {
			if (current instanceof SQLException sql) {
				if ("23505".equals(sql.getSQLState())
						|| ("23000".equals(sql.getSQLState()) && sql.getErrorCode() == MYSQL_DUPLICATE_KEY)) {
					return true;
				}
			}
		}
		return false;
	}

	private static @Nullable Throwable next(Throwable current) {
		if (current instanceof SQLException sql && sql.getNextException() != null) {
			return sql.getNextException();
		}
		return (current.getCause() != current) ? current.getCause() : null;
	}

	/**
	 * Checks a table name.
	 * @param tableName the name
	 * @return the name
	 * @throws IllegalArgumentException if it is not an SQL identifier
	 */
	static String checkTableName(String tableName) {
		Objects.requireNonNull(tableName, "tableName");
		if (!TABLE_NAME.matcher(tableName).matches()) {
			throw new IllegalArgumentException("table name must be an SQL identifier (a letter or '_', then letters, "
					+ "digits or '_', at most 63 characters, optionally 'schema.' in front): '" + tableName + "'");
		}
		return tableName;
	}

	/**
	 * Removes passwords from a JDBC URL.
	 */
	static String maskUrl(String url) {
		String masked = URL_SECRET.matcher(url).replaceAll("$1=***");
		return URL_USER_INFO.matcher(masked).replaceFirst("//***@");
	}

	/*
	 * The URL before any connection succeeded: DataSource has no standard accessor, so try the getters of the common
	 * implementations (HikariCP getJdbcUrl, H2 getURL, PostgreSQL and MariaDB getUrl); otherwise name the class.
	 */
	private static String locationOf(DataSource dataSource) {
		for (String getter : new String[] { "getJdbcUrl", "getUrl", "getURL" }) {
			try {
				Method method = dataSource.getClass().getMethod(getter);
				if (method.getReturnType() == String.class) {
					Object url = method.invoke(dataSource);
					if (url != null) {
						return maskUrl((String) url);
					}
				}
			}
			catch (ReflectiveOperationException | RuntimeException ex) {
				// Not this getter; try the next.
			}
		}
		return dataSource.getClass().getName();
	}

	private static void closeQuietly(Connection connection, Throwable failure) {
		try {
			connection.close();
		}
		catch (SQLException ex) {
			failure.addSuppressed(ex);
		}
	}

	/**
	 * Work done on a connection.
	 */
	@FunctionalInterface
	interface SqlWork<T> {

		T run(Connection connection) throws SQLException;

	}

}
