package io.idstarter.shardingsphere;

import java.lang.reflect.Field;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

import io.idstarter.snowflake.SnowflakeLayout;
import io.idstarter.snowflake.SnowflakePresets;
import org.apache.shardingsphere.infra.algorithm.keygen.snowflake.SnowflakeKeyGenerateAlgorithm;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The {@code shardingsphere} preset against ShardingSphere's own {@code SnowflakeKeyGenerateAlgorithm} of the version
 * this build uses: the same epoch and widths, so that IDs issued after a switch sort above the old fleet's.
 */
class ShardingSpherePresetTests {

	@Test
	void thePresetHasTheEpochAndWidthsOfShardingSpheresSnowflakeKeyGenerator() throws ReflectiveOperationException {
		// ShardingSphere takes the offset the JVM's default zone has when the class loads: this JVM's now
		ZoneOffset offset = ZoneId.systemDefault().getRules().getOffset(Instant.now());
		SnowflakeLayout preset = SnowflakePresets.shardingSphere(offset, Instant.now());
		assertThat(preset.epoch().toEpochMilli()).as("EPOCH").isEqualTo(SnowflakeKeyGenerateAlgorithm.EPOCH);
		assertThat(preset.workerIdBits()).as("WORKER_ID_BITS").isEqualTo(constant("WORKER_ID_BITS"));
		assertThat(preset.sequenceBits()).as("SEQUENCE_BITS").isEqualTo(constant("SEQUENCE_BITS"));
		assertThat(preset.workerIdBits() + preset.sequenceBits()).as("TIMESTAMP_LEFT_SHIFT_BITS")
			.isEqualTo(constant("TIMESTAMP_LEFT_SHIFT_BITS"));
		assertThat(preset.timestampBits()).as("the rest of a positive long")
			.isEqualTo(63 - constant("TIMESTAMP_LEFT_SHIFT_BITS"));
	}

	private static long constant(String name) throws ReflectiveOperationException {
		Field field = SnowflakeKeyGenerateAlgorithm.class.getDeclaredField(name);
		field.setAccessible(true);
		return field.getLong(null);
	}

}
