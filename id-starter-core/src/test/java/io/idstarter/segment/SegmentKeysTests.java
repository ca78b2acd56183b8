package io.idstarter.segment;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatNoException;

class SegmentKeysTests {

	@Test
	void keysOfTheAllowedCharactersUpTo128LongPass() {
		assertThat(SegmentKeys.checkKey("Order.v2_eu-west:1")).isEqualTo("Order.v2_eu-west:1");
		assertThat(SegmentKeys.checkKey("k".repeat(128))).hasSize(128);
	}

	@ParameterizedTest
	@ValueSource(strings = { "a b", "a/b", "ключ", "a*", "{tag}", "tab\tkey", "new\nline", "quote'", "semi;" })
	void keysWithOtherCharactersAreRefused(String key) {
		assertThatIllegalArgumentException().isThrownBy(() -> SegmentKeys.checkKey(key))
			.withMessageContaining("[A-Za-z0-9._:-]")
			.withMessageContaining("'" + key + "'");
	}

	@Test
	void theFirstIllegalCharacterIsNamedWithItsPosition() {
		assertThatIllegalArgumentException().isThrownBy(() -> SegmentKeys.checkKey("order s"))
			.withMessage("key may hold only ASCII letters, digits, '.', '_', ':' and '-' ([A-Za-z0-9._:-]); "
					+ "'order s' has ' ' at index 5");
	}

	@Test
	void emptyAndTooLongKeysAreRefusedWithTheirLength() {
		assertThatIllegalArgumentException().isThrownBy(() -> SegmentKeys.checkKey(""))
			.withMessage("key must be 1 to 128 characters, it has 0: ''");
		assertThatIllegalArgumentException().isThrownBy(() -> SegmentKeys.checkKey("k".repeat(129)))
			.withMessageStartingWith("key must be 1 to 128 characters, it has 129: 'kkk")
			.withMessageEndingWith("...'");
	}

	@ParameterizedTest
	@ValueSource(ints = { 0, -1, Integer.MIN_VALUE })
	void stepsBelowOneAreRefused(int step) {
		assertThatIllegalArgumentException().isThrownBy(() -> SegmentKeys.checkStep("orders", step))
			.withMessage("step of key 'orders' must be at least 1: " + step);
	}

	@Test
	void aNewKeyNeedsAFirstIdWithRoomForOneRange() {
		assertThatNoException().isThrownBy(() -> SegmentKeys.checkNewKey("orders", Long.MAX_VALUE - 10, 10, ""));
		assertThatIllegalArgumentException().isThrownBy(() -> SegmentKeys.checkNewKey("orders", -1, 10, ""))
			.withMessage("first ID of key 'orders' must be in [0, Long.MAX_VALUE - step (9223372036854775797)]: -1");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> SegmentKeys.checkNewKey("orders", Long.MAX_VALUE - 9, 10, ""));
		assertThatIllegalArgumentException().isThrownBy(() -> SegmentKeys.checkNewKey("orders", 0, 0, ""))
			.withMessageContaining("at least 1");
	}

	@Test
	void aNewKeysDescriptionIsAtMost256Characters() {
		assertThatNoException().isThrownBy(() -> SegmentKeys.checkNewKey("orders", 0, 10, "d".repeat(256)));
		assertThatIllegalArgumentException()
			.isThrownBy(() -> SegmentKeys.checkNewKey("orders", 0, 10, "d".repeat(257)))
			.withMessage("description of key 'orders' must be at most 256 characters: it has 257");
	}

}
