package io.idstarter.segment;

import java.util.Set;

import org.jspecify.annotations.Nullable;

/**
 * Hands out ranges of numbers per business key from a store shared by every instance (Leaf's {@code leaf_alloc}
 * design). Each call atomically moves the key's high mark up by the step and returns the range below it, so no two
 * callers, in any process, ever get overlapping ranges.
 *
 * <p>Implementations must make {@code allocate} a single atomic step in the store and must not retry it in a way that
 * could allocate a range twice without returning it (a lost range is a gap, which is harmless; a range returned twice
 * is a duplicate).
 */
public interface SegmentStore {

	/**
	 * Allocates the next range of a key using the step configured for the key in the store.
	 * @param key the business key
	 * @return the range, and the key's configured step
	 * @throws UnknownKeyException if the store has no such key
	 * @throws SegmentKeyExhaustedException if the range would pass {@link Long#MAX_VALUE}
	 * @throws SegmentStoreException if the store cannot be reached or is not set up
	 */
	SegmentAllocation allocate(String key);

	/**
	 * Allocates the next range of a key with a step chosen by the caller (the dynamic step).
	 * @param key the business key
	 * @param step the size of the range, at least 1
	 * @return the range, and the key's configured step
	 * @throws UnknownKeyException if the store has no such key
	 * @throws SegmentKeyExhaustedException if the range would pass {@link Long#MAX_VALUE}
	 * @throws SegmentStoreException if the store cannot be reached or is not set up
	 */
	SegmentAllocation allocate(String key, int step);

	/**
	 * Lists the keys the store knows.
	 * @return the keys
	 * @throws SegmentStoreException if the store cannot be reached or is not set up
	 */
	Set<String> keys();

	/**
	 * Returns whether the store has a key: asked for a key that is not in the list the generator read last (a key
	 * another node or an operator added since), at most once a second for all such keys together. A store that can
	 * should answer with one lookup rather than the whole list.
	 * @param key the business key
	 * @return {@code true} if the store has it ({@code keys().contains(key)} by default)
	 * @throws SegmentStoreException if the store cannot be reached or is not set up
	 */
	default boolean containsKey(String key) {
		return keys().contains(key);
	}

	/**
	 * Returns a marker of the key list: a value that changes whenever a key is added to the store or removed from it,
	 * stays the same while only ranges are allocated, and costs far less than {@link #keys()}. The key refresh reads
	 * the whole list only when the marker differs from the one read with the list before: with many keys, a refresh
	 * that finds nothing changed then reads one value instead of every key. The marker is read before the list, so a
	 * change made between the two reads is seen at the next refresh.
	 * <p>Equal markers must mean an unchanged list, also across a failover to a replica that missed writes (a counter
	 * that the next change raises to a value it had before does not qualify; a random token per change does). A
	 * marker that also changes in other cases only costs reads. A change the marker misses (a key added or removed by
	 * hand, where the store's marker cannot see it) is not lost: a key added is found by {@link #containsKey} when it
	 * is first asked for, and a key removed is dropped when a fetch of it finds it gone; only the list the generator
	 * reports ({@code keys()}) is late until the marker next changes.
	 * @return the marker, or {@code null} if the store has none ({@code null} by default): every refresh then reads
	 * the whole list
	 * @throws SegmentStoreException if the store cannot be reached or is not set up
	 */
	default @Nullable String keysMarker() {
		return null;
	}

	/**
	 * Returns whether {@code allocate} may run on an application thread that asked for an ID, rather than only on the
	 * generator's own threads. With {@code true}, a caller that finds both ranges used up and the fetch still queued
	 * runs it itself when the store answered its latest call within 1 ms, instead of waiting for a pool thread to wake
	 * up. A store must answer {@code false} if a call can pick up anything bound to the calling thread: a Spring or JTA
	 * transaction (a {@code TransactionAwareDataSourceProxy}, an XA pool, a {@code MongoTemplate} session, a
	 * {@code RedisTemplate} with transaction support), because an allocation made inside a caller's transaction is
	 * undone if that transaction rolls back, and its range would then be handed out again.
	 * @return {@code false} unless calls are independent of the calling thread; {@code false} by default
	 */
	default boolean supportsCallerThreadAllocation() {
		return false;
	}

	/**
	 * Gives back the unused tail {@code [cursor, end)} of a range this store handed out, in one atomic compare-and-set:
	 * the key's {@code max_id} goes back to {@code cursor} only where it still equals {@code end}, that is where nobody
	 * allocated after the range. Otherwise nothing changes, since the numbers are then below a range someone else holds
	 * and handing them out again could not be told apart from a lost write. The caller must never hand out a number of
	 * {@code [cursor, end)} after calling this, whatever it returns.
	 *
	 * <p>A give-back must never run twice, nor be retried after a failure or a lost answer: between its first run and
	 * the second, another node may allocate the numbers given back, which leaves {@code max_id} at {@code end} again,
	 * and the second run would lower it below that node's range (a duplicate). A give-back that failed, or whose
	 * answer was lost, is therefore a gap. A store whose client may send a command twice (Redis with Lettuce's
	 * at-least-once default) must tie the give-back to the allocation that made the range.
	 * @param key the business key
	 * @param cursor the first number of the range that was not handed out
	 * @param end the end of the range, as the store returned it
	 * @return {@code true} if this call moved {@code max_id} to {@code cursor}; {@code false} if someone allocated
	 * after the range, the key is gone, or the store cannot give back ({@code false} by default, so a custom store
	 * keeps working)
	 * @throws IllegalArgumentException if the key is not allowed or {@code cursor} is not in {@code [0, end)}
	 * @throws SegmentStoreException if the store cannot be reached or is not set up; whether the tail went back is then
	 * unknown
	 */
	default boolean giveBack(String key, long cursor, long end) {
		SegmentKeys.checkGiveBack(key, cursor, end);
		return false;
	}

	/**
	 * Names the store's number space, so that a node's marks file can tell it belongs to this store and not to another
	 * one (staging and production started from one data directory): the database and table, the Redis server and key
	 * prefix, the MongoDB database and collection. Stable across restarts of the same configuration; never holds a
	 * password. Asked once at the start of a generator; may call the store.
	 * @return the identity, or an empty string if the store cannot say (the marks file is then not checked)
	 */
	default String identity() {
		return "";
	}

}
