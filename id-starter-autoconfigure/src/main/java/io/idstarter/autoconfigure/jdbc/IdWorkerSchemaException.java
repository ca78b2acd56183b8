package io.idstarter.autoconfigure.jdbc;

import java.sql.SQLException;
import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * The tables of the JDBC stores could not be checked or created at start-up, or are missing; explained by
 * {@code IdWorkerSchemaFailureAnalyzer} with an action for each {@link Problem}.
 *
 * @since 0.1.0
 */
public class IdWorkerSchemaException extends RuntimeException {

	private static final long serialVersionUID = 1L;

	/** SQLState classes of connection failures ({@code 08}) and of rejected credentials ({@code 28}). */
	private static final List<String> CONNECTION_STATES = List.of("08", "28");

	/** SQLState of PostgreSQL's insufficient_privilege. */
	private static final String INSUFFICIENT_PRIVILEGE = "42501";

	/** MySQL and MariaDB error codes of a refused command, database or privilege (1142 is CREATE command denied). */
	private static final List<Integer> MYSQL_ACCESS_DENIED = List.of(1142, 1044, 1227, 1370);

	/**
	 * What went wrong.
	 */
	public enum Problem {

		/** The database could not be reached, or refused the application's credentials. */
		UNREACHABLE,

		/** The database user may not create the tables. */
		PERMISSION_DENIED,

		/** A table is missing and the schema is not created by id-starter. */
		TABLE_MISSING,

		/** The schema script failed for another reason. */
		SCRIPT_FAILED

	}

	private final Problem problem;

	private final List<String> tables;

	private final String schemaLocation;

	IdWorkerSchemaException(Problem problem, List<String> tables, String schemaLocation, String message,
			@Nullable Throwable cause) {
		super(message, cause);
		this.problem = problem;
		this.tables = List.copyOf(tables);
		this.schemaLocation = schemaLocation;
	}

	/**
	 * Classifies a failure to check or create the tables from the SQL error in its causes.
	 * @param tables the tables concerned
	 * @param schemaLocation the script that creates them
	 * @param what what was being done, for the message ("create", "check")
	 * @param ex the failure
	 * @return the exception to throw
	 */
	static IdWorkerSchemaException of(List<String> tables, String schemaLocation, String what, Throwable ex) {
		SQLException sql = sqlException(ex);
		Problem problem = classify(sql);
		String reason = (sql != null) ? sql.getMessage() + " (SQLState " + sql.getSQLState() + ", error "
				+ sql.getErrorCode() + ")" : String.valueOf(ex.getMessage());
		String message = switch (problem) {
			case UNREACHABLE -> "Cannot " + what + " the id-starter tables " + tables
					+ ": the database could not be reached with the application's DataSource: " + reason;
			case PERMISSION_DENIED -> "Cannot create the id-starter tables " + tables + " with " + schemaLocation
					+ ": the database user may not create tables: " + reason;
			default -> "Cannot create the id-starter tables " + tables + " with " + schemaLocation + ": " + reason;
		};
		return new IdWorkerSchemaException(problem, tables, schemaLocation, message, ex);
	}

	/**
	 * Returns the exception for a table the store needs that does not exist.
	 * @param table the table
	 * @param schemaLocation the script that creates it
	 * @return the exception to throw
	 */
	static IdWorkerSchemaException tableMissing(String table, String schemaLocation) {
		return new IdWorkerSchemaException(Problem.TABLE_MISSING, List.of(table), schemaLocation,
				"Table '" + table + "' of the id-starter JDBC store does not exist in the application's database",
				null);
	}

	private static Problem classify(@Nullable SQLException sql) {
		if (sql == null) {
			return Problem.UNREACHABLE;
		}
		String state = (sql.getSQLState() != null) ? sql.getSQLState() : "";
		if (INSUFFICIENT_PRIVILEGE.equals(state) || MYSQL_ACCESS_DENIED.contains(sql.getErrorCode())) {
			return Problem.PERMISSION_DENIED;
		}
		if (state.length() >= 2 && CONNECTION_STATES.contains(state.substring(0, 2))) {
			return Problem.UNREACHABLE;
		}
		return Problem.SCRIPT_FAILED;
	}

	private static @Nullable SQLException sqlException(Throwable ex) {
		SQLException found = null;
		for (Throwable cause = ex; cause != null; cause = cause.getCause()) {
			if (cause instanceof SQLException sql) {
				found = sql;
			}
		}
		return found;
	}

	/**
	 * Returns what went wrong.
	 * @return the problem
	 */
	public Problem getProblem() {
		return this.problem;
	}

	/**
	 * Returns the tables concerned.
	 * @return table names
	 */
	public List<String> getTables() {
		return this.tables;
	}

	/**
	 * Returns the script that creates the tables.
	 * @return a {@code classpath:} location
	 */
	public String getSchemaLocation() {
		return this.schemaLocation;
	}

}
