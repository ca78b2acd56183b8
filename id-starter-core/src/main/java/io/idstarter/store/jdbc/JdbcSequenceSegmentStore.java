package io.idstarter.store.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

import javax.sql.DataSource;

import org.jspecify.annotations.Nullable;

import io.idstarter.segment.SegmentAllocation;
import io.idstarter.segment.SegmentKeyAdmin;
import io.idstarter.segment.SegmentKeyExhaustedException;
import io.idstarter.segment.SegmentKeys;
import io.idstarter.segment.SegmentStore;
import io.idstarter.segment.SegmentStoreException;
import io.idstarter.segment.UnknownKeyException;

/**
 * A {@link SegmentStore} over the database's own sequences (PostgreSQL, MariaDB 10.3+, H2): one sequence per key, whose
 * {@code INCREMENT BY} is the key's step. A {@code nextval} that returns {@code v} allocates {@code [v - step + 1, v]}
 * (as {@link SegmentAllocation} {@code [v - step + 1, v + 1)}): {@code v} is the range's highest number, as in
 * Hibernate's {@code pooled} optimizer, so an application whose entities used {@code pooled} on a sequence continues
 * on it without overlap. The first range of a sequence is cut at the sequence's {@code MINVALUE} (and at 0): with
 * {@code START WITH 1 INCREMENT BY 50} it is {@code [1, 1]}, then {@code [2, 51]}.
 *
 * <p>The step is the sequence's own {@code INCREMENT BY}, read from the catalog in the transaction of each
 * {@code nextval}; it is never assumed. A caller's step ({@link #allocate(String, int)}, the dynamic step) cannot be
 * honoured, because a sequence moves by its increment only: every range is of the sequence's step, and that step is
 * reported as configured. {@link #updateStep} is {@code ALTER SEQUENCE ... INCREMENT BY} on PostgreSQL, where the next
 * range after a change starts right above the last one whichever way the step moved (see there for MariaDB and H2).
 *
 * <p>A key's sequence is named from the key: a prefix ({@value #DEFAULT_PREFIX} by default), then the key with
 * lower-case letters and digits kept and every other character escaped ({@code _} as {@code __}, {@code -} as
 * {@code _0}, {@code .} as {@code _1}, {@code :} as {@code _2}, an upper-case letter as {@code _} and the letter in
 * lower case): {@code order-line} is {@code id_seq_order_0line}. Keys whose sequence has another name (one an
 * application already has, such as {@code orders_seq}) are mapped explicitly. Names are checked as SQL identifiers
 * before any SQL is built, so neither keys nor names can inject SQL; a name longer than 63 characters is refused.
 *
 * <p>Not supported: {@link #raiseMaxId} (heal-forward); restore a sequence with {@code ALTER SEQUENCE ... RESTART}
 * above every node's mark instead. A sequence restarted below a node's mark is refused by the node like any store
 * that lost writes.
 *
 * <p>Give it a {@link DataSource} whose connections are not bound to the caller's transaction (a connection pool).
 */
public class JdbcSequenceSegmentStore implements SegmentStore, SegmentKeyAdmin {

	/*
	 * Allocation protocol. One transaction at READ COMMITTED per allocation:
	 *   1. nextval(sequence) -> v. Sequences are never rolled back, so v is this caller's alone, in any process.
	 *   2. read INCREMENT BY and MINVALUE of the sequence from the catalog, in the same transaction. On PostgreSQL
	 *      nextval holds a lock on the sequence until the commit that ALTER SEQUENCE waits for, and at READ COMMITTED
	 *      the read takes its snapshot after that lock was granted, so the increment read is the one nextval used (at
	 *      REPEATABLE READ the snapshot would be older than the lock). MariaDB and H2 keep the next value computed with
	 *      the old step: a step changed there while nodes allocate may give an overlapping range, so updateStep
	 *      refuses and the docs say how.
	 *   3. the range is [max(v - step + 1, MINVALUE, 0), v]. A failure anywhere loses v: a gap, never a duplicate.
	 * Nothing is retried.
	 *
	 * Round trips. With a 50-step sequence a busy key allocates hundreds of times a second, and a caller that uses up
	 * a range before the next arrives waits for this call. On PostgreSQL the transaction sets its own level
	 * (SET TRANSACTION, sent with BEGIN) and sends it, nextval and the catalog read as one multi-statement command,
	 * then commits: two round trips. The generic path (MariaDB, H2) reads the connection's level, then runs each
	 * statement and the commit: four.
	 */

