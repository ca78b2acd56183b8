package io.idstarter.snowflake;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

/**
 * Decides when a node that takes over from another Snowflake generator may issue: only once every ID it can issue
 * sorts above the largest ID the old generator left in each column it filled. Any ID of a layout whose timestamp
 * field exceeds {@code maxId >>> (workerIdBits + sequenceBits)} is above {@code maxId}, whatever its worker ID and
 * sequence, so the answer is a timestamp; how the largest IDs are read (one {@code MAX} per column) is the caller's.
 *
 * @since 0.1.0
 */
public final class SnowflakeTakeover {

	private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,62}");

	private SnowflakeTakeover() {
	}

	/**
	 * Returns the first instant from which every ID of {@code ours} is above {@code maxId}.
	 * @param ours this node's layout
	 * @param maxId an ID, not negative
	 * @return the instant, possibly before the layout's epoch or after the layout runs out
	 */
	public static Instant firstInstantAbove(SnowflakeLayout ours, long maxId) {
		if (maxId < 0) {
			throw new IllegalArgumentException("maxId must not be negative: " + maxId);
		}
		return Instant.ofEpochMilli(ours.firstMillisAbove(maxId));
	}

	/**
	 * Checks the columns' largest IDs and returns the instant from which this node's IDs are above all of them.
	 * @param ours this node's layout
	 * @param old the layout the old generator used, to decode its IDs for the report
	 * @param columns the columns the old generator filled, with their largest IDs
	 * @param now this node's clock
	 * @param maxWait how long start may wait for the clock to pass that instant
	 * @return the instant (at or before {@code now} when there is nothing to wait for)
	 * @throws TakeoverRefusedException naming the column with the largest ID if the wait would be longer than
	 * {@code maxWait}, or if this layout can never issue above its largest ID
	 */
	public static Instant check(SnowflakeLayout ours, SnowflakeLayout old, List<Column> columns, Instant now,
			Duration maxWait) {
		Objects.requireNonNull(ours, "ours");
		Objects.requireNonNull(old, "old");
		// the instant grows with the ID, so the column with the largest ID decides
		Column furthest = null;
		for (Column column : columns) {
			Long maxId = column.maxId();
			if (maxId != null && (furthest == null || maxId > furthest.maxId())) {
				furthest = column;
			}
		}
		if (furthest == null) {
			return now;
		}
		Instant from = firstInstantAbove(ours, furthest.maxId());
		Duration wait = Duration.between(now, from);
		if (from.isAfter(ours.exhaustedAt()) || wait.compareTo(maxWait) > 0) {
			throw new TakeoverRefusedException(furthest, old, ours, from, now, maxWait);
		}
		return from;
	}

	/**
	 * A column the old generator filled, as {@code table.column} or {@code schema.table.column}.
	 *
	 * @param name the qualified name, each part a plain SQL identifier
	 * @param maxId its largest ID, or {@code null} when it holds none
	 */
	public record Column(String name, @Nullable Long maxId) {

		public Column {
			checkName(name);
		}

		/**
		 * Returns the table part, {@code schema.table} or {@code table}.
		 * @return the table
		 */
		public String table() {
			return this.name.substring(0, this.name.lastIndexOf('.'));
		}

		/**
		 * Returns the column part.
		 * @return the column
		 */
		public String column() {
			return this.name.substring(this.name.lastIndexOf('.') + 1);
		}

		/**
		 * Returns the query for the column's largest ID; safe to run as is, as every part is a plain identifier.
		 * @return {@code SELECT MAX(column) FROM table}
		 */
		public String maxQuery() {
			return "SELECT MAX(" + column() + ") FROM " + table();
		}

		/**
		 * Checks a qualified column name.
		 * @param name {@code table.column} or {@code schema.table.column}
		 * @return the name
		 * @throws IllegalArgumentException if it has another shape or a part that is not a plain SQL identifier
		 */
		public static String checkName(String name) {
			Objects.requireNonNull(name, "name");
			String[] parts = name.split("\\.", -1);
			boolean plain = parts.length >= 2 && parts.length <= 3;
			for (String part : parts) {
				plain = plain && IDENTIFIER.matcher(part).matches();
			}
			if (!plain) {
				throw new IllegalArgumentException("'" + name + "' must be table.column or schema.table.column, each "
						+ "part a letter or underscore followed by up to 62 letters, digits or underscores");
			}
			return name;
		}

	}

}
