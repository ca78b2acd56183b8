package io.idstarter.store.redis;

import java.time.Duration;
import java.util.Properties;

import io.idstarter.store.redis.RedisPersistence.Mode;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class RedisPersistenceTests {

	@Test
	void anAppendOnlyFileKeepsWritesWhateverItsFsyncPolicy() {
		assertThat(RedisPersistence.fromConfig("yes", "always", "")).isEqualTo(Mode.AOF_ALWAYS);
		assertThat(RedisPersistence.fromConfig("yes", "everysec", "3600 1")).isEqualTo(Mode.AOF_EVERYSEC);
		assertThat(RedisPersistence.fromConfig("yes", "no", "")).isEqualTo(Mode.AOF_NO_FSYNC);
		assertThat(RedisPersistence.fromConfig("YES", null, null)).isEqualTo(Mode.AOF);
		assertThat(Mode.AOF_ALWAYS.keepsWrites()).isTrue();
		assertThat(Mode.AOF_NO_FSYNC.keepsWrites()).isTrue();
	}

	@Test
	void snapshotsAloneOrNothingLoseWritesOnARestart() {
		assertThat(RedisPersistence.fromConfig("no", "everysec", "3600 1 300 100")).isEqualTo(Mode.SNAPSHOTS_ONLY);
		assertThat(RedisPersistence.fromConfig("no", "everysec", "")).isEqualTo(Mode.NONE);
		assertThat(RedisPersistence.fromConfig("no", null, null)).isEqualTo(Mode.NONE);
		assertThat(Mode.SNAPSHOTS_ONLY.keepsWrites()).isFalse();
		assertThat(Mode.NONE.keepsWrites()).isFalse();
	}

	@Test
	void infoPersistenceTellsOnlyWhetherThereIsAnAppendOnlyFile() {
		Properties info = new Properties();
		info.setProperty("aof_enabled", "1");
		assertThat(RedisPersistence.fromInfo(info)).isEqualTo(Mode.AOF);
		info.setProperty("aof_enabled", "0");
		assertThat(RedisPersistence.fromInfo(info)).isEqualTo(Mode.NONE);
		assertThat(RedisPersistence.fromInfo(new Properties())).isEqualTo(Mode.UNKNOWN);
		// An unknown answer is not refused (the store warns instead).
		assertThat(Mode.UNKNOWN.keepsWrites()).isTrue();
	}

	@Test
	void aRefusalSaysWhatWasFoundAndWhatToSet() {
		String message = RedisScriptRunner.notPersistent("Redis at cache:6379",
				new RedisPersistence(Mode.SNAPSHOTS_ONLY, "appendonly=no appendfsync=everysec save='3600 1'", 0));
		assertThat(message).contains("Redis at cache:6379")
			.contains("keeps only RDB snapshots")
			.contains("save='3600 1'")
			.contains("appendonly yes")
			.contains("id-worker.redis.allow-volatile=true");
	}

	@Test
	void durabilityRejectsAWaitThatCouldBlockForEver() {
		assertThatIllegalArgumentException().isThrownBy(() -> new RedisDurability(1, Duration.ZERO, true))
			.withMessageContaining("waitTimeout");
		assertThatIllegalArgumentException().isThrownBy(() -> new RedisDurability(-1, Duration.ofSeconds(1), true))
			.withMessageContaining("waitReplicas");
		assertThat(RedisDurability.unchecked()).isEqualTo(new RedisDurability(0, Duration.ofSeconds(1), false));
	}

}
