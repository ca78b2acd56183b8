package io.idstarter.store.jdbc;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import javax.sql.DataSource;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Creates the tables of the JDBC stores with the schema script shipped for the database, leaving tables that exist
 * as they are.
 */
public final class JdbcSchema {

	private static final Logger logger = LoggerFactory.getLogger(JdbcSchema.class);

	/** Whole-word occurrences of the default segment table name in the scripts. */
	private static final Pattern SEGMENT_TABLE = Pattern.compile("\\b" + JdbcSegmentStore.DEFAULT_TABLE_NAME + "\\b");

	/** Whole-word occurrences of the default lease table name in the scripts. */
	private static final Pattern LEASE_TABLE = Pattern.compile("\\b" + JdbcLeaseStore.DEFAULT_TABLE_NAME + "\\b");

	private JdbcSchema() {
	}

	/**
	 * Checks a table name the stores are given: they write it into SQL, so only an identifier, optionally qualified by
	 * a schema, is accepted.
	 * @param tableName the name
	 * @return the name
	 * @throws IllegalArgumentException if it is not an SQL identifier (a letter or '_', then letters, digits or '_',
	 * at most 63 characters, optionally {@code schema.} in front)
	 */
	public static String checkTableName(String tableName) {
		return JdbcAccess.checkTableName(tableName);
	}

	/**
	 * Creates the {@value JdbcSegmentStore#DEFAULT_TABLE_NAME} and {@value JdbcLeaseStore#DEFAULT_TABLE_NAME}
	 * tables unless they exist.
	 * @param dataSource the database
	 * @throws IllegalStateException if the database is not supported or the script fails
	 */
	public static void initialize(DataSource dataSource) {
		initialize(dataSource, JdbcSegmentStore.DEFAULT_TABLE_NAME, JdbcLeaseStore.DEFAULT_TABLE_NAME);
	}

	/**
	 * Creates the segment and lease tables under the given names unless they exist.
	 * @param dataSource the database
	 * @param segmentTableName the table of {@link JdbcSegmentStore}
	 * @param leaseTableName the table of {@link JdbcLeaseStore}
	 * @throws IllegalArgumentException if a table name is not an SQL identifier
	 * @throws IllegalStateException if the database is not supported or the script fails
	 */
	public static void initialize(DataSource dataSource, String segmentTableName, String leaseTableName) {
		Objects.requireNonNull(dataSource, "dataSource");
		JdbcAccess.checkTableName(segmentTableName);
		JdbcAccess.checkTableName(leaseTableName);
		JdbcAccess access = new JdbcAccess(dataSource, "database");
		String location = null;
		try (Connection connection = access.connect()) {
			JdbcDialect dialect = access.dialect();
			if (dialect == null) {
				throw new IllegalStateException("Cannot create the id-starter tables: the " + access.unsupportedMessage());
			}
			location = dialect.schemaLocation();
			String script = read(location);
			script = SEGMENT_TABLE.matcher(script).replaceAll(Matcher.quoteReplacement(segmentTableName));
			script = LEASE_TABLE.matcher(script).replaceAll(Matcher.quoteReplacement(leaseTableName));
			for (String sql : statements(script)) {
				JdbcAccess.committed(connection, (c) -> {
					try (Statement statement = c.createStatement()) {
						return statement.execute(sql);
					}
				});
			}
			logger.info("Ran classpath:{} on the {} (tables '{}' and '{}')", location, access.describe(),
					segmentTableName, leaseTableName);
		}
		catch (SQLException ex) {
			throw new IllegalStateException("Cannot create the id-starter tables '" + segmentTableName + "' and '"
					+ leaseTableName + "' in the " + access.describe()
					+ ((location != null) ? " with classpath:" + location : "") + ": " + ex.getMessage(), ex);
		}
	}

	/**
	 * Returns the schema script of a database as shipped, with the default table names.
	 * @param dialect the database
	 * @return the script's text
	 */
	public static String script(JdbcDialect dialect) {
		return read(dialect.schemaLocation());
	}

	private static String read(String location) {
		try (InputStream in = JdbcSchema.class.getClassLoader().getResourceAsStream(location)) {
			if (in == null) {
				throw new IllegalStateException("schema script classpath:" + location + " is missing");
			}
			return new String(in.readAllBytes(), StandardCharsets.UTF_8);
		}
		catch (IOException ex) {
			throw new IllegalStateException("cannot read schema script classpath:" + location, ex);
		}
	}

	/**
	 * Splits a script into statements: {@code --} comment lines are dropped and statements end with {@code ;}.
	 */
	static List<String> statements(String script) {
		StringBuilder text = new StringBuilder();
		for (String line : script.split("\\R")) {
			if (!line.strip().startsWith("--")) {
				text.append(line).append('\n');
			}
		}
		List<String> statements = new ArrayList<>();
		for (String statement : text.toString().split(";")) {
			if (!statement.isBlank()) {
				statements.add(statement.strip());
			}
		}
		return statements;
	}

}
