package io.idstarter.codec;

import java.util.Locale;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class Crockford32Tests {

	private final Crockford32 codec = Crockford32.INSTANCE;

	@Test
	void encodesFixedWidthUpperCase() {
		assertThat(this.codec.encode(0)).isEqualTo("0000000000000");
		assertThat(this.codec.encode(1)).isEqualTo("0000000000001");
		assertThat(this.codec.encode(31)).isEqualTo("000000000000Z");
		assertThat(this.codec.encode(32)).isEqualTo("0000000000010");
		assertThat(this.codec.encode(1234567890123456789L)).isEqualTo("128GGYHYYK08N");
		assertThat(this.codec.encode(Long.MAX_VALUE)).isEqualTo("7ZZZZZZZZZZZZ");
		assertThat(this.codec.width()).isEqualTo(13);
	}

	@Test
	void neverWritesTheLettersCrockfordLeftOut() {
		for (long id = 0; id < 32 * 32; id++) {
			assertThat(this.codec.encode(id)).doesNotContain("I", "L", "O", "U");
		}
	}

	@Test
	void decodeIgnoresCase() {
		assertThat(this.codec.decode("128ggyhyyk08n")).isEqualTo(1234567890123456789L);
		assertThat(this.codec.decode("128GgYhYyK08n")).isEqualTo(1234567890123456789L);
		assertThat(this.codec.decode("7zzzzzzzzzzzz")).isEqualTo(Long.MAX_VALUE);
		assertThat(this.codec.decode(this.codec.encode(987654321L).toLowerCase(Locale.ROOT))).isEqualTo(987654321L);
	}

	@Test
	void decodeReadsLookAlikeLetters() {
		assertThat(this.codec.decode("000000000000I")).isEqualTo(1);
		assertThat(this.codec.decode("000000000000i")).isEqualTo(1);
		assertThat(this.codec.decode("000000000000L")).isEqualTo(1);
		assertThat(this.codec.decode("000000000000l")).isEqualTo(1);
		assertThat(this.codec.decode("OOOOOOOOOOOOo")).isEqualTo(0);
		assertThat(this.codec.decode("oOoOoOoOoOo1O")).isEqualTo(32);
	}

	@Test
	void decodeRejectsU() {
		assertThatIllegalArgumentException().isThrownBy(() -> this.codec.decode("00000U0000000"))
			.withMessage("Crockford32 ID '00000U0000000' has an invalid character 'U' at index 5 "
					+ "(allowed: 0-9, A-Z except U, any case; I and L read as 1, O as 0)");
		assertThatIllegalArgumentException().isThrownBy(() -> this.codec.decode("u000000000000"))
			.withMessageContaining("invalid character 'u' at index 0");
	}

	@Test
	void decodeRejectsHyphens() {
		assertThatIllegalArgumentException().isThrownBy(() -> this.codec.decode("0000-00000000"))
			.withMessageContaining("invalid character '-' at index 4");
		assertThatIllegalArgumentException().isThrownBy(() -> this.codec.decode("000000-0000000"))
			.withMessageStartingWith("Crockford32 ID must be 13 characters, got 14");
	}

	@Test
	void decodeRejectsValuesAbove63Bits() {
		assertThatIllegalArgumentException().isThrownBy(() -> this.codec.decode("8000000000000"))
			.withMessage("Crockford32 ID '8000000000000' overflows 63 bits (largest is '7ZZZZZZZZZZZZ')");
		assertThatIllegalArgumentException().isThrownBy(() -> this.codec.decode("zzzzzzzzzzzzz"))
			.withMessage("Crockford32 ID 'zzzzzzzzzzzzz' overflows 63 bits (largest is '7ZZZZZZZZZZZZ')");
	}

	@Test
	void decodeReportsABadCharacterBeforeAnOverflow() {
		assertThatIllegalArgumentException().isThrownBy(() -> this.codec.decode("80000000000U0"))
			.withMessageContaining("invalid character 'U' at index 11");
	}

	@Test
	void decodeRejectsCharactersBeyondAscii() {
		assertThatIllegalArgumentException().isThrownBy(() -> this.codec.decode("000000000000\uff10"))
			.withMessageContaining("invalid character '\\uFF10' at index 12");
	}

}
