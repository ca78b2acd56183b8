package io.idstarter.segment;

/**
 * A snapshot of one range held in memory by a {@link SegmentIdGenerator}: {@code [start, end)}.
 *
 * @param start first number of the range (inclusive)
 * @param end first number past the range (exclusive)
 * @param nextValue the number the range hands out next; {@code end} once it is used up
 */
public record SegmentView(long start, long end, long nextValue) {

	/**
	 * Returns how many numbers of the range are left.
	 * @return {@code end - nextValue}
	 */
	public long remaining() {
		return this.end - this.nextValue;
	}

	/**
	 * Returns how many numbers the range holds.
	 * @return {@code end - start}
	 */
	public long size() {
		return this.end - this.start;
	}

	@Override
	public String toString() {
		return "[" + this.start + ", " + this.end + ") next " + this.nextValue;
	}

}
