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
 * {@link DataSource} (one {@code MAX} per column, which an index on the column answers) and lets core decide the
 * first instant from which this node's IDs sort above all of them. The lease keeper waits for it before it issues,
 * together with the layout record's floor, within {@code max-startup-wait} in all.
 */
final class SnowflakeTakeoverCheck {

	private static final Logger logger = LoggerFactory.getLogger(SnowflakeTakeoverCheck.class);

	private SnowflakeTakeoverCheck() {
	}

	/**
	 * Checks the columns, if any are named.
	 * @param properties the properties, whose takeover columns were validated
	 * @param layout this node's layout
	 * @param maxWait how long start may wait
	 * @param dataSource the application's data source, or {@code null} for none
	 * @param time this node's clock
	 * @return the first instant this node may issue at, or {@code null} if no column is named
	 * @throws io.idstarter.snowflake.TakeoverRefusedException if the wait would be longer than {@code maxWait}
	 */
	static @Nullable Instant run(IdWorkerProperties properties, SnowflakeLayout layout, Duration maxWait,
			@Nullable DataSource dataSource, TimeSource time) {
		IdWorkerProperties.Snowflake snowflake = properties.getSnowflake();
		List<String> names = snowflake.getTakeover().getColumns();
		if (names.isEmpty()) {
			return null;
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
		logger.info("Snowflake takeover checked: the IDs of this node sort above the largest of {} from {}{}", columns,
				from, from.isAfter(now) ? ", which start waits for" : "");
		return from;
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

}
