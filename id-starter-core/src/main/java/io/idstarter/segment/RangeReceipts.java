package io.idstarter.segment;

import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Predicate;

import org.jspecify.annotations.Nullable;

/**
 * What a store remembers of the latest ranges it handed out per key, so that a give-back
 * ({@link SegmentStore#giveBack}) can be tied to the one allocation that made the range: the ID server that handed it
 * out, the allocation's number in Redis, the client it was drawn for. A receipt is taken at most once, so a range is
 * given back at most once through it: a give-back repeated after its answer was lost finds no receipt, and cannot
 * lower {@code max_id} again after another node allocated the same numbers (the store's compare-and-set alone cannot
 * tell that allocation from this one, as both leave {@code max_id} at the same end).
 *
 * <p>Bounded: the latest {@code perKey} receipts of each key, and receipts of at most {@code maxKeys} keys, the key
 * used longest ago forgotten first. A range whose receipt was forgotten is not given back: a gap, never a duplicate.
 * Only the latest ranges of a key can be given back anyway, since a give-back succeeds only where nobody allocated
 * after the range. Thread-safe; calls are per range, not per ID, so one lock is enough.
 *
 * @param <T> what is remembered of each range
 */
public final class RangeReceipts<T> {

	/**
	 * Receipts kept per key by default. A give-back succeeds only where nobody allocated after the range, so only a
	 * run of a key's latest ranges can go back, latest first: a node's prefetched range and its current one, and
	 * after them those of a second node that drew just before it.
	 */
	private static final int DEFAULT_PER_KEY = 4;

	/**
	 * Keys receipts are kept of by default: more than a node serves, and as many as the ID server's ledger of the
	 * ranges it handed out keeps, so that a server on Redis can give back every range its ledger vouches for.
	 */
	private static final int DEFAULT_KEYS = 10_000;

	private final int perKey;

	private final int maxKeys;

	/** The receipts per key, the latest last; in access order, so the eldest entry is the key used longest ago. */
	private final LinkedHashMap<String, ArrayDeque<Receipt<T>>> receipts;

	/**
	 * Creates an empty memory.
	 * @param perKey receipts kept per key, at least 1
	 * @param maxKeys keys kept, at least 1
	 */
	public RangeReceipts(int perKey, int maxKeys) {
		if (perKey < 1 || maxKeys < 1) {
			throw new IllegalArgumentException("perKey and maxKeys must be at least 1: " + perKey + ", " + maxKeys);
		}
		this.perKey = perKey;
		this.maxKeys = maxKeys;
		this.receipts = new LinkedHashMap<>(16, 0.75f, true) {

			@Override
			protected boolean removeEldestEntry(Map.Entry<String, ArrayDeque<Receipt<T>>> eldest) {
				return size() > RangeReceipts.this.maxKeys;
			}

		};
	}

	/**
	 * Creates a memory with the bounds that the shipped stores and the ID server's ledger share: 4 receipts per key,
	 * of at most 10,000 keys. The same bounds, since the ledger vouches for a give-back that the server's store must
	 * then be able to run: a store that forgot a receipt the ledger kept turns the give-back into a gap.
	 * @param <T> what is remembered of each range
	 * @return the memory
	 */
	public static <T> RangeReceipts<T> withDefaultBounds() {
		return new RangeReceipts<>(DEFAULT_PER_KEY, DEFAULT_KEYS);
	}

	/**
	 * Remembers a range handed out.
	 * @param key the business key
	 * @param end the end of the range, as the store returned it
	 * @param receipt what to remember of it
	 */
	public synchronized void put(String key, long end, T receipt) {
		ArrayDeque<Receipt<T>> latest = this.receipts.computeIfAbsent(key, (name) -> new ArrayDeque<>(this.perKey));
		latest.removeIf((held) -> held.end == end);
		if (latest.size() == this.perKey) {
			latest.removeFirst();
		}
		latest.addLast(new Receipt<>(end, receipt));
	}

	/**
	 * Takes the receipt of a range, so that it cannot be taken again.
	 * @param key the business key
	 * @param end the end of the range
	 * @return the receipt, or {@code null} if none of this end is remembered
	 */
	public @Nullable T take(String key, long end) {
		return take(key, end, (any) -> true);
	}

	/**
	 * Takes the receipt of a range, if it is the one sought, so that it cannot be taken again.
	 * @param key the business key
	 * @param end the end of the range
	 * @param accept whether the receipt is the one sought; one it refuses is left in place
	 * @return the receipt, or {@code null} if none of this end is remembered or {@code accept} refused it
	 */
	public synchronized @Nullable T take(String key, long end, Predicate<? super T> accept) {
		ArrayDeque<Receipt<T>> latest = this.receipts.get(key);
		if (latest == null) {
			return null;
		}
		for (Iterator<Receipt<T>> it = latest.iterator(); it.hasNext();) {
			Receipt<T> held = it.next();
			if (held.end == end && accept.test(held.receipt)) {
				it.remove();
				if (latest.isEmpty()) {
					this.receipts.remove(key);
				}
				return held.receipt;
			}
		}
		return null;
	}

	private record Receipt<T>(long end, T receipt) {
	}

}
