package io.idstarter.lease;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;

import io.idstarter.InvalidSettingException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class LeaseSettingsTests {

	@Test
	void defaultsAreProductionSafe() {
		LeaseSettings settings = LeaseSettings.defaults();
		assertThat(settings.namespace()).isEqualTo("default");
		assertThat(settings.ttl()).isEqualTo(Duration.ofSeconds(30));
		assertThat(settings.heartbeat()).isEqualTo(Duration.ofSeconds(10));
		assertThat(settings.safetyMargin()).isEqualTo(Duration.ofSeconds(5));
		assertThat(settings.instance()).endsWith("/" + ProcessHandle.current().pid());
		assertThat(settings.cacheFile()).isNull();
		assertThat(settings.maxStartupWait()).isEqualTo(settings.ttl());
	}

	@Test
	void excludedWorkerIdsAreKeptSortedShownShortAndNeverNegative() {
		LeaseSettings settings = LeaseSettings.builder().excludedWorkerIds(Set.of(7, 3, 0, 1, 2)).build();
		assertThat(settings.excludedWorkerIds()).containsExactly(0, 1, 2, 3, 7);
		assertThat(settings.toBuilder().build().excludedWorkerIds()).containsExactly(0, 1, 2, 3, 7);
		assertThat(settings.toString()).contains("excludedWorkerIds=0-3,7");
		assertThat(LeaseSettings.defaults().excludedWorkerIds()).isEmpty();
		assertThatIllegalArgumentException().isThrownBy(() -> LeaseSettings.builder().excludedWorkerIds(Set.of(-1)))
			.isInstanceOf(InvalidSettingException.class);
	}

	@Test
	void maxStartupWaitFollowsTheTtlUnlessSet() {
		assertThat(LeaseSettings.builder().ttl(Duration.ofSeconds(60)).build().maxStartupWait())
			.isEqualTo(Duration.ofSeconds(60));
		assertThat(LeaseSettings.builder().maxStartupWait(Duration.ZERO).build().maxStartupWait()).isZero();
	}

	@Test
	void everySettingIsKept() {
		LeaseSettings settings = LeaseSettings.builder()
			.namespace("orders")
			.ttl(Duration.ofSeconds(20))
			.heartbeat(Duration.ofSeconds(5))
			.safetyMargin(Duration.ofMillis(2500))
			.instance("node-1")
			.cacheFile(Path.of("worker-id.cache"))
			.maxStartupWait(Duration.ofSeconds(3))
			.maxClockSkew(Duration.ofMillis(500))
			.build();
		assertThat(settings).hasToString("LeaseSettings[namespace=orders, ttl=20s, heartbeat=5s, "
				+ "safetyMargin=2500ms, instance=node-1, cacheFile=worker-id.cache, maxStartupWait=3s, "
				+ "maxClockSkew=500ms]");
		assertThat(settings.toBuilder().build()).hasToString(settings.toString());
	}

	@Test
	void maxClockSkewIsTwoSecondsUnlessSetAndMustBePositiveWhenOn() {
		assertThat(LeaseSettings.defaults().maxClockSkew()).isEqualTo(Duration.ofSeconds(2));
		assertThat(LeaseSettings.builder().maxClockSkew(null).build().maxClockSkew()).isNull();
		assertThatIllegalArgumentException().isThrownBy(() -> LeaseSettings.builder().maxClockSkew(Duration.ZERO))
			.withMessage("maxClockSkew (0s) must be positive");
	}

	@Test
	void heartbeatMustBeLessThanTtl() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> LeaseSettings.builder().ttl(Duration.ofSeconds(15)).heartbeat(Duration.ofSeconds(20))
				.build())
			.withMessage("heartbeat (20s) + safetyMargin (5s) must be less than ttl (15s), or the lease runs out "
					+ "before the first renewal")
			.isInstanceOfSatisfying(InvalidSettingException.class,
					(ex) -> assertThat(ex.getSetting()).isEqualTo("heartbeat"));
	}

	@Test
	void heartbeatAndSafetyMarginMustLeaveTimeBeforeTheTtl() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> LeaseSettings.builder().ttl(Duration.ofSeconds(15)).safetyMargin(Duration.ofSeconds(5))
				.build())
			.withMessage("heartbeat (10s) + safetyMargin (5s) must be less than ttl (15s), or the lease runs out "
					+ "before the first renewal");
	}

	@Test
	void singleValuesAreCheckedWhenSet() {
		assertThatIllegalArgumentException().isThrownBy(() -> LeaseSettings.builder().ttl(Duration.ofMillis(500)))
			.withMessage("ttl (500ms) must be at least 1s");
		assertThatIllegalArgumentException().isThrownBy(() -> LeaseSettings.builder().heartbeat(Duration.ZERO))
			.withMessage("heartbeat (0s) must be at least 1ms");
		assertThatIllegalArgumentException().isThrownBy(() -> LeaseSettings.builder().safetyMargin(Duration.ZERO))
			.withMessage("safetyMargin (0s) must be at least 1ms");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> LeaseSettings.builder().maxStartupWait(Duration.ofSeconds(-1)))
			.withMessage("maxStartupWait (-1s) must not be negative");
		assertThatIllegalArgumentException().isThrownBy(() -> LeaseSettings.builder().namespace(" "))
			.withMessage("namespace must be 1 to 128 characters, not blank: ' '");
		assertThatIllegalArgumentException().isThrownBy(() -> LeaseSettings.builder().namespace("n".repeat(129)))
			.withMessageStartingWith("namespace must be 1 to 128 characters");
		assertThatIllegalArgumentException().isThrownBy(() -> LeaseSettings.builder().instance(""))
			.withMessage("instance must not be blank: ''");
	}

}
