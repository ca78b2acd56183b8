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
		assertThat(PeriodicFormat.parse("{yyyy}{MM}-{seq}", ResetPeriod.MONTHLY)
			.format("k", "202611", DAY, 5)).isEqualTo("202611-5");
	}

	@Test
	void aFormatThatWritesTwoPeriodsOrNumbersAsOneStringFails() {
		// 11 January and 1 November 2026 would both be 2026111-001.
		assertThatIllegalArgumentException().isThrownBy(() -> PeriodicFormat.parse("{yyyyMd}-{seq:3}",
				ResetPeriod.DAILY))
			.withMessageContaining("'{yyyyMd}-{seq:3}'")
			.withMessageContaining("{M}")
			.withMessageContaining("MM");
		assertThatIllegalArgumentException().isThrownBy(() -> PeriodicFormat.parse("{yyyyMM}{d}{seq}",
				ResetPeriod.DAILY))
			.withMessageContaining("{d}")
			.withMessageContaining("dd");
		// Day 1 with number 23 and day 12 with number 3.
		assertThatIllegalArgumentException().isThrownBy(() -> PeriodicFormat.parse("{yyyyMMd}{seq:2}",
				ResetPeriod.DAILY))
			.withMessageContaining("{d}");
		assertThatIllegalArgumentException().isThrownBy(() -> PeriodicFormat.parse("{period}{seq}{key}",
				ResetPeriod.DAILY))
			.withMessageContaining("{seq}");
		assertThatIllegalArgumentException().isThrownBy(() -> PeriodicFormat.parse("{yyyy}-{M}7{seq}",
				ResetPeriod.MONTHLY))
			.as("a digit after a field of varying width")
			.withMessageContaining("{M}");
		assertThatIllegalArgumentException().isThrownBy(() -> PeriodicFormat.parse("{yyyy}{MMM}{seq}",
				ResetPeriod.MONTHLY))
			.withMessageContaining("{MMM}");
	}

	@Test
	void aTwoDigitYearFailsProposingTheFullYear() {
		assertThatIllegalArgumentException().isThrownBy(() -> PeriodicFormat.parse("SO{yyMM}{seq:5}",
				ResetPeriod.MONTHLY))
			.withMessageContaining("'SO{yyMM}{seq:5}'")
			.withMessageContaining("every 100 years")
			.withMessageContaining("{yyyyMM}");
		assertThatIllegalArgumentException().isThrownBy(() -> PeriodicFormat.parse("{uu}-{seq}", ResetPeriod.YEARLY))
			.withMessageContaining("{uuuu}");
	}

	@Test
	void fieldsOfVaryingWidthAreAllowedLastOrBeforeALiteralThatIsNoDigit() {
		PeriodicFormat format = PeriodicFormat.parse("{yyyy}-{M}-{d}/{seq}", ResetPeriod.DAILY);
		assertThat(format.format("k", "20260111", LocalDate.of(2026, 1, 11), 1)).isEqualTo("2026-1-11/1");
		assertThat(format.format("k", "20261101", LocalDate.of(2026, 11, 1), 1)).isEqualTo("2026-11-1/1");
		assertThat(PeriodicFormat.parse("{seq}-{yyyyMMdd}", ResetPeriod.DAILY).format("k", "20261126", DAY, 42))
			.isEqualTo("42-20261126");
		assertThat(PeriodicFormat.parse("{yyyyMMdd}{seq:4}", ResetPeriod.DAILY).format("k", "20261126", DAY, 42))
			.isEqualTo("202611260042");
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
