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
 *
 * <p>The strings must be one-to-one in (period, number), so the pattern is refused at parse where two of them could
 * give one string: a two-digit year ({@code yy}, repeating every 100 years; use {@code yyyy}), a month as text
 * ({@code MMM}), and a field of varying width ({@code M}, {@code d}, {@code y}, {@code {seq}}) anywhere but last or
 * right before a literal that does not start with a digit: {@code {yyyyMd}-{seq:3}} would write 11 January and
 * 1 November 2026 both as {@code 2026111-001}.
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
		// What each placeholder or literal writes, in order, to check that the strings can be read back one way.
		List<Written> written = new ArrayList<>();
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
				written.add(Written.literal(pattern.substring(i)));
				break;
			}
			if (open > i) {
				parts.add(new Literal(pattern.substring(i, open)));
				written.add(Written.literal(pattern.substring(i, open)));
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
				written.add(new Written("{" + placeholder + "}", (width > 0) ? Width.FIXED : Width.VARYING,
						"{seq:N}"));
			}
			else if (placeholder.equals("period")) {
				parts.add(new PeriodStamp());
				written.add(new Written("{period}", Width.FIXED, ""));
				year = true;
				month = true;
				day = true;
			}
			else if (placeholder.equals("key")) {
				parts.add(new Key());
				written.add(new Written("{key}", Width.TEXT, ""));
			}
			else if (!placeholder.isEmpty() && placeholder.chars().allMatch((c) -> "yuMd".indexOf(c) >= 0)) {
				addDateFields(pattern, placeholder, written);
				parts.add(new DateField(DateTimeFormatter.ofPattern(placeholder, Locale.ROOT)));
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
		checkReadableBack(pattern, written);
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

	/**
	 * Returns the pattern's literal text: the pattern with its placeholders taken out.
	 * @return e.g. {@code INV--} for {@code INV-{yyyyMMdd}-{seq:6}}
	 */
	String literalText() {
		StringBuilder text = new StringBuilder();
		for (Part part : this.parts) {
			if (part instanceof Literal literal) {
				text.append(literal.text());
			}
		}
		return text.toString();
	}

	/**
	 * Returns whether the pattern writes the declared key ({@code {key}}).
	 * @return {@code true} if it does
	 */
	boolean writesKey() {
		return this.parts.stream().anyMatch(Key.class::isInstance);
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

	/**
	 * Adds the fields of a date placeholder, one per run of a letter, refusing a two-digit year and a month as text.
	 */
	private static void addDateFields(String pattern, String placeholder, List<Written> written) {
		int start = 0;
		while (start < placeholder.length()) {
			char letter = placeholder.charAt(start);
			int end = start;
			while (end < placeholder.length() && placeholder.charAt(end) == letter) {
				end++;
			}
			int count = end - start;
			String run = placeholder.substring(start, end);
			if ((letter == 'y' || letter == 'u') && count == 2) {
				throw invalid(pattern, "{" + placeholder + "} writes a two-digit year, which repeats every 100 years "
						+ "(2026 and 2126 both write 26), so numbers of two periods could give the same string; use {"
						+ placeholder.replace(run, run + run) + "}");
			}
			if ((letter == 'M' || letter == 'd') && count > 2) {
				throw invalid(pattern, "{" + run + "} is not a number of the " + ((letter == 'M') ? "month" : "day")
						+ "; use {" + letter + letter + "}");
			}
			boolean varying = count == 1 || count == 3;
			written.add(new Written("{" + run + "}", varying ? Width.VARYING : Width.FIXED,
					(letter == 'y' || letter == 'u') ? "{" + letter + letter + letter + letter + "}"
							: "{" + letter + letter + "}"));
			start = end;
		}
	}

	/**
	 * Refuses a pattern whose strings could not be read back one way: a field of varying width followed by anything
	 * but a literal that starts with a character no field writes (a digit).
	 */
	private static void checkReadableBack(String pattern, List<Written> written) {
		for (int i = 0; i < written.size() - 1; i++) {
			Written field = written.get(i);
			Written next = written.get(i + 1);
			if (field.width() == Width.VARYING && !(next.width() == Width.LITERAL
					&& !Character.isDigit(next.text().charAt(0)))) {
				throw invalid(pattern, field.text() + " writes a varying number of digits and is followed by "
						+ next.text() + ", which may start with a digit, so two periods or numbers could give the "
						+ "same string; use " + field.fixed() + " or put a literal that is not a digit after it");
			}
		}
	}

	private static IllegalArgumentException invalid(String pattern, String reason) {
		return new IllegalArgumentException("Invalid periodic format '" + pattern + "': " + reason);
	}

	/** How wide what a field writes is. */
	private enum Width {

		/** Always the same number of digits. */
		FIXED,

		/** A number of digits that depends on the value. */
		VARYING,

		/** The declared key: text that may start with a digit. */
		TEXT,

		/** Literal text of the pattern. */
		LITERAL

	}

	/**
	 * What one placeholder's field, or one literal, writes.
	 *
	 * @param text the placeholder in braces, or the literal
	 * @param width how wide it is
	 * @param fixed the placeholder of fixed width to propose instead
	 */
	private record Written(String text, Width width, String fixed) {

		static Written literal(String text) {
			return new Written(text, Width.LITERAL, "");
		}

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

	private record DateField(DateTimeFormatter formatter) implements Part {

		@Override
		public void append(StringBuilder out, String key, String period, LocalDate day, long sequence) {
			this.formatter.formatTo(day, out);
		}

	}

	private record PeriodStamp() implements Part {

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
