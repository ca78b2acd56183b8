package io.idstarter.sample.web;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a client sends cannot start a log line of its own: every control character and line separator is escaped,
 * the escape character itself too (so that an escape in the log always stands for what the client sent), and long
 * values are cut.
 */
class LogSafeTests {

	@Test
	void lineBreaksAndControlCharactersAreEscaped() {
		assertThat(LogSafe.escape("host\nFORGED 2026-11-26 INFO done\r\t\u0000\u001b[31m\u007f\u0085\u2028\u2029"))
			.isEqualTo("host\\nFORGED 2026-11-26 INFO done\\r\\t\\u0000\\u001b[31m\\u007f\\u0085\\u2028\\u2029");
	}

	@Test
	void theEscapeCharacterIsEscapedSoThatEscapesCannotBeForged() {
		assertThat(LogSafe.escape("a\\nb")).isEqualTo("a\\\\nb");
	}

	@Test
	void plainValuesAreKept() {
		assertThat(LogSafe.escape("order-service:host-1")).isEqualTo("order-service:host-1");
		assertThat(LogSafe.escape("é ü 名前")).isEqualTo("é ü 名前");
		assertThat(LogSafe.escape(null)).isEqualTo("null");
	}

	@Test
	void longValuesAreCut() {
		assertThat(LogSafe.escape("x".repeat(1000))).hasSize(LogSafe.MAX_LENGTH + 3).endsWith("...");
	}

}
