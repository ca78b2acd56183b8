package io.idstarter.store.jdbc;

import java.sql.DatabaseMetaData;
import java.sql.SQLException;
import java.util.Locale;

import org.jspecify.annotations.Nullable;

/**
 * The databases the JDBC stores support, with the SQL that differs between them.
 */
public enum JdbcDialect {

	/** MySQL and MariaDB. */
	MYSQL("mysql", "(TIMESTAMPDIFF(MICROSECOND, '1970-01-01 00:00:00', UTC_TIMESTAMP(6)) DIV 1000)"),

	/** PostgreSQL. */
	POSTGRESQL("postgresql", "CAST(FLOOR(EXTRACT(EPOCH FROM clock_timestamp()) * 1000) AS BIGINT)"),

	/** H2. */
	H2("h2", "DATEDIFF(MILLISECOND, TIMESTAMP WITH TIME ZONE '1970-01-01 00:00:00+00', CURRENT_TIMESTAMP)");

	/** Folder of the schema scripts on the classpath. */
	private static final String SCRIPT_FOLDER = "io/idstarter/store/jdbc/";

	private final String scriptSuffix;

	/*
	 * The database's clock as milliseconds since the Unix epoch (UTC), independent of the session time zone.
	 * PostgreSQL: clock_timestamp() is the time of the call; now() would be the start of the transaction.
	 * MySQL/MariaDB: UTC_TIMESTAMP(6) is the start of the statement; TIMESTAMPDIFF from the epoch avoids
	 * UNIX_TIMESTAMP(NOW()), which reads NOW() in the session time zone and is ambiguous in a daylight-saving fall-back
	 * hour. H2: CURRENT_TIMESTAMP is fixed per transaction, so the lease store keeps its transactions to one step.
	 */
	private final String currentTimeMillis;

	JdbcDialect(String scriptSuffix, String currentTimeMillis) {
		this.scriptSuffix = scriptSuffix;
		this.currentTimeMillis = currentTimeMillis;
	}

	/**
	 * Returns where the schema script of this database is on the classpath.
	 * @return a classpath resource path, such as {@code io/idstarter/store/jdbc/schema-mysql.sql}
	 */
	public String schemaLocation() {
		return SCRIPT_FOLDER + "schema-" + this.scriptSuffix + ".sql";
	}

	/**
	 * Returns an SQL expression for the database's current time in milliseconds since the Unix epoch.
	 * @return the expression, a {@code BIGINT}
	 */
	String currentTimeMillis() {
		return this.currentTimeMillis;
	}

	/**
	 * Returns an SQL condition that two strings are equal character for character: case, accents and trailing spaces
	 * count (MySQL's and MariaDB's usual collations ignore them in {@code =}).
	 * @param left an SQL expression
	 * @param right an SQL expression
	 * @return the condition
	 */
	String exactlyEquals(String left, String right) {
		return (this == MYSQL) ? "CAST(" + left + " AS BINARY) = CAST(" + right + " AS BINARY)"
				: left + " = " + right;
	}

	/**
	 * Returns a query of one row whose columns together change whenever a row is added to a table or removed from it,
	 * and not when other columns change: the number of rows and sums of 64 bits of hashes of a column. The database
	 * reads the column (its primary key index where it can); one row comes back.
	 * @param table the table
	 * @param column the column, the table's primary key
	 * @return the query
	 */
	String rowSetChecksum(String table, String column) {
		return switch (this) {
			// Two 32-bit checksums of the bytes, forwards and backwards.
			case MYSQL -> "SELECT COUNT(*), COALESCE(SUM(CRC32(" + column + ")), 0), COALESCE(SUM(CRC32(REVERSE("
					+ column + "))), 0) FROM " + table;
			// The 64-bit hash that hash partitioning uses (PostgreSQL 11 and later).
			case POSTGRESQL -> "SELECT COUNT(*), COALESCE(SUM(hashtextextended(" + column + ", 0)), 0) FROM " + table;
			// Two 32-bit hashes with different seeds.
			case H2 -> "SELECT COUNT(*), COALESCE(SUM(ORA_HASH(" + column + ", 4294967295, 0)), 0), COALESCE(SUM("
					+ "ORA_HASH(" + column + ", 4294967295, 1)), 0) FROM " + table;
		};
	}

	/**
	 * Returns the dialect of a connected database.
	 * @param metaData the connection's metadata
	 * @return the dialect
	 * @throws SQLException if the metadata cannot be read
	 * @throws IllegalStateException if the database is not one the JDBC stores support
	 */
	public static JdbcDialect of(DatabaseMetaData metaData) throws SQLException {
		String product = metaData.getDatabaseProductName();
		JdbcDialect dialect = find(product);
		if (dialect == null) {
			throw new IllegalStateException(unsupported(product));
		}
		return dialect;
	}

	/**
	 * Returns the dialect for a database product name as JDBC reports it.
	 * @param productName {@link DatabaseMetaData#getDatabaseProductName()}
	 * @return the dialect, or {@code null} if the database is not supported
	 */
	static @Nullable JdbcDialect find(@Nullable String productName) {
		if (productName == null) {
			return null;
		}
		String name = productName.toLowerCase(Locale.ROOT);
		if (name.contains("mysql") || name.contains("mariadb")) {
			return MYSQL;
		}
		if (name.contains("postgresql")) {
			return POSTGRESQL;
		}
		if (name.equals("h2")) {
			return H2;
		}
		return null;
	}

	static String unsupported(@Nullable String productName) {
		return "database '" + productName + "' is not supported by the id-starter JDBC stores; supported: MySQL, "
				+ "MariaDB, PostgreSQL, H2";
	}

}
