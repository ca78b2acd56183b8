package io.idstarter.segment;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

import io.idstarter.time.TimeSource;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Business numbers that start again every day, month or year, such as {@code INV-20261126-000042}, drawn from a
 * {@link SegmentIdGenerator}: each period of a {@link PeriodicKey} has its own segment key {@code <key>:<stamp>}
 * (e.g. {@code invoice:20261126}), created in the store on the period's first call and deleted after the key's
 * retention.
 *
 * <p><b>One reading decides everything.</b> Each call reads the clock once; that reading's day, in the configured
 * zone, picks the period's segment key and is the day the format writes. A call at midnight therefore gets either the
 * old period's key and prefix, or the new period's key and prefix, never the old prefix with the new counter. A number
 * is unique because it comes from its period's own segment key, which hands out every number once across all nodes
 * sharing the store, and the format writes the period; uniqueness does not depend on any clock.
 *
 * <p><b>Whose clock.</b> The period is decided by the node's clock (the {@link TimeSource}), not the store's. In
 * segment mode no lease keeper measures the skew between nodes, and a store clock read when a range is allocated
 * cannot decide the period of the numbers drawn later from that range, which may straddle midnight; reading the
 * store's clock on every call would add a round trip to each number. So with node clocks within {@code B} of true
 * time (NTP keeps it to milliseconds), a number's period is the period of some instant within {@code B} of the true
 * time of the call: near midnight a node ahead by {@code B} may issue the new day's numbers up to {@code B} early, and
 * a node behind may issue the old day's numbers up to {@code B} late. Numbers stay unique either way, and a period's
 * numbers increase per node but are not ordered across nodes around the boundary.
 *
 * <p><b>Retention.</b> When a node creates a period's key, it deletes the keys of this instance's periodic keys whose
 * period ended more than the key's retention ago ({@link #removeExpired()}), but never the current or the previous
 * period, which a node with a lagging clock may still draw from. A deleted period key is not reported as lost by the
 * generator.
 *
 * <p>One instance per generator: it tells the generator which keys it deletes on purpose, and a second instance
 * would replace the first's.
 *
 * <p><b>Width.</b> A number that does not fit the format ({@code {seq:6}} and the millionth number of a period) fails
 * the call with {@link PeriodicWidthExceededException}, naming the key, the period and the width.
 */
public final class PeriodicNumbers {

	private static final Logger logger = LoggerFactory.getLogger(PeriodicNumbers.class);

	private final SegmentIdGenerator generator;

	private final SegmentStore store;

	/** The store as a key admin; null only when no key is declared. */
	private final @Nullable SegmentKeyAdmin admin;

	private final ZoneId zone;

	private final TimeSource time;

	/** The declared keys by name; fixed at construction. */
	private final Map<String, Declared> keys;

	/**
	 * Creates the numbers of some periodic keys over a started (or soon started) generator.
	 * @param generator the generator, over {@code store}
	 * @param store the generator's store, which must also be a {@link SegmentKeyAdmin} to create and delete period
	 * keys
	 * @param keys the declared periodic keys
	 * @param zone the zone whose midnight starts a day
	 * @param time the clock that decides each call's period
	 * @throws IllegalArgumentException if keys are declared and the store cannot create keys, or two keys have the
	 * same name
	 */
	public PeriodicNumbers(SegmentIdGenerator generator, SegmentStore store, Collection<PeriodicKey> keys,
			ZoneId zone, TimeSource time) {
		this.generator = Objects.requireNonNull(generator, "generator");
		this.store = Objects.requireNonNull(store, "store");
		this.admin = (store instanceof SegmentKeyAdmin keyAdmin) ? keyAdmin : null;
		if (this.admin == null && !keys.isEmpty()) {
			throw new IllegalArgumentException("periodic keys need a segment store that can create keys (a "
					+ SegmentKeyAdmin.class.getSimpleName() + "); " + store.getClass().getName() + " cannot");
		}
		this.zone = Objects.requireNonNull(zone, "zone");
		this.time = Objects.requireNonNull(time, "time");
		Map<String, Declared> declared = new LinkedHashMap<>();
		for (PeriodicKey key : keys) {
			if (declared.put(key.name(), new Declared(key)) != null) {
				throw new IllegalArgumentException("periodic key '" + key.name() + "' is declared twice");
			}
		}
		this.keys = Map.copyOf(declared);
		generator.retiredKeys((segmentKey) -> expired(segmentKey, this.time.currentTimeMillis()));
	}

	/**
	 * Returns the next number of a periodic key, formatted.
	 * @param key the declared key
	 * @return the string, e.g. {@code INV-20261126-000042}
	 * @throws IllegalArgumentException if the key is not declared
	 * @throws PeriodicWidthExceededException if the period's number does not fit the format
	 * @throws SegmentStoreException if the period's key cannot be created or no range can be had
	 */
	public String next(String key) {
		Declared declared = declared(key);
		LocalDate day = LocalDate.ofInstant(Instant.ofEpochMilli(this.time.currentTimeMillis()), this.zone);
		Period period = declared.period(day);
		if (!this.generator.keys().contains(period.segmentKey())) {
			create(declared.key, period);
		}
		long sequence = this.generator.nextId(period.segmentKey());
		return declared.key.formatter().format(key, period.stamp(), day, sequence);
	}

