package io.idstarter.lease;

import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class RetryBackoffTests {

	@Test
	void theDelayIsAQuarterHeartbeatSpreadByHalfOfItEitherWay() {
		Duration heartbeat = Duration.ofSeconds(8);
		assertThat(new RetryBackoff(heartbeat, () -> 0).next()).isEqualTo(Duration.ofSeconds(1));
		assertThat(new RetryBackoff(heartbeat, () -> 0.5).next()).isEqualTo(Duration.ofSeconds(2));
		assertThat(new RetryBackoff(heartbeat, () -> 0.75).next()).isEqualTo(Duration.ofMillis(2500));
		assertThat(new RetryBackoff(heartbeat, () -> 0.5).base()).isEqualTo(Duration.ofSeconds(2));
	}

	@Test
	void aShortHeartbeatStillRetriesNoMoreOftenThanTheMinimumOnAverage() {
		assertThat(new RetryBackoff(Duration.ofMillis(8), () -> 0.5).next()).isEqualTo(RetryBackoff.MIN_INTERVAL);
	}

	@Test
	void nodesThatFailedTogetherRetryAtSpreadMoments() {
		Duration heartbeat = Duration.ofSeconds(10);
		Set<Duration> delays = new HashSet<>();
		// a hundred nodes of a fleet, each with its own keeper, after one outage
		IntStream.range(0, 100).forEach((node) -> delays.add(new RetryBackoff(heartbeat).next()));
		assertThat(delays).allSatisfy((delay) -> assertThat(delay).isBetween(Duration.ofMillis(1250),
				Duration.ofMillis(3750)));
		assertThat(delays).hasSizeGreaterThan(90);
		long early = delays.stream().filter((delay) -> delay.compareTo(Duration.ofMillis(2500)) < 0).count();
		assertThat(early).isBetween(20L, 80L);
	}

}
