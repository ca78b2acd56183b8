package io.idstarter.autoconfigure;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import io.idstarter.snowflake.SnowflakeLayout;
import io.idstarter.snowflake.SnowflakePresets;
import io.idstarter.snowflake.SnowflakeTakeover;
import io.idstarter.snowflake.TakeoverRefusedException;
import org.junit.jupiter.api.Test;

import org.springframework.boot.diagnostics.FailureAnalysis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

class TakeoverRefusedFailureAnalyzerTests {

	@Test
	void namesTheColumnItsLargestIdItsTimeAndThePropertiesToChange() {
		Instant now = Instant.parse("2026-11-26T12:00:00Z");
		long old = SnowflakePresets.twitter().compose(now.toEpochMilli(), 5, 0);
		TakeoverRefusedException refused = catchThrowableOfType(TakeoverRefusedException.class,
				() -> SnowflakeTakeover.check(SnowflakeLayout.defaults(), SnowflakePresets.twitter(),
						List.of(new SnowflakeTakeover.Column("orders.id", old)), now, Duration.ofSeconds(30)));
		FailureAnalysis analysis = new TakeoverRefusedFailureAnalyzer().analyze(new IllegalStateException(refused));
		assertThat(analysis.getDescription()).contains("orders.id", "holds ID " + old, "dates " + now,
				"id-worker.snowflake.takeover.columns");
		assertThat(analysis.getAction()).contains("id-worker.snowflake.preset", "twitter",
				"id-worker.snowflake.epoch no later than " + refused.getLatestEpoch(),
				"id-worker.lease.max-startup-wait");
	}

}
