package io.idstarter.sequence;

/**
 * A sequence that counts 0, 1, ..., {@code max - 1} and then starts again at 0 (seed 001's cyclic sequence), shared by
 * every process that uses the same store. Within one cycle each value is issued once; the same values come back in
 * the next cycle, so a cyclic value is unique only together with something that changes between cycles, such as the
 * timestamp of {@link TimePrefixedIdGenerator}.
 */
public interface CyclicSequence {

	/**
	 * Returns the next value.
	 * @return a value in {@code [0, max)}
	 * @throws SequenceStoreException if the store cannot be reached or the sequence's document is corrupt
	 */
	long next();

	/**
	 * Returns the length of the cycle: values are below it, and the value after {@code max - 1} is 0.
	 * @return the cycle length, at least 1
	 */
	long max();

}
