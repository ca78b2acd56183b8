package io.idstarter.segment;

import java.time.LocalDate;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class PeriodicFormatTests {

	private static final LocalDate DAY = LocalDate.of(2026, 11, 26);

	@Test
	void writesLiteralsTheDayAndTheZeroPaddedSequence() {
		PeriodicFormat format = PeriodicFormat.parse("INV-{yyyyMMdd}-{seq:6}", ResetPeriod.DAILY);

		assertThat(format.format("invoice", "20261126", DAY, 42)).isEqualTo("INV-20261126-000042");
		assertThat(format.width()).isEqualTo(6);
		assertThat(format.maxSequence()).isEqualTo(999_999);
	}

	@Test
	void writesThePeriodTheKeyAndAnUnpaddedSequence() {
		PeriodicFormat format = PeriodicFormat.parse("{key}/{period}/{seq}", ResetPeriod.MONTHLY);

		assertThat(format.format("order", "202611", DAY, 1234567890123L)).isEqualTo("order/202611/1234567890123");
		assertThat(format.maxSequence()).isEqualTo(Long.MAX_VALUE);
	}

	@Test
	void theLastNumberOfTheWidthFitsAndTheNextIsRefusedNamingKeyPeriodAndWidth() {
		PeriodicFormat format = PeriodicFormat.parse("{yyyy}{seq:3}", ResetPeriod.YEARLY);

		assertThat(format.format("ticket", "2026", DAY, 999)).isEqualTo("2026999");
		assertThatExceptionOfType(PeriodicWidthExceededException.class)
			.isThrownBy(() -> format.format("ticket", "2026", DAY, 1000))
			.withMessageContaining("'ticket'")
			.withMessageContaining("period 2026")
			.withMessageContaining("3 digits")
			.satisfies((ex) -> assertThat(ex.getWidth()).isEqualTo(3));
	}

	@Test
	void anUnknownPlaceholderFailsNamingTheFormat() {
		assertThatIllegalArgumentException().isThrownBy(() -> PeriodicFormat.parse("INV-{yyyyMMdd}-{sq:6}",
				ResetPeriod.DAILY))
			.withMessageContaining("'INV-{yyyyMMdd}-{sq:6}'")
			.withMessageContaining("{sq:6}");
		assertThatIllegalArgumentException().isThrownBy(() -> PeriodicFormat.parse("{yyyyMMddHH}-{seq}",
				ResetPeriod.DAILY))
			.withMessageContaining("{yyyyMMddHH}");
	}

	@Test
	void aMissingRepeatedOrBadSequenceFails() {
		assertThatIllegalArgumentException().isThrownBy(() -> PeriodicFormat.parse("{yyyyMMdd}", ResetPeriod.DAILY))
			.withMessageContaining("no {seq");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> PeriodicFormat.parse("{yyyyMMdd}{seq}{seq:2}", ResetPeriod.DAILY))
			.withMessageContaining("more than one");
		assertThatIllegalArgumentException().isThrownBy(() -> PeriodicFormat.parse("{yyyyMMdd}{seq:19}",
				ResetPeriod.DAILY))
			.withMessageContaining("1 to 18");
		assertThatIllegalArgumentException().isThrownBy(() -> PeriodicFormat.parse("{yyyyMMdd}{seq:0}",
				ResetPeriod.DAILY));
	}

	@Test
	void unbalancedBracesFail() {
		assertThatIllegalArgumentException().isThrownBy(() -> PeriodicFormat.parse("{yyyyMMdd{seq}", ResetPeriod.DAILY))
			.withMessageContaining("'{yyyyMMdd{seq}'");
		assertThatIllegalArgumentException().isThrownBy(() -> PeriodicFormat.parse("{period}}{seq}", ResetPeriod.DAILY))
			.withMessageContaining("closes no placeholder");
		assertThatIllegalArgumentException().isThrownBy(() -> PeriodicFormat.parse("{period}{seq", ResetPeriod.DAILY))
			.withMessageContaining("not closed");
	}

	@Test
	void aFormatThatDoesNotWriteThePeriodFails() {
		assertThatIllegalArgumentException().isThrownBy(() -> PeriodicFormat.parse("INV-{yyyyMM}-{seq:6}",
				ResetPeriod.DAILY))
			.withMessageContaining("daily")
			.withMessageContaining("{yyyyMMdd}");
		assertThatIllegalArgumentException().isThrownBy(() -> PeriodicFormat.parse("{seq}", ResetPeriod.YEARLY))
			.withMessageContaining("yearly");
		assertThat(PeriodicFormat.parse("{yy}{MM}-{seq}", ResetPeriod.MONTHLY)
			.format("k", "202611", DAY, 5)).isEqualTo("2611-5");
	}

	@Test
	void stampsSortAsThePeriodsAndReadBack() {
		assertThat(ResetPeriod.DAILY.stamp(DAY)).isEqualTo("20261126");
		assertThat(ResetPeriod.MONTHLY.stamp(DAY)).isEqualTo("202611");
		assertThat(ResetPeriod.YEARLY.stamp(DAY)).isEqualTo("2026");
		assertThat(ResetPeriod.MONTHLY.parse("202611")).isEqualTo(LocalDate.of(2026, 11, 1));
		assertThat(ResetPeriod.DAILY.parse("20261131")).isNull();
		assertThat(ResetPeriod.DAILY.parse("2026112")).isNull();
		assertThat(ResetPeriod.YEARLY.nextStart(DAY)).isEqualTo(LocalDate.of(2027, 1, 1));
		assertThat(ResetPeriod.MONTHLY.startBefore(DAY, 1)).isEqualTo(LocalDate.of(2026, 10, 1));
	}

	@Test
	void aPeriodicKeyNameMayNotHoldTheStampSeparator() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> PeriodicKey.of("invoice:eu", ResetPeriod.DAILY, "{period}{seq}"))
			.withMessageContaining("without ':'");
	}

}
