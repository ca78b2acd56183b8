package io.idstarter.sequence;

/**
 * Issues the values of named sequences kept in a store shared by every instance (seed 000's per-collection
 * auto-increment keys). Each name has its own {@link SequenceDefinition}; a value is issued at most once, across all
 * processes that use the same store.
 *
 * <p>Values of one sequence are issued in increasing order by the store. Within one JVM they are increasing as well
 * unless the sequence has a batch size above 1 and several threads draw from it at once (each value is still issued
 * once). Values taken from the store but not issued before the JVM stops are never issued: sequences may have gaps.
 */
public interface SequenceService {

	/**
	 * Returns the next value of a sequence.
	 * @param name the sequence name
	 * @return the value, in {@code [start, end]} of the sequence's definition
	 * @throws UnknownSequenceException if the store has no such sequence
	 * @throws SequenceExhaustedException if the next value would pass the sequence's end
	 * @throws SequenceStoreException if the store cannot be reached or its sequence document is corrupt
	 */
	long next(String name);

	/**
	 * Creates a sequence unless one with the same name exists.
	 * @param definition the sequence
	 * @return {@code true} if it was created, {@code false} if it existed (it is then left unchanged)
	 * @throws SequenceStoreException if the store cannot be reached
	 */
	boolean create(SequenceDefinition definition);

}