	/**
	 * Returns the segment key the next call of a key would draw from.
	 * @param key the declared key
	 * @return {@code <key>:<stamp>} of the clock's current period
	 * @throws IllegalArgumentException if the key is not declared
	 */
	public String currentSegmentKey(String key) {
		Declared declared = declared(key);
		LocalDate day = LocalDate.ofInstant(Instant.ofEpochMilli(this.time.currentTimeMillis()), this.zone);
		return declared.period(day).segmentKey();
	}

	/**
	 * Returns the declared keys.
	 * @return the keys by name
	 */
	public Map<String, PeriodicKey> keys() {
		Map<String, PeriodicKey> all = new LinkedHashMap<>();
		new TreeSet<>(this.keys.keySet()).forEach((name) -> all.put(name, this.keys.get(name).key));
		return all;
	}

	/**
	 * Returns the zone whose midnight starts a day.
	 * @return the zone
	 */
	public ZoneId zone() {
		return this.zone;
	}

	/**
	 * Deletes the period keys of the declared keys whose period ended more than the key's retention ago, except the
	 * current and the previous period. Called when a node creates a period's key; callable at any time.
	 * @return the segment keys deleted
	 * @throws SegmentStoreException if the store cannot be reached
	 */
	public List<String> removeExpired() {
		SegmentKeyAdmin keyAdmin = this.admin;
		long now = this.time.currentTimeMillis();
		List<String> removed = new ArrayList<>();
		if (keyAdmin == null) {
			return removed;
		}
		for (String segmentKey : new TreeSet<>(this.store.keys())) {
			if (expired(segmentKey, now)) {
				this.generator.retire(segmentKey);
				if (keyAdmin.deleteKey(segmentKey)) {
					removed.add(segmentKey);
				}
			}
		}
		if (!removed.isEmpty()) {
			logger.info("Deleted {} periodic segment keys past their retention: {}", removed.size(), removed);
		}
		return removed;
	}

	/** Slow path of a period's first call on this node: creates its key unless it exists, then cleans up. */
	private void create(PeriodicKey key, Period period) {
		SegmentKeyAdmin keyAdmin = Objects.requireNonNull(this.admin, "admin");
		String description = key.reset().name().toLowerCase(Locale.ROOT) + " period " + period.stamp()
				+ " of periodic key " + key.name();
		boolean created = keyAdmin.createKey(period.segmentKey(), key.firstId(), key.step(), description);
		this.generator.keyCreated(period.segmentKey());
		if (created) {
			logger.info("Created segment key '{}' for the period {} of periodic key '{}'", period.segmentKey(),
					period.stamp(), key.name());
			try {
				removeExpired();
			}
			catch (RuntimeException ex) {
				logger.warn("Could not delete the periodic segment keys past their retention; trying again at the "
						+ "next period", ex);
			}
		}
	}

	/** Whether a segment key is a period of a declared key that may be deleted at {@code now}. */
	private boolean expired(String segmentKey, long now) {
		int colon = segmentKey.indexOf(':');
		if (colon < 0) {
			return false;
		}
		Declared declared = this.keys.get(segmentKey.substring(0, colon));
		if (declared == null) {
			return false;
		}
		ResetPeriod reset = declared.key.reset();
		LocalDate start = reset.parse(segmentKey.substring(colon + 1));
		if (start == null) {
			return false;
		}
		LocalDate today = LocalDate.ofInstant(Instant.ofEpochMilli(now), this.zone);
		if (!start.isBefore(reset.startBefore(today, 1))) {
			// The current or the previous period: a node whose clock lags may still draw from it.
			return false;
		}
		Instant end = reset.nextStart(start).atStartOfDay(this.zone).toInstant();
		return !end.plus(declared.key.retention()).isAfter(Instant.ofEpochMilli(now));
	}

	private Declared declared(String key) {
		Objects.requireNonNull(key, "key");
		Declared declared = this.keys.get(key);
		if (declared == null) {
			throw new IllegalArgumentException("No periodic key '" + key + "'; declare it with id-worker.segment."
					+ "periodic-keys." + key + ".format, or pass a PeriodicKey; declared: "
					+ new TreeSet<>(this.keys.keySet()));
		}
		return declared;
	}

	/** A declared key and the period of its latest call, so that most calls build no strings. */
	private static final class Declared {

		final PeriodicKey key;

		/** The period of the latest call's day; replaced as a whole when the day changes. */
		private volatile @Nullable Period latest;

		Declared(PeriodicKey key) {
			this.key = key;
		}

		Period period(LocalDate day) {
			Period period = this.latest;
			if (period != null && period.day().equals(day)) {
				return period;
			}
			String stamp = this.key.reset().stamp(day);
			period = new Period(day, stamp, this.key.segmentKey(stamp));
			this.latest = period;
			return period;
		}

	}

	/** One day's period: its stamp and segment key. */
	private record Period(LocalDate day, String stamp, String segmentKey) {
	}

}
