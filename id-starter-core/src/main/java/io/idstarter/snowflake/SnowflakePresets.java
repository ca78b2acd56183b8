package io.idstarter.snowflake;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.zone.ZoneRules;
import java.util.Objects;

import io.idstarter.InvalidSettingException;

/**
 * Snowflake layouts of the generators whose fleets id-starter takes over, with the values each project's own source
 * uses, so that IDs issued after a switch keep the old IDs' order (docs/snowflake.md cites the files).
 *
 * <p>All three have 41 timestamp, 10 worker-ID and 12 sequence bits. MyBatis-Plus and Hutool split the worker field
 * into 5 datacenter bits above 5 worker bits; read as one 10-bit worker ID it is {@code datacenterId * 32 + workerId}.
 *
 * @since 0.1.0
 */
public final class SnowflakePresets {

	/**
	 * Twitter's epoch, 1288834974657 ms (2010-11-04T01:42:54.657Z): the {@code twepoch} of MyBatis-Plus's
	 * {@code Sequence}, Hutool's {@code Snowflake.DEFAULT_TWEPOCH} and Leaf's {@code SnowflakeIDGenImpl}.
	 */
	public static final Instant TWITTER_EPOCH = Instant.ofEpochMilli(1288834974657L);

	/**
	 * ShardingSphere's epoch as a local time, 2016-11-01T00:00: its {@code SnowflakeKeyGenerateAlgorithm} turns it
	 * into an instant with the JVM's default time zone, so the epoch differs from fleet to fleet.
	 */
	public static final LocalDateTime SHARDINGSPHERE_LOCAL_EPOCH = LocalDateTime.of(2016, 11, 1, 0, 0);

	private static final SnowflakeLayout TWITTER = SnowflakeLayout.of(TWITTER_EPOCH, 41, 10, 12);

	private SnowflakePresets() {
	}

	/**
	 * Returns Twitter's layout, also MyBatis-Plus's ({@code DefaultIdentifierGenerator}, {@code IdWorker},
	 * {@code Sequence}) and Hutool's ({@code Snowflake}) default: {@link #TWITTER_EPOCH}, 41 timestamp, 10 worker-ID
	 * and 12 sequence bits.
	 * @return the layout
	 */
	public static SnowflakeLayout twitter() {
		return TWITTER;
	}

	/**
	 * Returns Meituan Leaf's layout, the same as {@link #twitter()}.
	 * @return the layout
	 */
	public static SnowflakeLayout leaf() {
		return TWITTER;
	}

	/**
	 * Returns ShardingSphere's layout for a fleet whose JVMs ran in the given zone: epoch
	 * {@link #SHARDINGSPHERE_LOCAL_EPOCH} at that zone's offset, 41 timestamp, 10 worker-ID and 12 sequence bits.
	 * ShardingSphere 5.5 applies the offset in force when its JVM started, older versions the offset on 2016-11-01;
	 * both agree only for a zone whose offset never changes between them. A zone with daylight saving time is
	 * therefore refused: name the fixed offset the old fleet ran with, such as {@code +08:00}.
	 * @param zone the old fleet's default time zone: a fixed offset, or a region whose offset has not changed since
	 * 2016-11-01 and has no transitions ahead
	 * @param now the current time, to check the region's offset
	 * @return the layout
	 * @throws InvalidSettingException naming {@code presetZone} for a zone whose offset depends on the date
	 */
	public static SnowflakeLayout shardingSphere(ZoneId zone, Instant now) {
		Objects.requireNonNull(zone, "zone");
		ZoneRules rules = zone.getRules();
		ZoneOffset offset = rules.getOffset(SHARDINGSPHERE_LOCAL_EPOCH);
		if (!rules.isFixedOffset()
				&& (!rules.getOffset(now).equals(offset) || rules.nextTransition(now) != null)) {
			throw new InvalidSettingException("presetZone", "zone " + zone + " changes its offset (it was " + offset
					+ " on 2016-11-01 and is " + rules.getOffset(now) + " now, or observes daylight saving time), so "
					+ "ShardingSphere's epoch (2016-11-01T00:00 local) depended on when each old JVM started; set "
					+ "the fixed offset the old fleet ran with, such as +01:00, and keep the takeover check on");
		}
		return SnowflakeLayout.of(SHARDINGSPHERE_LOCAL_EPOCH.toInstant(offset), 41, 10, 12);
	}

}
