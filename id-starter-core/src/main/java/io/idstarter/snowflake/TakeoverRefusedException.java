package io.idstarter.snowflake;

import java.time.Duration;
import java.time.Instant;

import io.idstarter.IdGenerationException;

/**
 * A column filled by the old generator holds an ID this node's layout cannot issue above soon enough: the new IDs
 * would sort below old ones (the usual cause is a later epoch than the old fleet's), or the wait for them to pass is
 * longer than start may wait.
 *
 * @since 0.1.0
 */
public class TakeoverRefusedException extends IdGenerationException {

	private static final long serialVersionUID = 1L;

	private final String column;

	private final long maxId;

	private final Instant maxIdTime;

	private final Instant firstInstantAbove;

	private final Instant latestEpoch;

	TakeoverRefusedException(SnowflakeTakeover.Column column, SnowflakeLayout old, SnowflakeLayout ours,
			Instant firstInstantAbove, Instant now, Duration maxWait) {
		super(message(column, old, ours, firstInstantAbove, now, maxWait));
		this.column = column.name();
		this.maxId = column.maxId();
		this.maxIdTime = old.parse(this.maxId).timestamp();
		this.firstInstantAbove = firstInstantAbove;
		this.latestEpoch = latestEpoch(ours, this.maxId, now);
	}

	private static String message(SnowflakeTakeover.Column column, SnowflakeLayout old, SnowflakeLayout ours,
			Instant firstInstantAbove, Instant now, Duration maxWait) {
		long maxId = column.maxId();
		return "column " + column.name() + " holds ID " + maxId + ", which the old layout (epoch " + old.epoch()
				+ ", " + old.timestampBits() + "/" + old.workerIdBits() + "/" + old.sequenceBits()
				+ " bits) dates " + old.parse(maxId).timestamp() + "; this node's layout (epoch " + ours.epoch() + ", "
				+ ours.timestampBits() + "/" + ours.workerIdBits() + "/" + ours.sequenceBits()
				+ " bits) issues IDs above it only from " + firstInstantAbove + ", "
				+ Duration.between(now, firstInstantAbove).toMillis() + " ms from now, longer than start may wait ("
				+ maxWait.toMillis() + " ms); use the old fleet's layout (its preset) or an epoch no later than "
				+ latestEpoch(ours, maxId, now) + ", so that new IDs sort above the old ones";
	}

	private static Instant latestEpoch(SnowflakeLayout ours, long maxId, Instant now) {
		return now.minusMillis((maxId >>> ours.timestampShift()) + 1);
	}

	/**
	 * Returns the column whose largest ID is furthest ahead.
	 * @return {@code table.column}
	 */
	public String getColumn() {
		return this.column;
	}

	/**
	 * Returns the column's largest ID.
	 * @return the ID
	 */
	public long getMaxId() {
		return this.maxId;
	}

	/**
	 * Returns the time the old layout decodes from the largest ID.
	 * @return the time
	 */
	public Instant getMaxIdTime() {
		return this.maxIdTime;
	}

	/**
	 * Returns the first instant from which this node's IDs are above the largest ID.
	 * @return the instant
	 */
	public Instant getFirstInstantAbove() {
		return this.firstInstantAbove;
	}

	/**
	 * Returns the latest epoch with which this node's widths would issue above the largest ID now.
	 * @return the epoch
	 */
	public Instant getLatestEpoch() {
		return this.latestEpoch;
	}

}
