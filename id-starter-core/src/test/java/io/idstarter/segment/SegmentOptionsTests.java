package io.idstarter.segment;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class SegmentOptionsTests {

	@Test
	void defaultsFollowLeafAndWaitTwoSeconds() {
		SegmentOptions options = SegmentOptions.defaults();
		assertThat(options.prefetchThreshold()).isEqualTo(0.1);
		assertThat(options.maxWait()).isEqualTo(Duration.ofSeconds(2));
		assertThat(options.keyRefreshInterval()).isEqualTo(Duration.ofSeconds(60));
		assertThat(options.defaultKey()).isNull();
		assertThat(options.dynamicStep()).isEqualTo(DynamicStep.defaults());
	}

	@Test
	void builderSetsEveryOption() {
		DynamicStep rule = new DynamicStep(Duration.ofMinutes(1), Duration.ofMinutes(2), 500);
		SegmentOptions options = SegmentOptions.builder()
			.prefetchThreshold(0.5)
			.maxWait(Duration.ofMillis(300))
			.keyRefreshInterval(Duration.ofSeconds(5))
			.defaultKey("order")
			.dynamicStep(rule)
			.build();
		assertThat(options.prefetchThreshold()).isEqualTo(0.5);
		assertThat(options.maxWait()).isEqualTo(Duration.ofMillis(300));
		assertThat(options.keyRefreshInterval()).isEqualTo(Duration.ofSeconds(5));
		assertThat(options.defaultKey()).isEqualTo("order");
		assertThat(options.dynamicStep()).isSameAs(rule);
		assertThat(options.toBuilder().build()).hasToString(options.toString());
	}

	@Test
	void prefetchThresholdOutsideTheOpenUnitIntervalIsRejected() {
		assertThatIllegalArgumentException().isThrownBy(() -> SegmentOptions.builder().prefetchThreshold(0))
			.withMessage("prefetchThreshold must be in (0, 1): 0.0");
		assertThatIllegalArgumentException().isThrownBy(() -> SegmentOptions.builder().prefetchThreshold(1))
			.withMessage("prefetchThreshold must be in (0, 1): 1.0");
		assertThatIllegalArgumentException().isThrownBy(() -> SegmentOptions.builder().prefetchThreshold(Double.NaN))
			.withMessage("prefetchThreshold must be in (0, 1): NaN");
	}

	@Test
	void durationsMustBePositive() {
		assertThatIllegalArgumentException().isThrownBy(() -> SegmentOptions.builder().maxWait(Duration.ZERO))
			.withMessage("maxWait must be positive: PT0S");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> SegmentOptions.builder().keyRefreshInterval(Duration.ofSeconds(-1)))
			.withMessage("keyRefreshInterval must be positive: PT-1S");
	}

	@Test
	void blankDefaultKeyIsRejected() {
		assertThatIllegalArgumentException().isThrownBy(() -> SegmentOptions.builder().defaultKey(" "))
			.withMessage("defaultKey must be 1 to 128 characters and not blank: ' '");
		assertThatIllegalArgumentException().isThrownBy(() -> SegmentOptions.builder().defaultKey("k".repeat(129)));
	}

}
