package io.idstarter.segment;

import java.time.LocalDate;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * A {@link PeriodicFormatter} written as a pattern: literal text with placeholders in braces.
 * <ul>
 * <li>{@code {seq:N}}: the number, zero-padded to {@code N} digits (1 to 18); a number with more digits is refused
 * with {@link PeriodicWidthExceededException}. {@code {seq}}: the number as it is, without padding or limit.
 * Exactly one of them.</li>
 * <li>A date of the call's day in the configured zone, written with the letters {@code y}, {@code u}, {@code M} and
 * {@code d} of {@link DateTimeFormatter}, e.g. {@code {yyyyMMdd}}, {@code {yyyy}}, {@code {yyMM}}.</li>
 * <li>{@code {period}}: the period's stamp ({@code yyyyMMdd}, {@code yyyyMM} or {@code yyyy}); {@code {key}}: the
 * declared key.</li>
 * </ul>
 * Anything else in braces fails at parse with a message naming the pattern and the placeholder. The pattern must
 * write the period: the day, month and year for a daily key (through a date or {@code {period}}), the month and year
 * for a monthly key, the year for a yearly key; otherwise strings of two periods could repeat.
 */
public final class PeriodicFormat implements PeriodicFormatter {

	/** Most digits of {@code {seq:N}}: every non-negative long below 10^18 fits. */
	public static final int MAX_WIDTH = 18;

	private final String pattern;

	private final List<Part> parts;

	/** Digits of the number; 0 for {@code {seq}}, which has no limit. */
	private final int width;

	private PeriodicFormat(String pattern, List<Part> parts, int width) {
		this.pattern = pattern;
		this.parts = parts;
		this.width = width;
	}

	/**
	 * Parses a pattern for keys that reset at the given period.
	 * @param pattern the pattern, e.g. {@code INV-{yyyyMMdd}-{seq:6}}
	 * @param reset how often the key starts again, which the pattern must write
	 * @return the format
	 * @throws IllegalArgumentException naming the pattern if a placeholder is unknown, a brace is not closed, the
	 * sequence is missing or repeated, its width is outside 1 to 18, or the pattern does not write the period
	 */
	public static PeriodicFormat parse(String pattern, ResetPeriod reset) {
		Objects.requireNonNull(pattern, "pattern");
		Objects.requireNonNull(reset, "reset");
		List<Part> parts = new ArrayList<>();
		int width = -1;
		boolean year = false;
		boolean month = false;
		boolean day = false;
		int i = 0;
		while (i < pattern.length()) {
			int open = pattern.indexOf('{', i);
			int close = pattern.indexOf('}', i);
			if (close >= 0 && (open < 0 || close < open)) {
				throw invalid(pattern, "'}' at " + close + " closes no placeholder");
			}
			if (open < 0) {
				parts.add(new Literal(pattern.substring(i)));
				break;
			}
			if (open > i) {
				parts.add(new Literal(pattern.substring(i, open)));
			}
			if (close < 0) {
				throw invalid(pattern, "'{' at " + open + " is not closed");
			}
			String placeholder = pattern.substring(open + 1, close);
			if (placeholder.equals("seq") || placeholder.startsWith("seq:")) {
				if (width >= 0) {
					throw invalid(pattern, "it has more than one {seq}");
				}
				width = seqWidth(pattern, placeholder);
				parts.add(new Sequence(width));
			}
			else if (placeholder.equals("period")) {
				parts.add(new Period());
				year = true;
				month = true;
				day = true;
			}
			else if (placeholder.equals("key")) {
				parts.add(new Key());
			}
			else if (!placeholder.isEmpty() && placeholder.chars().allMatch((c) -> "yuMd".indexOf(c) >= 0)) {
				parts.add(new Date(DateTimeFormatter.ofPattern(placeholder, Locale.ROOT)));
				year |= placeholder.indexOf('y') >= 0 || placeholder.indexOf('u') >= 0;
				month |= placeholder.indexOf('M') >= 0;
				day |= placeholder.indexOf('d') >= 0;
			}
			else {
				throw invalid(pattern, "unknown placeholder {" + placeholder + "}; use {seq:N}, {seq}, {period}, "
						+ "{key} or a date of the letters y, u, M and d such as {yyyyMMdd}");
			}
			i = close + 1;
		}
		if (width < 0) {
			throw invalid(pattern, "it has no {seq:N} or {seq}");
		}
		boolean writesPeriod = switch (reset) {
			case DAILY -> year && month && day;
			case MONTHLY -> year && month;
			case YEARLY -> year;
		};
		if (!writesPeriod) {
			throw invalid(pattern, "it does not write the " + reset.name().toLowerCase(Locale.ROOT)
					+ " period, so numbers of two periods could give the same string; add {period} or a date such as "
					+ switch (reset) {
						case DAILY -> "{yyyyMMdd}";
						case MONTHLY -> "{yyyyMM}";
						case YEARLY -> "{yyyy}";
					});
		}
		return new PeriodicFormat(pattern, List.copyOf(parts), width);
	}

