package io.idstarter.segment;

import org.jspecify.annotations.Nullable;

/**
 * Creates keys and changes their step in a segment store; implemented by the stores this project ships, next to
 * {@link SegmentStore}. Separate from allocation because most applications never call it, and a server exposes it
 * only behind authentication.
 */
public interface SegmentKeyAdmin {

	/**
	 * Creates a key unless it exists.
	 * @param key the business key
	 * @param firstId the first ID the key will issue, at least 0
	 * @param step the key's configured step, at least 1
	 * @param description free text for operators
	 * @return {@code true} if the key was created, {@code false} if it existed (it is then left unchanged)
	 * @throws IllegalArgumentException if the key, first ID or step is not allowed
	 * @throws SegmentStoreException if the store cannot be reached or is not set up
	 */
	boolean createKey(String key, long firstId, int step, String description);

	/**
	 * Changes the configured step of a key; ranges already allocated keep their size.
	 * @param key the business key
	 * @param step the new step, at least 1
	 * @throws UnknownKeyException if the store has no such key
	 * @throws SegmentStoreException if the store cannot be reached or is not set up
	 */
	void updateStep(String key, int step);

	/**
	 * Moves a key's next range up to start at {@code floor} or above, if it starts below: forward only, in one
	 * conditional update, never down. Called by a node that was given numbers of the key up to {@code floor} and found
	 * the store below it: the store lost writes, and without this it would hand those numbers out again.
	 * @param key the business key
	 * @param floor the first number the next range may start at, at least 0
	 * @return {@code true} if this call moved the key up, {@code false} if it already started at {@code floor} or above
	 * @throws UnknownKeyException if the store has no such key
	 * @throws UnsupportedOperationException if the store cannot (the default)
	 * @throws SegmentStoreException if the store cannot be reached or is not set up
	 */
	default boolean raiseMaxId(String key, long floor) {
		throw new UnsupportedOperationException(getClass().getSimpleName() + " cannot raise a key's max_id");
	}

	/**
	 * Deletes a key and its high mark from the store, for keys that are retired on purpose, such as a
	 * {@link PeriodicNumbers periodic key} past its retention. Deleting a key that is still in use lets its numbers be
	 * handed out again once it is created anew; callers delete only keys nobody draws from any more.
	 * @param key the business key
	 * @return {@code true} if the key existed
	 * @throws UnsupportedOperationException if the store cannot (the default)
	 * @throws SegmentStoreException if the store cannot be reached or is not set up
	 */
	default boolean deleteKey(String key) {
		throw new UnsupportedOperationException(getClass().getSimpleName() + " cannot delete a key");
	}

	/**
	 * Returns whether {@link #deleteKey} is implemented, so that a caller that would delete keys regularly (the
	 * retention of {@link PeriodicNumbers periodic keys}) can tell at start.
	 * @return {@code false} unless {@link #deleteKey} deletes; {@code false} by default
	 */
	default boolean deletesKeys() {
		return false;
	}

	/**
	 * Reads the description a key was created with, where {@link PeriodicNumbers} records the zone, reset and format
	 * of a periodic key so that every node can check that it decides periods as the others do.
	 * @param key the business key
	 * @return the description, or {@code null} if the store has no such key
	 * @throws UnsupportedOperationException if the store keeps no descriptions (the default)
	 * @throws SegmentStoreException if the store cannot be reached or is not set up
	 */
	default @Nullable String description(String key) {
		throw new UnsupportedOperationException(getClass().getSimpleName() + " keeps no key descriptions");
	}

}
