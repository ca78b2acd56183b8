package io.idstarter.sequence;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * What a sequence issues: {@code start}, {@code start + step}, {@code start + 2 * step}, ... up to and including
 * {@code end}, then it is exhausted.
 *
 * <p>With a {@code batchSize} above 1, each process takes {@code batchSize} consecutive values from the store in one
 * atomic update and issues them from memory: far fewer store round trips, at the price of gaps when a process stops
 * with values left, and of values that are not increasing across processes. The last batch before {@code end} is cut
 * short so that no value above {@code end} is ever issued.
 *
 * @param name the sequence name (for entity keys, the collection name): 1 to {@value #MAX_NAME_LENGTH} characters
 * from {@code A-Z a-z 0-9 _ . : -}
 * @param start the first value, at least 0
 * @param end the greatest value that may be issued, at least {@code start}; with {@link Long#MAX_VALUE} the values
 * above {@code Long.MAX_VALUE - step} are never issued, because the store would have to hold a counter past it
 * @param step the difference between consecutive values, at least 1
 * @param batchSize how many values a process takes from the store at once, at least 1; {@code batchSize * step} must
 * fit in a {@code long}
 */
public record SequenceDefinition(String name, long start, long end, long step, int batchSize) {

	/** Longest sequence name. */
	public static final int MAX_NAME_LENGTH = 128;

	private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_.:-]+");

	public SequenceDefinition {
		Objects.requireNonNull(name, "name");
		requireValidName(name);
		if (start < 0) {
			throw new IllegalArgumentException("start of sequence '" + name + "' must be at least 0: " + start);
		}
		if (end < start) {
			throw new IllegalArgumentException(
					"end of sequence '" + name + "' must be at least its start " + start + ": " + end);
		}
		if (step < 1) {
			throw new IllegalArgumentException("step of sequence '" + name + "' must be at least 1: " + step);
		}
		if (batchSize < 1) {
			throw new IllegalArgumentException(
					"batch size of sequence '" + name + "' must be at least 1: " + batchSize);
		}
		if (Long.MAX_VALUE / batchSize < step) {
			throw new IllegalArgumentException("batch size times step of sequence '" + name
					+ "' must fit in a long: " + batchSize + " * " + step);
		}
	}

	/**
	 * Returns a sequence that issues 0, 1, 2, ... one value per store round trip.
	 * @param name the sequence name
	 * @return the definition
	 */
	public static SequenceDefinition of(String name) {
		return new SequenceDefinition(name, 0, Long.MAX_VALUE, 1, 1);
	}

	/**
	 * Returns a copy with another first value.
	 * @param start the first value
	 * @return the definition
	 */
	public SequenceDefinition withStart(long start) {
		return new SequenceDefinition(this.name, start, this.end, this.step, this.batchSize);
	}

	/**
	 * Returns a copy with another greatest value.
	 * @param end the greatest value that may be issued
	 * @return the definition
	 */
	public SequenceDefinition withEnd(long end) {
		return new SequenceDefinition(this.name, this.start, end, this.step, this.batchSize);
	}

	/**
	 * Returns a copy with another step.
	 * @param step the difference between consecutive values
	 * @return the definition
	 */
	public SequenceDefinition withStep(long step) {
		return new SequenceDefinition(this.name, this.start, this.end, step, this.batchSize);
	}

	/**
	 * Returns a copy with another batch size.
	 * @param batchSize how many values a process takes from the store at once
	 * @return the definition
	 */
	public SequenceDefinition withBatchSize(int batchSize) {
		return new SequenceDefinition(this.name, this.start, this.end, this.step, batchSize);
	}

	/**
	 * Checks a sequence name.
	 * @param name the name
	 * @throws IllegalArgumentException if the name is empty, longer than {@value #MAX_NAME_LENGTH} characters, or
	 * has a character outside {@code A-Z a-z 0-9 _ . : -}
	 */
	public static void requireValidName(String name) {
		if (name.isEmpty() || name.length() > MAX_NAME_LENGTH || !NAME.matcher(name).matches()) {
			throw new IllegalArgumentException("sequence name must be 1 to " + MAX_NAME_LENGTH
					+ " characters from [A-Za-z0-9_.:-]: '" + name + "'");
		}
	}

}
