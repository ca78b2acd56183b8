package io.idstarter.segment;

import java.time.LocalDate;

/**
 * Turns a periodic key's number into the string callers get; the SPI behind {@link PeriodicNumbers}, implemented by
 * {@link PeriodicFormat} for patterns such as {@code INV-{yyyyMMdd}-{seq:6}}.
 *
 * <p>A formatter must be injective in {@code sequence} for one period (two numbers of a period never give the same
 * string) and must put the period in the string, or strings of different periods may repeat. It must never shorten,
 * wrap or widen a number silently: a number it cannot write is refused with {@link PeriodicWidthExceededException}.
 */
@FunctionalInterface
public interface PeriodicFormatter {

	/**
	 * Formats one number.
	 * @param key the declared key (without the period stamp)
	 * @param period the period's stamp, as in the segment key {@code <key>:<stamp>}
	 * @param day the day the call's clock reading fell on, in the configured zone; always inside the period
	 * @param sequence the number, drawn from the period's own segment key
	 * @return the string
	 * @throws PeriodicWidthExceededException if the number does not fit the format
	 */
	String format(String key, String period, LocalDate day, long sequence);

}