	/** PostgreSQL's catalog read of INCREMENT BY and MINVALUE. */
	private static final String POSTGRES_SHAPE = "SELECT seqincrement, seqmin FROM pg_catalog.pg_sequence "
			+ "WHERE seqrelid = to_regclass(?)";

	/** PostgreSQL's allocation, sent in one round trip with the driver's BEGIN: the level, nextval, the catalog read. */
	private static final String POSTGRES_ALLOCATE = "SET TRANSACTION ISOLATION LEVEL READ COMMITTED; SELECT nextval(?); "
			+ POSTGRES_SHAPE;

	/** Prefix of sequence names made from keys, when none is given. */
	public static final String DEFAULT_PREFIX = "id_seq_";

	/** Longest sequence name, PostgreSQL's identifier limit (MariaDB allows 64, H2 more). */
	static final int MAX_NAME_LENGTH = 63;

	private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,62}");

	private static final Pattern SEQUENCE_NAME = Pattern
		.compile("([A-Za-z_][A-Za-z0-9_]{0,62}\\.)?[A-Za-z_][A-Za-z0-9_]{0,62}");

	/** SQLStates and error codes of "sequence does not exist": PostgreSQL 42P01, MariaDB 42S02 (1146), H2 90036. */
	private static final Set<String> MISSING_SEQUENCE_STATES = Set.of("42P01", "42S02", "90036");

	/** "Sequence reached its maximum": PostgreSQL 2200H, H2 90006, MariaDB error 4084. */
	private static final Set<String> EXHAUSTED_STATES = Set.of("2200H", "90006");

	private static final int MARIADB_SEQUENCE_RUN_OUT = 4084;

	/** "Sequence exists" on create: PostgreSQL 42P07 (or 23505 when two creators race), MariaDB 42S01, H2 90035. */
	private static final Set<String> EXISTS_STATES = Set.of("42P07", "23505", "42S01", "90035");

	private final JdbcAccess access;

	private final String prefix;

	/** Keys whose sequence is not named from the key; unmodifiable. */
	private final Map<String, String> sequences;

	/**
	 * Creates a store whose sequences are named {@value #DEFAULT_PREFIX} and the escaped key.
	 * @param dataSource where the sequences are
	 */
	public JdbcSequenceSegmentStore(DataSource dataSource) {
		this(dataSource, DEFAULT_PREFIX, Map.of());
	}

	/**
	 * Creates a store.
	 * @param dataSource where the sequences are
	 * @param prefix prefix of the sequence names made from keys: letters, digits and {@code _}, possibly empty
	 * @param sequences keys whose sequence has a name of its own, such as {@code order -> orders_seq}; a name may be
	 * qualified by a schema
	 * @throws IllegalArgumentException if the prefix, a key or a sequence name is not allowed
	 */
	public JdbcSequenceSegmentStore(DataSource dataSource, String prefix, Map<String, String> sequences) {
		if (!prefix.isEmpty() && !IDENTIFIER.matcher(prefix).matches()) {
			throw new IllegalArgumentException("sequence prefix must be empty or an SQL identifier (a letter or '_', "
					+ "then letters, digits or '_'): '" + prefix + "'");
		}
		Map<String, String> mapped = new LinkedHashMap<>();
		sequences.forEach((key, name) -> mapped.put(SegmentKeys.checkKey(key), checkSequenceName(key, name)));
		this.prefix = prefix.toLowerCase(Locale.ROOT);
		this.sequences = Collections.unmodifiableMap(mapped);
		this.access = new JdbcAccess(dataSource, "JDBC sequence segment store");
	}

	private static String checkSequenceName(String key, String name) {
		if (name == null || !SEQUENCE_NAME.matcher(name).matches()) {
			throw new IllegalArgumentException("sequence of key '" + key + "' must be an SQL identifier (a letter or "
					+ "'_', then letters, digits or '_', at most " + MAX_NAME_LENGTH
					+ " characters, optionally 'schema.' in front): '" + name + "'");
		}
		return name;
	}

	/**
	 * Returns the sequence a key allocates from.
	 * @param key the business key
	 * @return the sequence's name, as given in the mapping or made from the prefix and the escaped key
	 * @throws IllegalArgumentException if the key is not allowed or its sequence name would be too long
	 */
	public String sequenceName(String key) {
		SegmentKeys.checkKey(key);
		String mapped = this.sequences.get(key);
		if (mapped != null) {
			return mapped;
		}
		StringBuilder name = new StringBuilder(this.prefix);
		for (char c : key.toCharArray()) {
			if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) {
				name.append(c);
			}
			else if (c >= 'A' && c <= 'Z') {
				name.append('_').append(Character.toLowerCase(c));
			}
			else {
				name.append('_').append(switch (c) {
					case '_' -> '_';
					case '-' -> '0';
					case '.' -> '1';
					default -> '2';
				});
			}
		}
		if (name.length() > MAX_NAME_LENGTH || !IDENTIFIER.matcher(name).matches()) {
			throw new IllegalArgumentException("key '" + key + "' would be allocated from sequence '" + name
					+ "', which is not an SQL identifier of at most " + MAX_NAME_LENGTH + " characters; use a shorter "
					+ "key, or map the key to a sequence of its own");
		}
		return name.toString();
	}

	/**
	 * Returns the key whose sequence name is made from it, or {@code null} if the name is not one this store makes.
	 */
	@Nullable String keyOf(String sequenceName) {
		String name = sequenceName.toLowerCase(Locale.ROOT);
		if (!name.startsWith(this.prefix)) {
			return null;
		}
		StringBuilder key = new StringBuilder();
		for (int i = this.prefix.length(); i < name.length(); i++) {
			char c = name.charAt(i);
			if (c != '_') {
				key.append(c);
				continue;
			}
			if (++i == name.length()) {
				return null;
			}
			char escaped = name.charAt(i);
			switch (escaped) {
				case '_' -> key.append('_');
				case '0' -> key.append('-');
				case '1' -> key.append('.');
				case '2' -> key.append(':');
				default -> {
					if (escaped < 'a' || escaped > 'z') {
						return null;
					}
					key.append(Character.toUpperCase(escaped));
				}
			}
		}
		return (key.length() > 0 && !this.sequences.containsKey(key.toString())) ? key.toString() : null;
	}

	@Override
	public SegmentAllocation allocate(String key) {
		return allocateRange(key, sequenceName(key));
	}

	/**
	 * Allocates the next range of a key; the range is of the sequence's step whatever {@code step} asks, because a
	 * sequence moves by its increment only.
	 */
	@Override
	public SegmentAllocation allocate(String key, int step) {
		String sequence = sequenceName(key);
		SegmentKeys.checkStep(key, step);
		return allocateRange(key, sequence);
	}

	private SegmentAllocation allocateRange(String key, String sequence) {
		try (Connection connection = this.access.connect()) {
			JdbcDialect dialect = dialect();
			if (dialect == JdbcDialect.POSTGRESQL) {
				return JdbcAccess.inTransactionAtItsOwnLevel(connection, (c) -> allocateOnPostgres(c, key, sequence));
			}
			return JdbcAccess.inTransaction(connection, (c) -> {
				long value;
				try (PreparedStatement next = c.prepareStatement(nextValueSql(dialect, sequence))) {
					if (dialect == JdbcDialect.POSTGRESQL) {
						next.setString(1, sequence);
					}
					try (ResultSet row = next.executeQuery()) {
						row.next();
						value = row.getLong(1);
					}
				}
				long[] shape = shape(c, dialect, sequence);
				if (shape == null) {
					throw missing(key, sequence, dialect);
				}
				return range(key, sequence, value, shape[0], shape[1]);
			});
		}
		catch (SQLException ex) {
			if (isMissingSequence(ex)) {
				throw missing(key, sequence, this.access.dialect());
			}
			if (isExhausted(ex)) {
				throw new SegmentKeyExhaustedException(key, "Cannot allocate a range of key '" + key + "': sequence '"
						+ sequence + "' reached its MAXVALUE (at most Long.MAX_VALUE); the key's numbers are used up, "
						+ "move to a new key", -1);
			}
			throw failure(key, sequence, null, "allocate a range of key '" + key + "' from sequence '" + sequence + "'",
					ex);
		}
	}

	/** Runs {@link #POSTGRES_ALLOCATE} in the caller's transaction. */
	private SegmentAllocation allocateOnPostgres(Connection connection, String key, String sequence)
			throws SQLException {
		try (PreparedStatement allocate = connection.prepareStatement(POSTGRES_ALLOCATE)) {
			allocate.setString(1, sequence);
			allocate.setString(2, sequence);
			allocate.execute();
			// The first result is SET TRANSACTION's, with no rows.
			allocate.getMoreResults();
			long value;
			try (ResultSet row = allocate.getResultSet()) {
				row.next();
				value = row.getLong(1);
			}
			allocate.getMoreResults();
			try (ResultSet row = allocate.getResultSet()) {
				if (!row.next()) {
					throw missing(key, sequence, JdbcDialect.POSTGRESQL);
				}
				return range(key, sequence, value, row.getLong(1), row.getLong(2));
			}
		}
	}

	private SegmentAllocation range(String key, String sequence, long value, long increment, long minValue) {
		if (increment < 1 || increment > Integer.MAX_VALUE) {
			throw new SegmentSequenceException(key, sequence, null, "Cannot allocate a range of key '" + key
					+ "': sequence '" + sequence + "' has INCREMENT BY " + increment + "; a segment sequence must "
					+ "count up by a step between 1 and " + Integer.MAX_VALUE + " (ALTER SEQUENCE " + sequence
					+ " INCREMENT BY <step>)", null);
		}
		if (value < 0) {
			throw new SegmentStoreException("Cannot allocate a range of key '" + key + "': sequence '" + sequence
					+ "' returned " + value + "; IDs must not be negative (ALTER SEQUENCE " + sequence
					+ " RESTART WITH a positive value above every node's mark)");
		}
		long start = Math.max(Math.max(value - increment + 1, minValue), 0);
		// The top number, Long.MAX_VALUE, has no exclusive end; it is left unused.
		long end = (value == Long.MAX_VALUE) ? value : value + 1;
		if (end <= start) {
			throw new SegmentKeyExhaustedException(key, "Cannot allocate a range of key '" + key + "': sequence '"
					+ sequence + "' reached Long.MAX_VALUE; the key's numbers are used up, move to a new key", 0);
		}
		return new SegmentAllocation(key, start, end, (int) increment);
	}

	private static String nextValueSql(JdbcDialect dialect, String sequence) {
		return switch (dialect) {
			case POSTGRESQL -> "SELECT nextval(?)";
			case MYSQL -> "SELECT NEXTVAL(" + sequence + ")";
			case H2 -> "SELECT NEXT VALUE FOR " + sequence;
		};
	}

	/**
	 * Reads a sequence's INCREMENT BY and MINVALUE from the catalog.
	 * @return {@code {increment, minValue}}, or {@code null} if there is no such sequence
	 */
	private static long @Nullable [] shape(Connection connection, JdbcDialect dialect, String sequence)
			throws SQLException {
		String sql = switch (dialect) {
			case POSTGRESQL -> POSTGRES_SHAPE;
			case MYSQL -> "SELECT increment, minimum_value FROM " + sequence;
			case H2 -> "SELECT INCREMENT, MINIMUM_VALUE FROM INFORMATION_SCHEMA.SEQUENCES WHERE SEQUENCE_SCHEMA = "
					+ "COALESCE(?, SCHEMA()) AND SEQUENCE_NAME = ?";
		};
		try (PreparedStatement select = connection.prepareStatement(sql)) {
			if (dialect == JdbcDialect.POSTGRESQL) {
				select.setString(1, sequence);
			}
			else if (dialect == JdbcDialect.H2) {
				int dot = sequence.indexOf('.');
				select.setString(1, (dot < 0) ? null : sequence.substring(0, dot).toUpperCase(Locale.ROOT));
				select.setString(2, sequence.substring(dot + 1).toUpperCase(Locale.ROOT));
			}
			try (ResultSet row = select.executeQuery()) {
				return row.next() ? new long[] { row.getLong(1), row.getLong(2) } : null;
			}
		}
		catch (SQLException ex) {
			if (dialect == JdbcDialect.MYSQL && isMissingSequence(ex)) {
				return null;
			}
			throw ex;
		}
	}

	private JdbcDialect dialect() {
		JdbcDialect dialect = this.access.dialect();
		if (dialect == null) {
			throw new SegmentStoreException(this.access.unsupportedMessage());
		}
		return dialect;
	}

	private UnknownKeyException missing(String key, String sequence, @Nullable JdbcDialect dialect) {
		String start = (dialect == JdbcDialect.MYSQL) ? "" : " MINVALUE 1";
		return new UnknownKeyException(key, "Unknown ID key '" + key + "': sequence '" + sequence
				+ "' does not exist in the " + this.access.describe() + ". Create it: CREATE SEQUENCE " + sequence
				+ " INCREMENT BY <step>" + start + " START WITH <first ID + step - 1>; or declare the key with "
				+ "id-worker.segment.keys." + key + ".first-id and .step, or call SegmentKeyAdmin.createKey");
	}

	@Override
	public Set<String> keys() {
		try (Connection connection = this.access.connect()) {
			JdbcDialect dialect = dialect();
			String sql = switch (dialect) {
				case POSTGRESQL -> "SELECT sequencename FROM pg_catalog.pg_sequences WHERE schemaname = current_schema()";
				case MYSQL -> "SELECT table_name FROM information_schema.tables WHERE table_schema = DATABASE() "
						+ "AND table_type = 'SEQUENCE'";
				case H2 -> "SELECT SEQUENCE_NAME FROM INFORMATION_SCHEMA.SEQUENCES WHERE SEQUENCE_SCHEMA = SCHEMA()";
			};
			Set<String> keys = new TreeSet<>();
			try (Statement select = connection.createStatement(); ResultSet rows = select.executeQuery(sql)) {
				while (rows.next()) {
					String key = keyOf(rows.getString(1));
					if (key != null) {
						keys.add(key);
					}
				}
			}
			for (Map.Entry<String, String> mapped : this.sequences.entrySet()) {
				if (shape(connection, dialect, mapped.getValue()) != null) {
					keys.add(mapped.getKey());
				}
			}
			return Collections.unmodifiableSet(keys);
		}
		catch (SQLException ex) {
			throw failure("list the keys", ex);
		}
	}

	/**
	 * Looks the key's sequence up in the catalog: one row at most, whatever the number of keys.
	 */
	@Override
	public boolean containsKey(String key) {
		String sequence;
		try {
			sequence = sequenceName(key);
		}
		catch (IllegalArgumentException ex) {
			// No sequence can be named after it, so the store cannot have it.
			return false;
		}
		try (Connection connection = this.access.connect()) {
			return shape(connection, dialect(), sequence) != null;
		}
		catch (SQLException ex) {
			throw failure(key, sequence, null, "look up sequence '" + sequence + "' of key '" + key + "'", ex);
		}
	}

	/**
	 * Creates the key's sequence: {@code CREATE SEQUENCE ... INCREMENT BY step MINVALUE firstId START WITH
	 * firstId + step - 1}, so that its first range starts at {@code firstId}.
	 */
	@Override
	public boolean createKey(String key, long firstId, int step, String description) {
		SegmentKeys.checkNewKey(key, firstId, step, description);
		String sequence = sequenceName(key);
		try (Connection connection = this.access.connect()) {
			JdbcDialect dialect = dialect();
			if (shape(connection, dialect, sequence) != null) {
				return false;
			}
			try (Statement create = connection.createStatement()) {
				JdbcAccess.committed(connection,
						(c) -> create.executeUpdate(createStatement(sequence, firstId, step)));
				return true;
			}
			catch (SQLException ex) {
				// Another creator made the sequence between our look-up and our CREATE: it exists, as asked. H2
				// reports a CREATE that raced another as a general error, so the sequence is looked up again.
				if (hasState(ex, EXISTS_STATES) || hasCode(ex, 1050) || existsNow(dialect, sequence)) {
					return false;
				}
				throw ex;
			}
		}
		catch (SQLException ex) {
			throw failure(key, sequence, createStatement(sequence, firstId, step),
					"create sequence '" + sequence + "' of key '" + key + "'", ex);
		}
	}

	/**
	 * Looks the sequence up on a connection of its own (the failed CREATE's may be in an aborted transaction).
	 */
	private boolean existsNow(JdbcDialect dialect, String sequence) {
		try (Connection connection = this.access.connect()) {
			return shape(connection, dialect, sequence) != null;
		}
		catch (SQLException ex) {
			return false;
		}
	}

	/**
	 * Changes the step on PostgreSQL: {@code ALTER SEQUENCE ... INCREMENT BY}, after which the next value is the last
	 * one plus the new step, so the next range starts right above the last. Not supported on MariaDB and H2, which
	 * keep the next value computed with the old step: a larger step would then give a range overlapping the last one.
	 * There, stop every node, then {@code ALTER SEQUENCE ... INCREMENT BY <step> RESTART WITH <last value + step>}.
	 */
	@Override
	public void updateStep(String key, int step) {
		String sequence = sequenceName(key);
		SegmentKeys.checkStep(key, step);
		try (Connection connection = this.access.connect(); Statement alter = connection.createStatement()) {
			JdbcDialect dialect = dialect();
			if (dialect != JdbcDialect.POSTGRESQL) {
				if (shape(connection, dialect, sequence) == null) {
					throw missing(key, sequence, dialect);
				}
				throw new UnsupportedOperationException("Cannot change the step of key '" + key + "' while nodes "
						+ "allocate: this database keeps sequence '" + sequence + "''s next value computed with the old "
						+ "step, so a larger step would overlap the last range. Stop every node, then run ALTER SEQUENCE "
						+ sequence + " INCREMENT BY " + step + " RESTART WITH <its last value + " + step + ">");
			}
			JdbcAccess.committed(connection,
					(c) -> alter.executeUpdate("ALTER SEQUENCE " + sequence + " INCREMENT BY " + step));
		}
		catch (SQLException ex) {
			if (isMissingSequence(ex)) {
				throw missing(key, sequence, this.access.dialect());
			}
			throw failure(key, sequence, null, "change the step of key '" + key + "' (sequence '" + sequence + "')",
					ex);
		}
	}

	@Override
	public String identity() {
		try {
			return this.access.identity("sequences " + this.prefix + "*" + (this.sequences.isEmpty() ? ""
					: " and " + this.sequences.values()));
		}
		catch (SQLException ex) {
			throw failure("read the database's URL", ex);
		}
	}

	/**
	 * Not supported: a sequence cannot be moved up in one conditional step on every database. Restart it above every
	 * node's mark with {@code ALTER SEQUENCE ... RESTART WITH}.
	 */
	@Override
	public boolean raiseMaxId(String key, long floor) {
		throw new UnsupportedOperationException("the JDBC sequence segment store cannot raise a sequence in one "
				+ "conditional step; restart sequence '" + sequenceName(key) + "' above every node's mark with "
				+ "ALTER SEQUENCE ... RESTART WITH, and leave id-worker.segment.heal-forward off");
	}

	private static boolean isMissingSequence(SQLException ex) {
		return hasState(ex, MISSING_SEQUENCE_STATES) || hasCode(ex, 90036) || hasCode(ex, 1146);
	}

	private static boolean isExhausted(SQLException ex) {
		return hasState(ex, EXHAUSTED_STATES) || hasCode(ex, MARIADB_SEQUENCE_RUN_OUT) || hasCode(ex, 90006);
	}

	private static boolean hasState(SQLException ex, Set<String> states) {
		for (Throwable t = ex; t != null; t = (t.getCause() != t) ? t.getCause() : null) {
			if (t instanceof SQLException sql && states.contains(String.valueOf(sql.getSQLState()))) {
				return true;
			}
		}
		return false;
	}

	private static boolean hasCode(SQLException ex, int code) {
		for (Throwable t = ex; t != null; t = (t.getCause() != t) ? t.getCause() : null) {
			if (t instanceof SQLException sql && sql.getErrorCode() == code) {
				return true;
			}
		}
		return false;
	}

	private static String createStatement(String sequence, long firstId, int step) {
		return "CREATE SEQUENCE " + sequence + " INCREMENT BY " + step + " MINVALUE " + firstId + " START WITH "
				+ (firstId + step - 1);
	}

	private SegmentSequenceException failure(String key, String sequence, @Nullable String createStatement,
			String action, SQLException ex) {
		return new SegmentSequenceException(key, sequence, createStatement, failure(action, ex).getMessage(), ex);
	}

	private SegmentStoreException failure(String action, SQLException ex) {
		return new SegmentStoreException("Cannot " + action + ": the " + this.access.describe()
				+ " failed or cannot be reached (SQLState " + ex.getSQLState() + ", error " + ex.getErrorCode() + "): "
				+ ex.getMessage(), ex);
	}

}
