package io.idstarter.segment;

/**
 * Thrown when a period's number no longer fits the width its format gives it (the millionth number of a
 * {@code {seq:6}} format): the caller gets this instead of a wrapped or longer number. The period issues no more
 * numbers of this format; widen the format (the strings get longer) or reset more often.
 */
public class PeriodicWidthExceededException extends IllegalStateException {

	private static final long serialVersionUID = 1L;

	private final String key;

	private final String period;

	private final int width;

	/**
	 * Creates the exception.
	 * @param key the declared key
	 * @param period the period's stamp
	 * @param width the number of digits the format allows
	 * @param sequence the number that did not fit
	 */
	public PeriodicWidthExceededException(String key, String period, int width, long sequence) {
		super("Periodic key '" + key + "' used up the " + width + " digits of its format in period " + period
				+ ": number " + sequence + " does not fit; widen {seq:" + width + "} or reset more often");
		this.key = key;
		this.period = period;
		this.width = width;
	}

	/**
	 * Returns the declared key.
	 * @return the key
	 */
	public String getKey() {
		return this.key;
	}

	/**
	 * Returns the stamp of the period that ran out.
	 * @return the stamp
	 */
	public String getPeriod() {
		return this.period;
	}

	/**
	 * Returns the width of the format's sequence.
	 * @return the number of digits
	 */
	public int getWidth() {
		return this.width;
	}

}
