package io.idstarter.segment;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
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
 * <p><b>Nodes agree on the period.</b> A key's reset, zone and format are recorded once in the store, in the
 * description of the segment key {@code <key>:settings} ({@link PeriodicKey#settingsKey()}), by the first node that
 * starts with the key; every other node compares its own with them at start, before it draws any number of the key,
 * and is refused ({@link PeriodicKeyMismatchException}) if they differ. Zones are compared by their rules ({@code UTC}
 * and {@code Etc/UTC} are one zone). A daily and a monthly node of one key would draw from different period keys, each
 * from the first number, and write the same strings; nodes whose dates differ (UTC and Asia/Shanghai from 16:00 UTC)
 * draw from different periods' keys; and one node's retention could delete a period another still draws from, which
 * that node would create again and count from its first number again.
 *
 * <p><b>Keys apart.</b> Two declared keys write the same strings if their formats differ only in their placeholders
 * ({@code INV-{yyyyMMdd}{seq:6}} daily and {@code INV-{yyyyMM}{seq:8}} monthly both write
 * {@code INV-20261126000001}). So keys whose formats, with the placeholders taken out, leave the same text are refused
 * at construction unless both formats write {@code {key}}. The rule is deliberately simple: it refuses some pairs that
 * could not collide, and does not see every pair that could (a literal digit next to a number, as in
 * {@code {yyyy}-1{seq:2}} and {@code {yyyy}-{seq:3}}, or formatters of the application's own).
 *
 * <p><b>Retention.</b> When a node creates a period's key, it deletes the keys of this instance's periodic keys whose
 * period ended more than the key's retention ago ({@link #removeExpired()}), but never the current or the previous
 * period, which a node with a lagging clock may still draw from. A deleted period key is not reported as lost by the
 * generator. A store that cannot delete keys ({@link SegmentKeyAdmin#deletesKeys()} is {@code false}) keeps every
 * period's key; that is said once, at construction.
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

	/** The store as a key admin; null only when no key is declared. */
	private final @Nullable SegmentKeyAdmin admin;

	private final ZoneId zone;

	private final TimeSource time;

	/** The declared keys by name; fixed at construction. */
	private final Map<String, Declared> keys;

	/** Deletes expired periods; null when no key is declared or the store cannot delete keys. */
	private final @Nullable PeriodicRetention retention;

	/**
	 * Creates the numbers of some periodic keys over a started (or soon started) generator, after recording each key's
	 * settings in the store, or checking them against those recorded there.
	 * @param generator the generator, over {@code store}
	 * @param store the generator's store, which must also be a {@link SegmentKeyAdmin} that keeps key descriptions
	 * to create period keys and record the keys' settings, and should delete keys for the retention
	 * @param keys the declared periodic keys
	 * @param zone the zone whose midnight starts a day; the same on every node
	 * @param time the clock that decides each call's period
	 * @throws IllegalArgumentException if keys are declared and the store cannot create keys or keeps no descriptions,
	 * two keys have the same name, or two keys' formats leave the same text without {@code {key}}
	 * @throws PeriodicKeyMismatchException if the settings of a key recorded in the store differ from this node's
	 * @throws SegmentStoreException if the store cannot be reached
	 */
	public PeriodicNumbers(SegmentIdGenerator generator, SegmentStore store, Collection<PeriodicKey> keys,
			ZoneId zone, TimeSource time) {
		this.generator = Objects.requireNonNull(generator, "generator");
		Objects.requireNonNull(store, "store");
		this.zone = Objects.requireNonNull(zone, "zone");
		this.time = Objects.requireNonNull(time, "time");
		Map<String, Declared> declared = new LinkedHashMap<>();
		Map<String, PeriodicKey> byName = new LinkedHashMap<>();
		for (PeriodicKey key : keys) {
			PeriodicKeyRecord record = PeriodicKeyRecord.of(key, zone);
			String description = record.description(key.name());
			if (description.length() > SegmentKeys.MAX_DESCRIPTION_LENGTH) {
				throw new IllegalArgumentException("periodic key '" + key.name() + "' records its reset, zone and "
						+ "format in the description of segment key '" + key.settingsKey() + "', which would take "
						+ description.length() + " characters, more than " + SegmentKeys.MAX_DESCRIPTION_LENGTH
						+ "; use a shorter format");
			}
			if (declared.put(key.name(), new Declared(key, record)) != null) {
				throw new IllegalArgumentException("periodic key '" + key.name() + "' is declared twice");
			}
			byName.put(key.name(), key);
		}
		checkFormatsApart(keys);
		this.keys = Map.copyOf(declared);
		this.admin = keys.isEmpty() ? null : admin(store);
		if (this.admin != null) {
			for (Declared key : declared.values()) {
				recordOrCheckSettings(store, this.admin, key);
			}
		}
		this.retention = (this.admin != null) ? retention(store, this.admin, Map.copyOf(byName)) : null;
		generator.retiredKeys((segmentKey) -> this.retention != null
				&& this.retention.expired(segmentKey, this.time.currentTimeMillis()));
	}

	/**
	 * Refuses two keys whose formats leave the same text once their placeholders are taken out, unless both write the
	 * key: they could write the same strings.
	 */
	private static void checkFormatsApart(Collection<PeriodicKey> keys) {
		Map<String, PeriodicKey> byText = new LinkedHashMap<>();
		for (PeriodicKey key : keys) {
			if (key.formatter() instanceof PeriodicFormat format) {
				PeriodicKey other = byText.putIfAbsent(format.literalText(), key);
				if (other != null && !(format.writesKey() && ((PeriodicFormat) other.formatter()).writesKey())) {
					throw new IllegalArgumentException("periodic keys '" + other.name() + "' (format "
							+ other.formatter() + ") and '" + key.name() + "' (format " + format + ") can write the "
							+ "same strings: their formats leave the same text '" + format.literalText() + "' once "
							+ "the placeholders are taken out; change the literal text of one, or write {key} in "
							+ "both formats");
				}
			}
		}
	}

	private static SegmentKeyAdmin admin(SegmentStore store) {
		if (!(store instanceof SegmentKeyAdmin keyAdmin)) {
			throw new IllegalArgumentException("periodic keys need a segment store that can create keys (a "
					+ SegmentKeyAdmin.class.getSimpleName() + "), which each period needs; "
					+ store.getClass().getName() + " cannot");
		}
		return keyAdmin;
	}

	private @Nullable PeriodicRetention retention(SegmentStore store, SegmentKeyAdmin keyAdmin,
			Map<String, PeriodicKey> byName) {
		if (keyAdmin.deletesKeys()) {
			return new PeriodicRetention(this.generator, store, keyAdmin, byName, this.zone);
		}
		logger.warn("The segment store {} cannot delete keys: the retention of periodic keys {} is not applied, and "
				+ "each period's key stays in the store (one a period per key)", store.getClass().getSimpleName(),
				new TreeSet<>(byName.keySet()));
		return null;
	}

	/**
	 * Records a key's settings in the store unless a node did before, and otherwise checks this node's against them:
	 * created if absent, so that of nodes starting together the first to create wins and the others compare.
	 */
	private static void recordOrCheckSettings(SegmentStore store, SegmentKeyAdmin keyAdmin, Declared declared) {
		String name = declared.key.name();
		String settingsKey = declared.key.settingsKey();
		String recorded;
		try {
			// Read first: a store that keeps no descriptions says so here, before anything is created in it.
			recorded = keyAdmin.description(settingsKey);
			if (recorded == null) {
				String description = declared.record.description(name);
				if (keyAdmin.createKey(settingsKey, 0, 1, description)) {
					logger.info("Recorded in segment key '{}' the {}", settingsKey, description);
					return;
				}
				recorded = keyAdmin.description(settingsKey);
			}
		}
		catch (UnsupportedOperationException ex) {
			throw new IllegalArgumentException("periodic keys need a segment store that keeps key descriptions, "
					+ "where each key records its zone, reset and format so that nodes that decide periods otherwise "
					+ "are refused; " + store.getClass().getName() + " keeps none: use the JDBC table, Redis, MongoDB "
					+ "or in-memory store for periodic keys", ex);
		}
		declared.record.check(name, recorded);
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
		LocalDate day = today();
		CurrentPeriod period = declared.period(day);
		if (!period.ready) {
			prepare(declared, period);
		}
		long sequence = this.generator.nextId(period.segmentKey);
		return declared.key.formatter().format(key, period.stamp, day, sequence);
	}

	/**
	 * Returns the segment key the next call of a key would draw from.
	 * @param key the declared key
	 * @return {@code <key>:<stamp>} of the clock's current period
	 * @throws IllegalArgumentException if the key is not declared
	 */
	public String currentSegmentKey(String key) {
		return declared(key).period(today()).segmentKey;
	}

	/**
	 * Returns how many more numbers the clock's current period of a key can have before its format's width runs out,
	 * counted from the next number this node would issue (another node may hold a higher range of the period).
	 * @param key the declared key
	 * @return the count, or -1 if the key's format sets no width ({@code {seq}}, or a formatter of its own)
	 * @throws IllegalArgumentException if the key is not declared
	 */
	public long remaining(String key) {
		Declared declared = declared(key);
		if (!(declared.key.formatter() instanceof PeriodicFormat format) || format.width() == 0) {
			return -1;
		}
		long next = this.generator.view(currentSegmentKey(key))
			.map(SegmentBufferView::current)
			.map(SegmentView::nextValue)
			.orElse(declared.key.firstId());
		return Math.max(0, format.maxSequence() + 1 - next);
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
	 * current and the previous period: each in the store first, then on this node. Called when a node creates a
	 * period's key; callable at any time.
	 * @return the segment keys deleted; none if the store cannot delete keys
	 * @throws SegmentStoreException if the store cannot be reached
	 */
	public List<String> removeExpired() {
		PeriodicRetention expired = this.retention;
		return (expired != null) ? expired.removeExpired(this.time.currentTimeMillis()) : List.of();
	}

	/** The day of the clock's reading in the zone. */
	private LocalDate today() {
		return LocalDate.ofInstant(Instant.ofEpochMilli(this.time.currentTimeMillis()), this.zone);
	}

	/**
	 * Slow path of a period's first call on this node: creates its key unless it exists, then cleans up after a key
	 * this node created.
	 */
	private void prepare(Declared declared, CurrentPeriod period) {
		SegmentKeyAdmin keyAdmin = Objects.requireNonNull(this.admin, "admin");
		boolean created = keyAdmin.createKey(period.segmentKey, declared.key.firstId(), declared.key.step(),
				declared.key.reset().name().toLowerCase(Locale.ROOT) + " period " + period.stamp + " of periodic key "
						+ declared.key.name());
		this.generator.keyCreated(period.segmentKey);
		period.ready = true;
		if (created) {
			logger.info("Created segment key '{}' for the period {} of periodic key '{}'", period.segmentKey,
					period.stamp, declared.key.name());
			try {
				removeExpired();
			}
			catch (RuntimeException ex) {
				logger.warn("Could not delete the periodic segment keys past their retention; trying again at the "
						+ "next period: {}", ex.toString());
			}
		}
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

	/** A declared key, its settings, and the period of its latest call, so that most calls build nothing. */
	private static final class Declared {

		final PeriodicKey key;

		final PeriodicKeyRecord record;

		/** The period of the latest call's day; replaced as a whole when the day changes. */
		private volatile @Nullable CurrentPeriod latest;

		Declared(PeriodicKey key, PeriodicKeyRecord record) {
			this.key = key;
			this.record = record;
		}

		CurrentPeriod period(LocalDate day) {
			CurrentPeriod period = this.latest;
			if (period != null && period.day.equals(day)) {
				return period;
			}
			String stamp = this.key.reset().stamp(day);
			period = new CurrentPeriod(day, stamp, this.key.segmentKey(stamp));
			this.latest = period;
			return period;
		}

	}

	/** One day's period: its stamp and segment key, and whether this node has made sure of its key. */
	private static final class CurrentPeriod {

		final LocalDate day;

		final String stamp;

		final String segmentKey;

		/** Set once the key exists; racing first calls both create it, and one of them does. */
		volatile boolean ready;

		CurrentPeriod(LocalDate day, String stamp, String segmentKey) {
			this.day = day;
			this.stamp = stamp;
			this.segmentKey = segmentKey;
		}

	}

}