	/**
	 * Returns the digits of the number.
	 * @return 1 to 18, or 0 for {@code {seq}}, which has no limit
	 */
	public int width() {
		return this.width;
	}

	/**
	 * Returns the largest number the format can write.
	 * @return {@code 10^width - 1}, or {@link Long#MAX_VALUE} for {@code {seq}}
	 */
	public long maxSequence() {
		if (this.width == 0) {
			return Long.MAX_VALUE;
		}
		long max = 1;
		for (int i = 0; i < this.width; i++) {
			max *= 10;
		}
		return max - 1;
	}

	@Override
	public String format(String key, String period, LocalDate day, long sequence) {
		if (sequence < 0 || sequence > maxSequence()) {
			throw new PeriodicWidthExceededException(key, period, this.width, sequence);
		}
		StringBuilder out = new StringBuilder(this.pattern.length() + 16);
		for (Part part : this.parts) {
			part.append(out, key, period, day, sequence);
		}
		return out.toString();
	}

	@Override
	public String toString() {
		return this.pattern;
	}

	private static int seqWidth(String pattern, String placeholder) {
		if (placeholder.equals("seq")) {
			return 0;
		}
		String digits = placeholder.substring(4);
		int width;
		try {
			width = Integer.parseInt(digits);
		}
		catch (NumberFormatException ex) {
			throw invalid(pattern, "{" + placeholder + "} needs a width of 1 to " + MAX_WIDTH + " digits");
		}
		if (width < 1 || width > MAX_WIDTH) {
			throw invalid(pattern, "{" + placeholder + "} needs a width of 1 to " + MAX_WIDTH + " digits");
		}
		return width;
	}

	private static IllegalArgumentException invalid(String pattern, String reason) {
		return new IllegalArgumentException("Invalid periodic format '" + pattern + "': " + reason);
	}

	private interface Part {

		void append(StringBuilder out, String key, String period, LocalDate day, long sequence);

	}

	private record Literal(String text) implements Part {

		@Override
		public void append(StringBuilder out, String key, String period, LocalDate day, long sequence) {
			out.append(this.text);
		}

	}

	private record Sequence(int width) implements Part {

		@Override
		public void append(StringBuilder out, String key, String period, LocalDate day, long sequence) {
			String digits = Long.toString(sequence);
			for (int i = digits.length(); i < this.width; i++) {
				out.append('0');
			}
			out.append(digits);
		}

	}

	private record Date(DateTimeFormatter formatter) implements Part {

		@Override
		public void append(StringBuilder out, String key, String period, LocalDate day, long sequence) {
			this.formatter.formatTo(day, out);
		}

	}

	private record Period() implements Part {

		@Override
		public void append(StringBuilder out, String key, String period, LocalDate day, long sequence) {
			out.append(period);
		}

	}

	private record Key() implements Part {

		@Override
		public void append(StringBuilder out, String key, String period, LocalDate day, long sequence) {
			out.append(key);
		}

	}

}
