package io.idstarter.codec;

/**
 * Messages of the codecs' errors; built only when input is rejected.
 */
final class CodecErrors {

	/** Longest input quoted in a message; longer input is cut, so a huge string does not flood the logs. */
	private static final int MAX_QUOTED = 40;

	private CodecErrors() {
	}

	static IllegalArgumentException negative(String codec, long id) {
		return new IllegalArgumentException(codec + " encodes IDs in [0, " + Long.MAX_VALUE + "], got " + id);
	}

	static IllegalArgumentException wrongLength(String codec, int width, CharSequence text) {
		return new IllegalArgumentException(codec + " ID must be " + width + " characters, got " + text.length() + ": "
				+ quote(text));
	}

	static IllegalArgumentException badCharacter(String codec, CharSequence text, int index, String allowed) {
		return new IllegalArgumentException(codec + " ID " + quote(text) + " has an invalid character "
				+ describe(text.charAt(index)) + " at index " + index + " (allowed: " + allowed + ")");
	}

	static IllegalArgumentException overflow(String codec, CharSequence text, String largest) {
		return new IllegalArgumentException(
				codec + " ID " + quote(text) + " overflows 63 bits (largest is '" + largest + "')");
	}

	static String quote(CharSequence text) {
		StringBuilder quoted = new StringBuilder(MAX_QUOTED + 5).append('\'');
		for (int i = 0; i < Math.min(text.length(), MAX_QUOTED); i++) {
			appendPrintable(quoted, text.charAt(i));
		}
		if (text.length() > MAX_QUOTED) {
			quoted.append("...");
		}
		return quoted.append('\'').toString();
	}

	private static String describe(char c) {
		StringBuilder described = new StringBuilder(8).append('\'');
		appendPrintable(described, c);
		return described.append('\'').toString();
	}

	private static void appendPrintable(StringBuilder builder, char c) {
		if (c >= 0x20 && c < 0x7f) {
			builder.append(c);
		}
		else {
			builder.append(String.format("\\u%04X", (int) c));
		}
	}

}
