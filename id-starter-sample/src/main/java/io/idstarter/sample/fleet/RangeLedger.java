package io.idstarter.sample.fleet;

import io.idstarter.segment.RangeReceipts;
import io.idstarter.segment.SegmentAllocation;

import org.springframework.stereotype.Component;

/**
 * The latest ranges this server handed out per key, with the client each was drawn for: a give-back is taken only
 * within a range this server handed to that client, and at most once. Without it any client granted a key could lower
 * its {@code max_id} below ranges other clients hold ({@code {"cursor": 0, "end": <max_id>}}), and a give-back run
 * twice (a retry after a lost answer, on this server or another) could lower it again after another client drew the
 * same numbers. In memory, per server: a range drawn through another server, before a restart, or pushed out by later
 * ones is not given back (a gap, never an error). Bounded as the stores' own receipts are
 * ({@link RangeReceipts#withDefaultBounds()}: the latest 4 ranges of a key, of the 10,000 keys drawn last), so that
 * the Redis store, which ties a give-back to its allocation by a receipt of its own, still holds one for each range
 * kept here, unless this server's own segment generator draws from the same store too (its draws count against the
 * store's bounds, not the ledger's).
 */
@Component
class RangeLedger {

	private final RangeReceipts<Drawn> drawn = RangeReceipts.withDefaultBounds();

	void drew(String client, SegmentAllocation range) {
		this.drawn.put(range.key(), range.end(), new Drawn(client, range.start()));
	}

	/**
	 * Takes the range a give-back of {@code [cursor, end)} returns, if this server handed it to the client.
	 * @return whether the client may give it back; {@code false} if this server did not hand it to this client, or
	 * took it back already
	 */
	boolean take(String client, String key, long cursor, long end) {
		return this.drawn.take(key, end, (range) -> range.client().equals(client) && range.start() <= cursor) != null;
	}

	/** A range as this server handed it out: the client it was drawn for and its first number. */
	private record Drawn(String client, long start) {
	}

}
