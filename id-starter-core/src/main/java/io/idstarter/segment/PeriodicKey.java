package io.idstarter.segment;

import java.time.Duration;
import java.util.Objects;

/**
 * A declared key whose numbers start again every period, served by {@link PeriodicNumbers}: each period draws from
 * its own segment key {@code <name>:<stamp>}, created on the period's first call with {@code firstId} and
 * {@code step}, and deleted once the period ended more than {@code retention} ago (never the current or the previous
 * period). Its reset, zone and format are recorded once, beside the periods, in the segment key
 * {@code <name>:settings}.
 *
 * @param name the declared key: 1 to 119 characters of {@code [A-Za-z0-9._-]} (no {@code :}, which separates the
 * stamp)
 * @param reset how often the numbers start again
 * @param formatter turns a number into the string callers get
 * @param firstId the first number of each period, at least 0
 * @param step the step of each period's segment key, at least 1
 * @param retention how long after its end a period's segment key is kept, not negative
 */
public record PeriodicKey(String name, ResetPeriod reset, PeriodicFormatter formatter, long firstId, int step,
		Duration retention) {

	/** First number of each period unless set. */
	public static final long DEFAULT_FIRST_ID = 1;

	/** Step of each period's segment key unless set. */
	public static final int DEFAULT_STEP = 100;

	/** How long an ended period's segment key is kept unless set. */
	public static final Duration DEFAULT_RETENTION = Duration.ofDays(35);

	/**
	 * Longest declared key: a period's segment key adds {@code :yyyyMMdd}, the settings key {@code :settings}, and both
	 * must fit {@link SegmentKeys}.
	 */
	public static final int MAX_NAME_LENGTH = SegmentKeys.MAX_KEY_LENGTH - 9;

	/** Ends the segment key that records a key's settings; not a stamp, which has digits only. */
	private static final String SETTINGS_SUFFIX = ":settings";

	/**
	 * Checks the definition.
	 * @throws IllegalArgumentException if a value is not allowed
	 */
	public PeriodicKey {
		Objects.requireNonNull(name, "name");
		Objects.requireNonNull(reset, "reset");
		Objects.requireNonNull(formatter, "formatter");
		Objects.requireNonNull(retention, "retention");
		SegmentKeys.checkKey(name);
		if (name.indexOf(':') >= 0 || name.length() > MAX_NAME_LENGTH) {
			throw new IllegalArgumentException("periodic key '" + name + "' must be 1 to " + MAX_NAME_LENGTH
					+ " characters without ':', which separates the period stamp in the segment key");
		}
		SegmentKeys.checkStep(name, step);
		SegmentKeys.checkFirstId(name, firstId, step);
		if (retention.isNegative()) {
			throw new IllegalArgumentException("retention of periodic key '" + name + "' must not be negative: "
					+ retention);
		}
	}

	/**
	 * Declares a key with a pattern format, first number 1, step 100 and a retention of 35 days.
	 * @param name the declared key
	 * @param reset how often the numbers start again
	 * @param pattern a {@link PeriodicFormat} pattern, e.g. {@code INV-{yyyyMMdd}-{seq:6}}
	 * @return the key
	 * @throws IllegalArgumentException if the name or the pattern is not allowed
	 */
	public static PeriodicKey of(String name, ResetPeriod reset, String pattern) {
		return new PeriodicKey(name, reset, PeriodicFormat.parse(pattern, reset), DEFAULT_FIRST_ID, DEFAULT_STEP,
				DEFAULT_RETENTION);
	}

	/**
	 * Returns a copy with another first number.
	 * @param firstId the first number of each period
	 * @return the copy
	 */
	public PeriodicKey withFirstId(long firstId) {
		return new PeriodicKey(this.name, this.reset, this.formatter, firstId, this.step, this.retention);
	}

	/**
	 * Returns a copy with another step.
	 * @param step the step of each period's segment key
	 * @return the copy
	 */
	public PeriodicKey withStep(int step) {
		return new PeriodicKey(this.name, this.reset, this.formatter, this.firstId, step, this.retention);
	}

	/**
	 * Returns a copy with another retention.
	 * @param retention how long after its end a period's segment key is kept
	 * @return the copy
	 */
	public PeriodicKey withRetention(Duration retention) {
		return new PeriodicKey(this.name, this.reset, this.formatter, this.firstId, this.step, retention);
	}

	/**
	 * Returns the segment key of a period.
	 * @param stamp the period's stamp
	 * @return {@code <name>:<stamp>}
	 */
	public String segmentKey(String stamp) {
		return this.name + ":" + stamp;
	}

	/**
	 * Returns the segment key whose description records this key's reset, zone and format, created by the first node
	 * that starts with the key and compared by every other node at start. No number is drawn from it.
	 * @return {@code <name>:settings}
	 */
	public String settingsKey() {
		return settingsKey(this.name);
	}

	static String settingsKey(String name) {
		return name + SETTINGS_SUFFIX;
	}

}
