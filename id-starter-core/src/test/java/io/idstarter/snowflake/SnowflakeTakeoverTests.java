package io.idstarter.snowflake;

import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;

import io.idstarter.snowflake.SnowflakeTakeover.Column;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class SnowflakeTakeoverTests {

	private static final Instant NOW = Instant.parse("2026-11-26T12:00:00Z");

	private static final Duration WAIT = Duration.ofSeconds(30);

	private final SnowflakeLayout twitter = SnowflakePresets.twitter();

	@Test
	void twitterIdsOfTodaySortAboveEverythingTheDefaultLayoutCanIssueForYearsSoTheStartIsRefused() {
		long old = this.twitter.compose(NOW.toEpochMilli(), 1023, 4095);
		assertThatExceptionOfType(TakeoverRefusedException.class)
			.isThrownBy(() -> SnowflakeTakeover.check(SnowflakeLayout.defaults(), this.twitter,
					List.of(new Column("orders.id", 1L), new Column("shop.payments.id", old)), NOW, WAIT))
			.satisfies((ex) -> {
				assertThat(ex.getColumn()).isEqualTo("shop.payments.id");
				assertThat(ex.getMaxId()).isEqualTo(old);
				assertThat(ex.getMaxIdTime()).isEqualTo(NOW);
				assertThat(SnowflakeLayout.defaults().compose(NOW.toEpochMilli(), 0, 0)).isLessThan(old);
				assertThat(ex.getLatestEpoch()).isBefore(this.twitter.epoch().plusMillis(1));
			})
			.withMessageContaining("column shop.payments.id holds ID " + old)
			.withMessageContaining("dates " + NOW)
			.withMessageContaining("use the old fleet's layout (its preset) or an epoch no later than");
	}

	@Test
	void withTheOldLayoutTheFirstIdOfTheNextMillisecondIsAboveAnyIdOfTheOldFleetsLast() {
		long old = this.twitter.compose(NOW.toEpochMilli(), 1023, 4095);
		Instant from = SnowflakeTakeover.check(this.twitter, this.twitter, List.of(new Column("orders.id", old)), NOW,
				WAIT);
		assertThat(from).isEqualTo(NOW.plusMillis(1));
		assertThat(this.twitter.compose(from.toEpochMilli(), 0, 0)).isGreaterThan(old);
		assertThat(this.twitter.compose(NOW.toEpochMilli(), 0, 0)).isLessThan(old);
	}

	@Test
	void aColumnAheadByLessThanTheWaitIsWaitedForAndOneFurtherAheadIsRefused() {
		long ahead = this.twitter.compose(NOW.plusSeconds(10).toEpochMilli(), 0, 0);
		assertThat(SnowflakeTakeover.check(this.twitter, this.twitter, List.of(new Column("t.id", ahead)), NOW, WAIT))
			.isEqualTo(NOW.plusSeconds(10).plusMillis(1));
		assertThatExceptionOfType(TakeoverRefusedException.class).isThrownBy(() -> SnowflakeTakeover
			.check(this.twitter, this.twitter, List.of(new Column("t.id", ahead)), NOW, Duration.ofSeconds(5)));
	}

	@Test
	void theReportNamesTheLargestIdEvenWhenAnotherColumnHasAnIdOfTheSameMillisecond() {
		long lower = this.twitter.compose(NOW.toEpochMilli(), 1, 0);
		long higher = this.twitter.compose(NOW.toEpochMilli(), 34, 0);
		assertThatExceptionOfType(TakeoverRefusedException.class)
			.isThrownBy(() -> SnowflakeTakeover.check(SnowflakeLayout.defaults(), this.twitter,
					List.of(new Column("orders.id", lower), new Column("payments.id", higher)), NOW, WAIT))
			.satisfies((ex) -> assertThat(ex.getMaxId()).isEqualTo(higher))
			.satisfies((ex) -> assertThat(ex.getColumn()).isEqualTo("payments.id"));
	}

	@Test
	void emptyColumnsOrNoneNeedNoWait() {
		assertThat(SnowflakeTakeover.check(this.twitter, this.twitter, Arrays.asList(new Column("t.id", null)), NOW,
				WAIT))
			.isEqualTo(NOW);
		assertThat(SnowflakeTakeover.check(this.twitter, this.twitter, List.of(), NOW, WAIT)).isEqualTo(NOW);
	}

	@Test
	void theQueryIsOneMaxPerColumnOfPlainIdentifiers() {
		assertThat(new Column("shop.orders.order_id", null).maxQuery())
			.isEqualTo("SELECT MAX(order_id) FROM shop.orders");
	}

	@ParameterizedTest
	@ValueSource(strings = { "orders", "orders.id;drop table x", "a.b.c.d", "orders.\"id\"", ".id", "orders.1d",
			"orders. id" })
	void namesThatAreNotPlainIdentifiersAreRefused(String name) {
		assertThatExceptionOfType(IllegalArgumentException.class).isThrownBy(() -> new Column(name, null))
			.withMessageContaining("must be table.column or schema.table.column");
	}

}
