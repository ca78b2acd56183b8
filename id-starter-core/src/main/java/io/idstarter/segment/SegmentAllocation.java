package io.idstarter.segment;

import java.util.Objects;

/**
 * A range of numbers allocated to one key: {@code [start, end)}.
 *
 * @param key the business key
 * @param start first number of the range (inclusive)
 * @param end first number past the range (exclusive)
 * @param configuredStep the step configured for the key in the store; the dynamic step never goes below it
 */
public record SegmentAllocation(String key, long start, long end, int configuredStep) {

	public SegmentAllocation {
		Objects.requireNonNull(key, "key");
		if (start < 0 || end <= start) {
			throw new IllegalArgumentException(
					"range of key '" + key + "' must satisfy 0 <= start < end: [" + start + ", " + end + ")");
		}
		if (configuredStep < 1) {
			throw new IllegalArgumentException(
					"configured step of key '" + key + "' must be at least 1: " + configuredStep);
		}
	}

	/**
	 * Returns how many numbers the range holds.
	 * @return {@code end - start}
	 */
	public long size() {
		return this.end - this.start;
	}

}
