package io.idstarter.autoconfigure.jdbc;

import java.io.IOException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import javax.sql.DataSource;

import io.idstarter.store.jdbc.JdbcSegmentStore;
import io.idstarter.store.jdbc.JdbcLeaseStore;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.boot.jdbc.DatabaseDriver;
import org.springframework.boot.jdbc.init.PropertiesBasedDataSourceScriptDatabaseInitializer;
import org.springframework.core.io.ByteArrayResource;
import org.springframework.core.io.ClassPathResource;
import org.springframework.core.io.Resource;

/**
 * Creates the tables of the JDBC stores at start-up with Spring Boot's script initializer, as
 * {@code id-worker.jdbc.initialize-schema} says ({@code embedded}, {@code always}, {@code never}). Before running the
 * script it checks whether the tables exist, and runs nothing when they do: MariaDB and MySQL check the
 * {@code CREATE} privilege before {@code IF NOT EXISTS}, so an application whose user may not create tables starts
 * against tables that exist. The configured table names replace the defaults in the script. Failures are reported
 * as an {@link IdWorkerSchemaException} that says whether the database was unreachable, the user lacked the
 * privilege, or the script failed.
 *
 * @since 0.1.0
 */
public class IdWorkerSchemaInitializer
		extends PropertiesBasedDataSourceScriptDatabaseInitializer<JdbcStoreProperties> {

	private static final Logger logger = LoggerFactory.getLogger(IdWorkerSchemaInitializer.class);

	/** MariaDB runs the MySQL script. */
	private static final Map<DatabaseDriver, String> PLATFORMS = Map.of(DatabaseDriver.MARIADB, "mysql");

	private final DataSource dataSource;

	private final String segmentTable;

	private final String leaseTable;

	/** The script's location; the platform's own once the script has been resolved. */
	private volatile String schemaLocation;

	/** Whether this initializer found every table in the database: the stores need not look again. */
	private volatile boolean tablesFound;

	/**
	 * Creates an initializer.
	 * @param dataSource the database
	 * @param properties the table names, and when and with which script to create the tables
	 */
	public IdWorkerSchemaInitializer(DataSource dataSource, JdbcStoreProperties properties) {
		super(dataSource, properties, PLATFORMS);
		this.dataSource = dataSource;
		this.segmentTable = properties.getSegmentTable();
		this.leaseTable = properties.getLeaseTable();
		this.schemaLocation = JdbcStoreProperties.DEFAULT_SCHEMA_LOCATION.equals(properties.getSchema())
				? JdbcStoreProperties.SCRIPTS : String.valueOf(properties.getSchema());
	}

	@Override
	public boolean initializeDatabase() {
		try {
			return super.initializeDatabase();
		}
		catch (IdWorkerSchemaException ex) {
			throw ex;
		}
		catch (RuntimeException ex) {
			throw IdWorkerSchemaException.of(tables(), this.schemaLocation, "create", ex);
		}
	}

	@Override
	protected void runScripts(Scripts scripts) {
		for (Resource script : scripts) {
			this.schemaLocation = location(script);
		}
		List<String> missing = missingTables(this.dataSource, tables(), this.schemaLocation);
		if (missing.isEmpty()) {
			logger.debug("Tables {} exist; {} not run", tables(), this.schemaLocation);
			this.tablesFound = true;
			return;
		}
		List<Resource> resources = new ArrayList<>();
		for (Resource script : scripts) {
			resources.add(withTableNames(script, scripts.getEncoding()));
		}
		super.runScripts(new Scripts(resources).continueOnError(scripts.isContinueOnError())
			.separator(scripts.getSeparator())
			.encoding(scripts.getEncoding()));
		logger.info("Created the id-starter tables {} with {}", missing, this.schemaLocation);
	}

	private static String location(Resource script) {
		return (script instanceof ClassPathResource classPath) ? "classpath:" + classPath.getPath()
				: script.getDescription();
	}

	private List<String> tables() {
		return List.of(this.segmentTable, this.leaseTable);
	}

	private Resource withTableNames(Resource script, @Nullable Charset encoding) {
		try {
			String text = script.getContentAsString((encoding != null) ? encoding : StandardCharsets.UTF_8);
			text = replaceWord(text, JdbcSegmentStore.DEFAULT_TABLE_NAME, this.segmentTable);
			text = replaceWord(text, JdbcLeaseStore.DEFAULT_TABLE_NAME, this.leaseTable);
			return new ByteArrayResource(text.getBytes(StandardCharsets.UTF_8), script.getDescription());
		}
		catch (IOException ex) {
			throw new IllegalStateException("Cannot read " + script.getDescription(), ex);
		}
	}

	private static String replaceWord(String text, String word, String replacement) {
		return Pattern.compile("\\b" + Pattern.quote(word) + "\\b")
			.matcher(text)
			.replaceAll(Matcher.quoteReplacement(replacement));
	}

	/**
	 * Returns which of the tables do not exist, asking the database unless this initializer found them all (a table
	 * created by its script is looked for again: a script of the application's own may not create it).
	 * @param tables table names
	 * @return the missing tables
	 * @throws IdWorkerSchemaException if the database cannot be asked
	 */
	public List<String> missingTables(List<String> tables) {
		if (this.tablesFound && tables().containsAll(tables)) {
			return List.of();
		}
		return missingTables(this.dataSource, tables, JdbcStoreProperties.SCRIPTS);
	}

	/**
	 * Returns which of the tables do not exist in the current catalog and schema of the database.
	 * @param dataSource the database
	 * @param tables table names
	 * @param schemaLocation the script that creates them, for messages
	 * @return the missing tables
	 * @throws IdWorkerSchemaException if the database cannot be asked
	 */
	static List<String> missingTables(DataSource dataSource, List<String> tables, String schemaLocation) {
		try (Connection connection = dataSource.getConnection()) {
			DatabaseMetaData metaData = connection.getMetaData();
			List<String> missing = new ArrayList<>();
			for (String table : tables) {
				if (!exists(metaData, connection.getCatalog(), connection.getSchema(), table)) {
					missing.add(table);
				}
			}
			return missing;
		}
		catch (SQLException ex) {
			throw IdWorkerSchemaException.of(tables, schemaLocation, "check", ex);
		}
	}

	private static boolean exists(DatabaseMetaData metaData, @Nullable String catalog, @Nullable String schema,
			String table) throws SQLException {
		int dot = table.lastIndexOf('.');
		String name = table.substring(dot + 1);
		if (dot > 0) {
			// A qualified name: its qualifier is a schema (PostgreSQL, H2) or a database, that is a catalog (MySQL).
			String qualifier = table.substring(0, dot);
			return exists(metaData, null, qualifier, name, name) || exists(metaData, qualifier, null, name, name);
		}
		return exists(metaData, catalog, schema, name, name);
	}

	private static boolean exists(DatabaseMetaData metaData, @Nullable String catalog, @Nullable String schema,
			String name, String expected) throws SQLException {
		// Unquoted names are stored upper-case by H2 and lower-case by PostgreSQL; MariaDB keeps them as written. The
		// database's own case is tried first, so that a table that exists costs one query.
		for (String candidate : spellings(metaData, name)) {
			for (String owner : (schema != null) ? spellings(metaData, schema)
					: java.util.Collections.<String>singletonList(null)) {
				try (ResultSet rows = metaData.getTables(catalog, owner, candidate, null)) {
					while (rows.next()) {
						if (expected.equalsIgnoreCase(rows.getString("TABLE_NAME"))) {
							return true;
						}
					}
				}
			}
		}
		return false;
	}

	/** An identifier as written, upper-case and lower-case, the database's way of storing unquoted ones first. */
	private static List<String> spellings(DatabaseMetaData metaData, String identifier) throws SQLException {
		String upper = identifier.toUpperCase(Locale.ROOT);
		String lower = identifier.toLowerCase(Locale.ROOT);
		if (metaData.storesUpperCaseIdentifiers()) {
			return List.of(upper, identifier, lower);
		}
		if (metaData.storesLowerCaseIdentifiers()) {
			return List.of(lower, identifier, upper);
		}
		return List.of(identifier, upper, lower);
	}

}
