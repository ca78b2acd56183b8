package io.idstarter.lease;

import java.util.List;
import java.util.Set;

import io.idstarter.InvalidSettingException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class WorkerIdRangesTests {

	@Test
	void readsSingleIdsAndInclusiveRangesFromOnePartOrSeveral() {
		assertThat(WorkerIdRanges.parse(List.of("0-3,7"))).containsExactly(0, 1, 2, 3, 7);
		assertThat(WorkerIdRanges.parse(List.of(" 9 ", "4 - 5", "5"))).containsExactly(4, 5, 9);
		assertThat(WorkerIdRanges.parse(List.of())).isEmpty();
	}

	@ParameterizedTest
	@ValueSource(strings = { "", "a", "-1", "3-1", "1-", "1,,2", "99999999999", "0-70000" })
	void refusesWhatIsNotAWorkerIdOrRangeNamingTheSetting(String text) {
		assertThatExceptionOfType(InvalidSettingException.class).isThrownBy(() -> WorkerIdRanges.parse(List.of(text)))
			.satisfies((ex) -> assertThat(ex.getSetting()).isEqualTo("excludedWorkerIds"))
			.withMessageContaining("such as 0-3,7");
	}

	@Test
	void writesTheShortForm() {
		assertThat(WorkerIdRanges.format(Set.of(7, 0, 1, 2, 3, 9, 10))).isEqualTo("0-3,7,9-10");
		assertThat(WorkerIdRanges.format(Set.of())).isEmpty();
	}

	@Test
	void requireWithinAcceptsAllButOneSlot() {
		WorkerIdRanges.requireWithin(Set.of(0, 1, 2), 3);
		assertThatExceptionOfType(InvalidSettingException.class)
			.isThrownBy(() -> WorkerIdRanges.requireWithin(Set.of(0, 1, 2, 3), 3));
	}

}
