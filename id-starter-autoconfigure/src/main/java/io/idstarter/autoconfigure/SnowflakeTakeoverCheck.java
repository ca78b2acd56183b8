package io.idstarter.autoconfigure;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import javax.sql.DataSource;

import io.idstarter.IdGenerationException;
import io.idstarter.snowflake.SnowflakeLayout;
import io.idstarter.snowflake.SnowflakeTakeover;
import io.idstarter.time.TimeSource;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs {@code id-worker.snowflake.takeover} at start: reads each column's largest ID through the application's
 * {@link DataSource} (one {@code MAX} per column, which an index on the column answers), lets core decide, and waits
 * until this node's IDs sort above all of them, before the worker ID is borrowed.
 */
final class SnowflakeTakeoverCheck {

	private static final Logger logger = LoggerFactory.getLogger(SnowflakeTakeoverCheck.class);

	private SnowflakeTakeoverCheck() {
	}

	/**
	 * Checks the columns, if any are named, and waits if needed.
	 * @param properties the properties, whose takeover columns were validated
	 * @param layout this node's layout
	 * @param maxWait how long start may wait
	 * @param dataSource the application's data source, or {@code null} for none
	 * @param time this node's clock
	 * @throws io.idstarter.snowflake.TakeoverRefusedException if the wait would be longer than {@code maxWait}
	 */
	static void run(IdWorkerProperties properties, SnowflakeLayout layout, Duration maxWait,
			@Nullable DataSource dataSource, TimeSource time) {
		IdWorkerProperties.Snowflake snowflake = properties.getSnowflake();
		List<String> names = snowflake.getTakeover().getColumns();
		if (names.isEmpty()) {
			return;
		}
		if (dataSource == null) {
			throw new IllegalStateException("id-worker.snowflake.takeover.columns names " + names + ", but the "
					+ "application has no DataSource to read them through; add one (spring.datasource.url), or remove "
					+ "id-worker.snowflake.takeover.columns");
		}
		Instant now = Instant.ofEpochMilli(time.currentTimeMillis());
		IdWorkerProperties.LayoutPreset oldPreset = snowflake.getTakeover().getPreset();
		SnowflakeLayout old = (oldPreset != null) ? snowflake.presetLayout(oldPreset, now) : layout;
		List<SnowflakeTakeover.Column> columns = readMaxIds(dataSource, names);
		Instant from = SnowflakeTakeover.check(layout, old, columns, now, maxWait);
		long wait = from.toEpochMilli() - time.currentTimeMillis();
		if (wait > 0) {
			logger.warn("Waiting {} ms for this node's IDs to sort above the largest ID the old generator left ({} "
					+ "from {})", wait, columns, from);
			sleepUntil(from, time);
		}
		logger.info("Snowflake takeover checked: the IDs of this node sort above the largest of {}", columns);
	}

	private static List<SnowflakeTakeover.Column> readMaxIds(DataSource dataSource, List<String> names) {
		List<SnowflakeTakeover.Column> columns = new ArrayList<>();
		try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
			for (String name : names) {
				SnowflakeTakeover.Column column = new SnowflakeTakeover.Column(name, null);
				try (ResultSet result = statement.executeQuery(column.maxQuery())) {
					result.next();
					long maxId = result.getLong(1);
					columns.add(new SnowflakeTakeover.Column(name, result.wasNull() ? null : maxId));
				}
				catch (SQLException ex) {
					throw new IdGenerationException("could not read the largest ID of " + name + " named by "
							+ "id-worker.snowflake.takeover.columns (" + ex.getMessage() + "); check the table and "
							+ "column names and that this application's database user may read them", ex);
				}
			}
		}
		catch (SQLException ex) {
			throw new IdGenerationException("could not connect to read id-worker.snowflake.takeover.columns: "
					+ ex.getMessage(), ex);
		}
		return columns;
	}

	private static void sleepUntil(Instant from, TimeSource time) {
		long remaining;
		while ((remaining = from.toEpochMilli() - time.currentTimeMillis()) > 0) {
			try {
				Thread.sleep(Math.min(remaining, 100));
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IdGenerationException("interrupted while waiting for the takeover check's instant " + from,
						ex);
			}
		}
	}

}
