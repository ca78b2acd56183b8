package io.idstarter.segment;

import java.time.DateTimeException;
import java.time.LocalDate;
import java.time.temporal.ChronoUnit;
import java.util.Locale;

import org.jspecify.annotations.Nullable;

/**
 * How often a {@link PeriodicNumbers periodic key} starts counting again: each period has its own segment key,
 * {@code <key>:<stamp>}, created on its first call.
 */
public enum ResetPeriod {

	/** A new period every day at midnight in the configured zone; stamp {@code yyyyMMdd}. */
	DAILY(ChronoUnit.DAYS, 8),

	/** A new period on the first day of every month; stamp {@code yyyyMM}. */
	MONTHLY(ChronoUnit.MONTHS, 6),

	/** A new period on the first of January; stamp {@code yyyy}. */
	YEARLY(ChronoUnit.YEARS, 4);

	private final ChronoUnit unit;

	private final int stampLength;

	ResetPeriod(ChronoUnit unit, int stampLength) {
		this.unit = unit;
		this.stampLength = stampLength;
	}

	/**
	 * Returns the first day of the period a day falls in.
	 * @param day the day
	 * @return the period's first day
	 */
	public LocalDate start(LocalDate day) {
		return switch (this) {
			case DAILY -> day;
			case MONTHLY -> day.withDayOfMonth(1);
			case YEARLY -> day.withDayOfYear(1);
		};
	}

	/**
	 * Returns the first day of the period {@code periods} before the one a day falls in.
	 * @param day the day
	 * @param periods how many periods back, at least 0
	 * @return that period's first day
	 */
	public LocalDate startBefore(LocalDate day, long periods) {
		return start(day).minus(periods, this.unit);
	}

	/**
	 * Returns the first day of the period after the one a day falls in.
	 * @param day the day
	 * @return the next period's first day
	 */
	public LocalDate nextStart(LocalDate day) {
		return start(day).plus(1, this.unit);
	}

	/**
	 * Returns the stamp of the period a day falls in, which ends the period's segment key and sorts as the periods do.
	 * @param day the day
	 * @return {@code yyyyMMdd}, {@code yyyyMM} or {@code yyyy}
	 */
	public String stamp(LocalDate day) {
		LocalDate start = start(day);
		String full = String.format(Locale.ROOT, "%04d%02d%02d", start.getYear(), start.getMonthValue(),
				start.getDayOfMonth());
		return full.substring(0, this.stampLength);
	}

	/**
	 * Reads a stamp back.
	 * @param stamp a stamp of this period kind
	 * @return the period's first day, or {@code null} if the text is not such a stamp
	 */
	@Nullable LocalDate parse(String stamp) {
		if (stamp.length() != this.stampLength) {
			return null;
		}
		for (int i = 0; i < stamp.length(); i++) {
			if (stamp.charAt(i) < '0' || stamp.charAt(i) > '9') {
				return null;
			}
		}
		int year = Integer.parseInt(stamp.substring(0, 4));
		int month = (this.stampLength >= 6) ? Integer.parseInt(stamp.substring(4, 6)) : 1;
		int day = (this.stampLength >= 8) ? Integer.parseInt(stamp.substring(6, 8)) : 1;
		try {
			return LocalDate.of(year, month, day);
		}
		catch (DateTimeException ex) {
			return null;
		}
	}

}
