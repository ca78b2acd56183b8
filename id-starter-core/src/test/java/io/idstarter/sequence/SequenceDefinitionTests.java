package io.idstarter.sequence;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link SequenceDefinition}.
 */
class SequenceDefinitionTests {

	@Test
	void ofCountsFromZeroByOneToLongMaxValueWithoutBatches() {
		assertThat(SequenceDefinition.of("sys_user"))
			.isEqualTo(new SequenceDefinition("sys_user", 0, Long.MAX_VALUE, 1, 1));
	}

	@Test
	void withersChangeOneField() {
		SequenceDefinition definition = SequenceDefinition.of("orders").withStart(10).withEnd(99).withStep(3)
			.withBatchSize(8);
		assertThat(definition).isEqualTo(new SequenceDefinition("orders", 10, 99, 3, 8));
	}

	@Test
	void namesOutsideTheSafeSetAreRejected() {
		assertThatIllegalArgumentException().isThrownBy(() -> SequenceDefinition.of(""))
			.withMessage("sequence name must be 1 to 128 characters from [A-Za-z0-9_.:-]: ''");
		assertThatIllegalArgumentException().isThrownBy(() -> SequenceDefinition.of("a/b"));
		assertThatIllegalArgumentException().isThrownBy(() -> SequenceDefinition.of("a".repeat(129)));
		assertThat(SequenceDefinition.of("a".repeat(128)).name()).hasSize(128);
		assertThat(SequenceDefinition.of("app.orders:v2-x_y").name()).isEqualTo("app.orders:v2-x_y");
	}

	@Test
	void invalidNumbersAreRejectedWithTheNameAndTheValue() {
		assertThatIllegalArgumentException().isThrownBy(() -> SequenceDefinition.of("s").withStart(-1))
			.withMessage("start of sequence 's' must be at least 0: -1");
		assertThatIllegalArgumentException().isThrownBy(() -> SequenceDefinition.of("s").withStart(10).withEnd(9))
			.withMessage("end of sequence 's' must be at least its start 10: 9");
		assertThatIllegalArgumentException().isThrownBy(() -> SequenceDefinition.of("s").withStep(0))
			.withMessage("step of sequence 's' must be at least 1: 0");
		assertThatIllegalArgumentException().isThrownBy(() -> SequenceDefinition.of("s").withBatchSize(0))
			.withMessage("batch size of sequence 's' must be at least 1: 0");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> SequenceDefinition.of("s").withStep(Long.MAX_VALUE / 2).withBatchSize(3))
			.withMessageContaining("batch size times step of sequence 's' must fit in a long");
	}

}
