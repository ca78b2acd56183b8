package io.idstarter.snowflake;

import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

import io.idstarter.InvalidSettingException;
import io.idstarter.store.zookeeper.LeafSnowflake;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class SnowflakePresetsTests {

	private static final Instant NOW = Instant.parse("2026-11-26T12:00:00Z");

	@Test
	void twitterIsMyBatisPlusAndHutoolsDefaultWithDatacenterAndWorkerReadAsOneWorkerId() {
		SnowflakeLayout twitter = SnowflakePresets.twitter();
		assertThat(twitter.epoch().toEpochMilli()).isEqualTo(1288834974657L);
		assertThat(twitter.timestampBits()).isEqualTo(41);
		assertThat(twitter.workerIdBits()).isEqualTo(10);
		assertThat(twitter.sequenceBits()).isEqualTo(12);
		// MyBatis-Plus / Hutool: (t - twepoch) << 22 | datacenterId << 17 | workerId << 12 | sequence
		long datacenterId = 3;
		long workerId = 17;
		long millis = NOW.toEpochMilli();
		long theirs = ((millis - 1288834974657L) << 22) | (datacenterId << 17) | (workerId << 12) | 5;
		SnowflakeId parsed = twitter.parse(theirs);
		assertThat(parsed.timestamp()).isEqualTo(NOW);
		assertThat(parsed.workerId()).isEqualTo(3 * 32 + 17);
		assertThat(parsed.sequence()).isEqualTo(5);
	}

	@Test
	void leafIsTwitterAsTheZooKeeperStoreUsesIt() {
		assertThat(SnowflakePresets.leaf()).isEqualTo(SnowflakePresets.twitter()).isEqualTo(LeafSnowflake.layout());
	}

	@Test
	void shardingSpheresEpochIsMidnightOfNovemberFirst2016InTheOldFleetsZone() {
		assertThat(SnowflakePresets.shardingSphere(ZoneOffset.ofHours(8), NOW).epoch())
			.isEqualTo(Instant.parse("2016-10-31T16:00:00Z"));
		assertThat(SnowflakePresets.shardingSphere(ZoneId.of("Asia/Shanghai"), NOW).epoch().toEpochMilli())
			.isEqualTo(1477929600000L);
		assertThat(SnowflakePresets.shardingSphere(ZoneOffset.UTC, NOW).epoch())
			.isEqualTo(Instant.parse("2016-11-01T00:00:00Z"));
		SnowflakeLayout layout = SnowflakePresets.shardingSphere(ZoneOffset.UTC, NOW);
		assertThat(new int[] { layout.timestampBits(), layout.workerIdBits(), layout.sequenceBits() })
			.containsExactly(41, 10, 12);
	}

	@Test
	void aZoneWithDaylightSavingTimeIsRefusedForShardingSphereAskingForTheFixedOffset() {
		assertThatExceptionOfType(InvalidSettingException.class)
			.isThrownBy(() -> SnowflakePresets.shardingSphere(ZoneId.of("Europe/Berlin"), NOW))
			.satisfies((ex) -> assertThat(ex.getSetting()).isEqualTo("presetZone"))
			.withMessageContaining("zone Europe/Berlin changes its offset")
			.withMessageContaining("set the fixed offset the old fleet ran with");
	}

}
