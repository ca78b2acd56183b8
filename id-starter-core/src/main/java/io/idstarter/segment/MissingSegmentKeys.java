package io.idstarter.segment;

import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;

import io.idstarter.IdWorkerListener;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keys this node was given ranges of that the store no longer has: the store lost them (or a key was deleted). Each
 * is reported until the store lists it again, and with heal forward created again at this node's high mark plus the
 * margin.
 */
final class MissingSegmentKeys {

	private static final Logger logger = LoggerFactory.getLogger(MissingSegmentKeys.class);

	private final SegmentStore store;

	private final SegmentOptions options;

	private final IdWorkerListener listener;

	private final SegmentMarks marks;

	/** Keys deleted from the store on purpose (periodic keys past their retention): never reported as lost. */
	private volatile Predicate<String> retired = (key) -> false;

	/**
	 * Missing keys with this node's high mark of each; a key is added when the store drops it (logged and counted
	 * once, by whoever puts it) and removed when the store lists it again or heal forward created it again.
	 */
	private final ConcurrentHashMap<String, Long> missing = new ConcurrentHashMap<>();

	MissingSegmentKeys(SegmentStore store, SegmentOptions options, IdWorkerListener listener, SegmentMarks marks) {
		this.store = store;
		this.options = options;
		this.listener = listener;
		this.marks = marks;
	}

	/**
	 * Sets which keys are deleted on purpose: when one of them leaves the store, its mark is dropped and nothing is
	 * reported or healed.
	 * @param retired tells whether a key is retired
	 */
	void retired(Predicate<String> retired) {
		this.retired = retired;
	}

	/**
	 * Returns the missing keys.
	 * @return key to this node's high mark, sorted by key
	 */
	Map<String, Long> snapshot() {
		return new TreeMap<>(this.missing);
	}

	/**
	 * Returns the refusal of a key that is not in the store's list.
	 * @param key the key
	 * @return the exception, which explains the loss if this node used the key
	 */
	UnknownKeyException unknown(String key) {
		Long mark = this.missing.get(key);
		return (mark != null) ? new UnknownKeyException(key, lostKeyMessage(key, mark)) : new UnknownKeyException(key);
	}

	/**
	 * Called for every key of a read of the store's list: a missing key is no longer missing.
	 * @param key a key the store has
	 */
	void listed(String key) {
		if (this.missing.remove(key) != null) {
			logger.warn("Segment key '{}' is in the store again; its ranges are served only from this node's high "
					+ "mark {} on", key, this.marks.highMark(key));
		}
	}

	/**
	 * Called when a key whose buffer this generator had left the store: a deletion, or a lost store if this node
	 * issued from it.
	 * @param key the key
	 * @param configuredStep the key's step as the store last reported it; 0 if unknown
	 */
	void left(String key, int configuredStep) {
		if (forgetRetired(key)) {
			return;
		}
		long mark = this.marks.highMark(key);
		if (mark > 0) {
			lost(key, mark, configuredStep);
		}
		else {
			logger.info("Segment key '{}' removed from the store; it issues no more IDs", key);
		}
	}

	/**
	 * Reports the keys used before (in this process, or before a restart with a marks file) that a read of the store's
	 * list does not have.
	 * @param read the keys the store has
	 * @param reported keys of this read already reported by {@link #left(String, int)}
	 */
	void lostFrom(Set<String> read, Set<String> reported) {
		this.marks.all().forEach((key, mark) -> {
			if (mark > 0 && !read.contains(key) && !reported.contains(key) && !forgetRetired(key)) {
				lost(key, mark, 0);
			}
		});
	}

	/**
	 * A key this node was given ranges of is missing from the store. With heal forward and a step known from this
	 * run, the key is created again at the mark plus the heal margin (or, if another node created it meanwhile,
	 * raised there).
	 * @param configuredStep the key's step as the store last reported it; 0 if unknown
	 */
	private void lost(String key, long mark, int configuredStep) {
		if (this.missing.containsKey(key)) {
			return;
		}
		// Counted before it shows as missing, so that a health check that sees it finds the metric too.
		this.listener.segmentRefused(key, mark, -1);
		if (this.missing.put(key, mark) == null) {
			logger.error(lostKeyMessage(key, mark));
		}
		if (this.options.healForward() && configuredStep > 0 && this.store instanceof SegmentKeyAdmin admin) {
			heal(admin, key, mark, configuredStep);
		}
	}

	/** Drops the mark of a key deleted on purpose; returns whether the key is one. */
	private boolean forgetRetired(String key) {
		if (!this.retired.test(key)) {
			return false;
		}
		this.missing.remove(key);
		try {
			this.marks.forget(key);
		}
		catch (RuntimeException ex) {
			logger.warn("Could not drop the high mark of retired segment key '{}'", key, ex);
		}
		logger.info("Segment key '{}' was retired and removed from the store", key);
		this.listener.segmentKeyRetired(key);
		return true;
	}

	private void heal(SegmentKeyAdmin admin, String key, long mark, int configuredStep) {
		long floor = SegmentFetcher.healFloor(mark, this.options.healMargin());
		try {
			boolean created = admin.createKey(key, floor, configuredStep,
					"created again by id-starter at a node's high mark after the store lost the key");
			if (!created) {
				// Another node (one that joined after the loss, perhaps) created it first, maybe below the mark.
				admin.raiseMaxId(key, floor);
			}
			this.missing.remove(key, mark);
			logger.warn("Segment key '{}' {} to {} (this node's high mark {} plus margin {}) with step {} (heal "
					+ "forward); it issues IDs again from there. Numbers other nodes were given above {} in the lost "
					+ "window are safe only if the margin covers them", key,
					created ? "created again" : "was created again by another node; raised it", floor, mark,
					this.options.healMargin(), configuredStep, mark);
		}
		catch (RuntimeException ex) {
			logger.warn("Could not create segment key '{}' again at this node's high mark {}; it stays missing",
					key, mark, ex);
		}
	}

	private String lostKeyMessage(String key, long mark) {
		return "Segment key '" + key + "' is missing from the store, but this node was given ranges of it up to " + mark
				+ " (marks " + this.marks.file().map(Object::toString).orElse("in memory") + "): the store lost it "
				+ "(restarted without persistence, restored from an old backup, or its row was deleted). The key issues "
				+ "no IDs until it is back; create it again with a first ID at or above the highest such mark of every "
				+ "node that used it (this node: " + mark + "), e.g. id-worker.segment.keys." + key + ".first-id="
				+ mark + " or SegmentKeyAdmin.createKey. A key created below the mark gets its ranges refused.";
	}

}
