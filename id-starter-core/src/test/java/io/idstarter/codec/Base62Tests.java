package io.idstarter.codec;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class Base62Tests {

	private final Base62 codec = Base62.INSTANCE;

	@Test
	void encodesFixedWidthInAsciiOrder() {
		assertThat(this.codec.encode(0)).isEqualTo("00000000000");
		assertThat(this.codec.encode(9)).isEqualTo("00000000009");
		assertThat(this.codec.encode(10)).isEqualTo("0000000000A");
		assertThat(this.codec.encode(36)).isEqualTo("0000000000a");
		assertThat(this.codec.encode(61)).isEqualTo("0000000000z");
		assertThat(this.codec.encode(62)).isEqualTo("00000000010");
		assertThat(this.codec.encode(1234567890123456789L)).isEqualTo("1TCKi1nFuNh");
		assertThat(this.codec.encode(Long.MAX_VALUE)).isEqualTo("AzL8n0Y58m7");
		assertThat(this.codec.width()).isEqualTo(11);
	}

	@Test
	void decodeIsCaseSensitive() {
		assertThat(this.codec.decode("0000000000A")).isEqualTo(10);
		assertThat(this.codec.decode("0000000000a")).isEqualTo(36);
		assertThat(this.codec.decode("1TCKi1nFuNh")).isEqualTo(1234567890123456789L);
		assertThat(this.codec.decode("AzL8n0Y58m7")).isEqualTo(Long.MAX_VALUE);
	}

	@Test
	void decodeRejectsValuesAbove63Bits() {
		assertThatIllegalArgumentException().isThrownBy(() -> this.codec.decode("AzL8n0Y58m8"))
			.withMessage("Base62 ID 'AzL8n0Y58m8' overflows 63 bits (largest is 'AzL8n0Y58m7')");
		assertThatIllegalArgumentException().isThrownBy(() -> this.codec.decode("B0000000000"))
			.withMessage("Base62 ID 'B0000000000' overflows 63 bits (largest is 'AzL8n0Y58m7')");
		// 62^11 - 1 is more than 2^64: the check must not be fooled by wrap-around.
		assertThatIllegalArgumentException().isThrownBy(() -> this.codec.decode("zzzzzzzzzzz"))
			.withMessage("Base62 ID 'zzzzzzzzzzz' overflows 63 bits (largest is 'AzL8n0Y58m7')");
	}

	@Test
	void decodeNamesCharactersOutsideTheAlphabet() {
		assertThatIllegalArgumentException().isThrownBy(() -> this.codec.decode("00000_00000"))
			.withMessage("Base62 ID '00000_00000' has an invalid character '_' at index 5 (allowed: 0-9, A-Z, a-z)");
		assertThatIllegalArgumentException().isThrownBy(() -> this.codec.decode("0000000000 "))
			.withMessageContaining("invalid character ' ' at index 10");
	}

	@Test
	void decodeReportsABadCharacterBeforeAnOverflow() {
		assertThatIllegalArgumentException().isThrownBy(() -> this.codec.decode("zzzzzzzzzz+"))
			.withMessageContaining("invalid character '+' at index 10");
	}

}
