package io.idstarter.segment;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Deletes the period keys of declared periodic keys whose period ended more than the key's retention ago, never the
 * current or the previous period, which a node with a lagging clock may still draw from. A key is deleted in the store
 * first, and only then forgotten by the generator (its buffer, mark and meters), so that a store that cannot delete
 * leaves the node's state as it was.
 */
final class PeriodicRetention {

	private static final Logger logger = LoggerFactory.getLogger(PeriodicRetention.class);

	private final SegmentIdGenerator generator;

	private final SegmentStore store;

	private final SegmentKeyAdmin admin;

	/** The declared keys by name; fixed at construction. */
	private final Map<String, PeriodicKey> keys;

	private final ZoneId zone;

	PeriodicRetention(SegmentIdGenerator generator, SegmentStore store, SegmentKeyAdmin admin,
			Map<String, PeriodicKey> keys, ZoneId zone) {
		this.generator = generator;
		this.store = store;
		this.admin = admin;
		this.keys = keys;
		this.zone = zone;
	}

	/**
	 * Deletes the expired period keys.
	 * @param now the clock's reading
	 * @return the segment keys deleted
	 * @throws SegmentStoreException if the store cannot be reached; the keys not deleted yet are kept, in the store
	 * and on this node
	 */
	List<String> removeExpired(long now) {
		List<String> removed = new ArrayList<>();
		for (String segmentKey : new TreeSet<>(this.store.keys())) {
			if (expired(segmentKey, now)) {
				boolean deleted = this.admin.deleteKey(segmentKey);
				this.generator.retire(segmentKey);
				if (deleted) {
					removed.add(segmentKey);
				}
			}
		}
		if (!removed.isEmpty()) {
			logger.info("Deleted {} periodic segment keys past their retention: {}", removed.size(), removed);
		}
		return removed;
	}

	/**
	 * Returns whether a segment key is a period of a declared key that may be deleted at {@code now}.
	 */
	boolean expired(String segmentKey, long now) {
		int colon = segmentKey.indexOf(':');
		if (colon < 0) {
			return false;
		}
		PeriodicKey declared = this.keys.get(segmentKey.substring(0, colon));
		if (declared == null) {
			return false;
		}
		ResetPeriod reset = declared.reset();
		LocalDate start = reset.parse(segmentKey.substring(colon + 1));
		if (start == null) {
			return false;
		}
		Instant instant = Instant.ofEpochMilli(now);
		if (!start.isBefore(reset.startBefore(LocalDate.ofInstant(instant, this.zone), 1))) {
			// The current or the previous period: a node whose clock lags may still draw from it.
			return false;
		}
		Instant end = reset.nextStart(start).atStartOfDay(this.zone).toInstant();
		return !end.plus(declared.retention()).isAfter(instant);
	}

}
