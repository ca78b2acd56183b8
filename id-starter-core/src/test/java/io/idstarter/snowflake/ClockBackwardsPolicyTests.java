package io.idstarter.snowflake;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class ClockBackwardsPolicyTests {

	@Test
	void defaultsWaitOutFiveMillisecondsThenFail() {
		ClockBackwardsPolicy defaults = ClockBackwardsPolicy.defaults();
		assertThat(defaults.maxWait()).isEqualTo(Duration.ofMillis(5));
		assertThat(defaults.isTolerant()).isFalse();
		assertThat(defaults).isEqualTo(ClockBackwardsPolicy.failAfter(ClockBackwardsPolicy.DEFAULT_MAX_WAIT))
			.hasToString("wait up to 5ms, then fail");
	}

	@Test
	void tolerantPolicyIssuesFromTheLastTimestamp() {
		ClockBackwardsPolicy tolerant = ClockBackwardsPolicy.tolerate(Duration.ofMillis(20));
		assertThat(tolerant.isTolerant()).isTrue();
		assertThat(tolerant.maxWait()).isEqualTo(Duration.ofMillis(20));
		assertThat(tolerant).isNotEqualTo(ClockBackwardsPolicy.failAfter(Duration.ofMillis(20)))
			.hasToString("wait up to 20ms, then issue from the last timestamp");
	}

	@Test
	void maxWaitMustBeWithinRange() {
		assertThatIllegalArgumentException().isThrownBy(() -> ClockBackwardsPolicy.failAfter(Duration.ofMillis(-1)))
			.withMessage("maxWait must be in [0ms, 60000ms]: -1ms");
		assertThatIllegalArgumentException().isThrownBy(() -> ClockBackwardsPolicy.tolerate(Duration.ofMinutes(2)))
			.withMessage("maxWait must be in [0ms, 60000ms]: 120000ms");
		assertThat(ClockBackwardsPolicy.failAfter(Duration.ZERO).maxWait()).isZero();
	}

}
