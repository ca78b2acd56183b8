package io.idstarter.segment;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class DynamicStepTests {

	private static final long MINUTE = Duration.ofMinutes(1).toNanos();

	private final DynamicStep rule = DynamicStep.defaults();

	@Test
	void defaultsAreLeafs() {
		assertThat(this.rule).isEqualTo(new DynamicStep(Duration.ofMinutes(15), Duration.ofMinutes(30), 1_000_000));
	}

	@Test
	void rangeThatLastedLessThanFifteenMinutesDoublesTheStep() {
		assertThat(this.rule.nextStep(1000, 1000, 0)).isEqualTo(2000);
		assertThat(this.rule.nextStep(1000, 1000, 15 * MINUTE - 1)).isEqualTo(2000);
	}

	@Test
	void rangeThatLastedExactlyFifteenMinutesKeepsTheStep() {
		assertThat(this.rule.nextStep(1000, 1000, 15 * MINUTE)).isEqualTo(1000);
	}

	@Test
	void rangeThatLastedJustUnderThirtyMinutesKeepsTheStep() {
		assertThat(this.rule.nextStep(4000, 1000, 30 * MINUTE - 1)).isEqualTo(4000);
	}

	@Test
	void rangeThatLastedExactlyThirtyMinutesHalvesTheStep() {
		assertThat(this.rule.nextStep(4000, 1000, 30 * MINUTE)).isEqualTo(2000);
		assertThat(this.rule.nextStep(4000, 1000, 300 * MINUTE)).isEqualTo(2000);
	}

	@Test
	void doublingIsCappedAtTheMaximum() {
		assertThat(this.rule.nextStep(400_000, 1000, 0)).isEqualTo(800_000);
		assertThat(this.rule.nextStep(600_000, 1000, 0)).isEqualTo(1_000_000);
		assertThat(this.rule.nextStep(1_000_000, 1000, 0)).isEqualTo(1_000_000);
	}

	@Test
	void stepAboveTheMaximumComesDownToIt() {
		assertThat(this.rule.nextStep(1_500_000, 1000, 0)).isEqualTo(1_000_000);
		assertThat(this.rule.nextStep(1_500_000, 1000, 20 * MINUTE)).isEqualTo(1_000_000);
	}

	@Test
	void halvingStopsAtTheConfiguredStep() {
		assertThat(this.rule.nextStep(1500, 1000, 30 * MINUTE)).isEqualTo(1000);
		assertThat(this.rule.nextStep(1000, 1000, 30 * MINUTE)).isEqualTo(1000);
		assertThat(this.rule.nextStep(2000, 1000, 30 * MINUTE)).isEqualTo(1000);
	}

	@Test
	void resultIsNeverBelowARaisedConfiguredStep() {
		assertThat(this.rule.nextStep(1000, 5000, 20 * MINUTE)).isEqualTo(5000);
		assertThat(this.rule.nextStep(1000, 5000, 0)).isEqualTo(5000);
	}

	@Test
	void configuredStepAboveTheMaximumWins() {
		assertThat(this.rule.nextStep(2_000_000, 2_000_000, 0)).isEqualTo(2_000_000);
	}

	@Test
	void fixedStepFollowsALoweredConfiguredStep() {
		DynamicStep off = new DynamicStep(Duration.ofMinutes(15), Duration.ofMinutes(30), 1);
		assertThat(off.nextStep(1000, 100, 0)).isEqualTo(100);
		assertThat(off.nextStep(1000, 100, 20 * MINUTE)).isEqualTo(100);
		assertThat(off.nextStep(1000, 100, 60 * MINUTE)).isEqualTo(100);
	}

	@Test
	void maximumAtTheConfiguredStepKeepsTheStepFixed() {
		DynamicStep fixed = new DynamicStep(Duration.ofMinutes(15), Duration.ofMinutes(30), 100);
		assertThat(fixed.nextStep(100, 100, 0)).isEqualTo(100);
		assertThat(fixed.nextStep(100, 100, 60 * MINUTE)).isEqualTo(100);
	}

	@Test
	void negativeElapsedTimeCountsAsRecent() {
		assertThat(this.rule.nextStep(1000, 1000, -5)).isEqualTo(2000);
	}

	@Test
	void boundariesAreConfigurable() {
		DynamicStep rule = new DynamicStep(Duration.ofSeconds(1), Duration.ofSeconds(2), 64);
		long second = Duration.ofSeconds(1).toNanos();
		assertThat(rule.nextStep(10, 10, second - 1)).isEqualTo(20);
		assertThat(rule.nextStep(10, 10, second)).isEqualTo(10);
		assertThat(rule.nextStep(40, 10, 2 * second)).isEqualTo(20);
		assertThat(rule.nextStep(40, 10, 0)).isEqualTo(64);
	}

	@Test
	void invalidRulesAreRejectedWithTheValue() {
		assertThatIllegalArgumentException().isThrownBy(() -> new DynamicStep(Duration.ZERO, Duration.ofMinutes(1), 10))
			.withMessage("expandBelow must be positive: PT0S");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new DynamicStep(Duration.ofMinutes(15), Duration.ofMinutes(15), 10))
			.withMessage("shrinkAbove (PT15M) must be greater than expandBelow (PT15M)");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new DynamicStep(Duration.ofMinutes(15), Duration.ofMinutes(30), 0))
			.withMessage("maxStep must be at least 1: 0");
		assertThatIllegalArgumentException().isThrownBy(() -> this.rule.nextStep(0, 1000, 0))
			.withMessageContaining("currentStep=0");
	}

}
