package io.idstarter.time;

import java.time.Duration;
import java.time.Instant;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class ManualTimeSourceTests {

	private static final Instant START = Instant.parse("2026-01-01T00:00:00Z");

	@Test
	void advancingMovesBothClocks() {
		ManualTimeSource time = new ManualTimeSource(START, 42);
		time.advance(Duration.ofMillis(1500));
		assertThat(time.currentTimeMillis()).isEqualTo(START.toEpochMilli() + 1500);
		assertThat(time.nanoTime()).isEqualTo(42 + 1_500_000_000L);
		assertThat(time.instant()).isEqualTo(START.plusMillis(1500));
	}

	@Test
	void fractionsOfAMillisecondAccumulate() {
		ManualTimeSource time = new ManualTimeSource(START);
		time.advance(Duration.ofNanos(600_000));
		assertThat(time.currentTimeMillis()).isEqualTo(START.toEpochMilli());
		time.advance(Duration.ofNanos(600_000));
		assertThat(time.currentTimeMillis()).isEqualTo(START.toEpochMilli() + 1);
		assertThat(time.nanoTime()).isEqualTo(1_200_000);
	}

	@Test
	void steppingTheWallClockLeavesMonotonicTimeAlone() {
		ManualTimeSource time = new ManualTimeSource(START);
		time.stepWallClock(Duration.ofSeconds(-2));
		assertThat(time.currentTimeMillis()).isEqualTo(START.toEpochMilli() - 2000);
		time.setWallClock(START.plusSeconds(60));
		assertThat(time.currentTimeMillis()).isEqualTo(START.toEpochMilli() + 60_000);
		assertThat(time.nanoTime()).isZero();
	}

	@Test
	void timeCannotBeAdvancedBackwards() {
		ManualTimeSource time = new ManualTimeSource(START);
		assertThatIllegalArgumentException().isThrownBy(() -> time.advance(Duration.ofMillis(-1)))
			.withMessageContaining("must not be negative (use stepWallClock)");
		assertThatIllegalArgumentException().isThrownBy(() -> time.advanceMillis(-1));
	}

}
