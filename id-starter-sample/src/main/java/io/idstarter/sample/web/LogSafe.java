package io.idstarter.sample.web;

import java.util.Locale;

import org.jspecify.annotations.Nullable;

/**
 * The one rule for putting a value a client chose (a user name, a path, a fleet instance name, a store message that
 * quotes one) into the log: control characters and line separators are escaped, so that no client can start a line
 * of its own, and the value is cut to a length that keeps a line readable.
 */
public final class LogSafe {

	/** Longest value written as it is; longer ones are cut and end in "...". */
	static final int MAX_LENGTH = 256;

	private LogSafe() {
	}

	/**
	 * Returns a value as it may be logged: {@code \n}, {@code \r}, {@code \t} and {@code \\} escaped as in Java,
	 * other control characters (C0, DEL, C1) and the Unicode line and paragraph separators as {@code \u005Cu}
	 * escapes.
	 * @param value what the client sent, or {@code null}
	 * @return the escaped value, at most {@value #MAX_LENGTH} characters of it; "null" for {@code null}
	 */
	public static String escape(@Nullable Object value) {
		String text = String.valueOf(value);
		int length = Math.min(text.length(), MAX_LENGTH);
		StringBuilder escaped = null;
		for (int i = 0; i < length; i++) {
			char c = text.charAt(i);
			String replacement = replacement(c);
			if (replacement != null && escaped == null) {
				escaped = new StringBuilder(length + 16).append(text, 0, i);
			}
			if (escaped != null) {
				if (replacement != null) {
					escaped.append(replacement);
				}
				else {
					escaped.append(c);
				}
			}
		}
		String result = (escaped != null) ? escaped.toString() : text.substring(0, length);
		return (text.length() > MAX_LENGTH) ? result + "..." : result;
	}

	private static @Nullable String replacement(char c) {
		return switch (c) {
			case '\n' -> "\\n";
			case '\r' -> "\\r";
			case '\t' -> "\\t";
			case '\\' -> "\\\\";
			default -> (c < 0x20 || (c >= 0x7f && c <= 0x9f) || c == '\u2028' || c == '\u2029')
					? String.format(Locale.ROOT, "\\u%04x", (int) c) : null;
		};
	}

}
