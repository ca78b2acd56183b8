package io.idstarter.metrics;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

import io.idstarter.IdWorkerListener;
import io.idstarter.lease.LeaseStatus;
import io.idstarter.lease.WorkerLeaseKeeper;
import io.idstarter.segment.PeriodicNumbers;
import io.idstarter.segment.SegmentBufferView;
import io.idstarter.segment.SegmentIdGenerator;
import io.idstarter.segment.SegmentView;
import io.idstarter.snowflake.SnowflakeIdGenerator;
import io.idstarter.time.TimeSource;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Micrometer metrics of the ID generators. As an {@link IdWorkerListener} it records the slow-path events: store call
 * latency ({@value #STORE_CALLS}), waits for a segment ({@value #SEGMENT_WAITS}), segments refused because the store
 * lost writes ({@value #SEGMENT_REFUSED}) and clock-moved-backwards events ({@value #CLOCK_BACKWARDS}). As a
 * {@link MeterBinder} it reads the generators' counters when the registry is scraped: IDs issued
 * ({@value #SNOWFLAKE_ISSUED}, {@value #SEGMENT_ISSUED} per key), numbers left in memory per key
 * ({@value #SEGMENT_REMAINING}) and the time left on the worker-ID lease ({@value #LEASE_REMAINING}). Nothing runs on
 * the path that issues an ID.
 *
 * <p>The generators are passed as suppliers that are called only when the binder is bound, after the generators
 * exist: the generators take this listener at construction, so it must not need them then. A segment key gets its
 * meters when this instance fetches its first segment, not before: a store may hold thousands of keys an instance
 * never uses. At most {@code maxKeyTags} keys at a time have meters tagged with their own name; the events of further
 * keys are counted under {@value #OTHER_KEYS}, and they get no gauges. A key deleted on purpose (a periodic key's
 * period past its retention) gives its place to the next.
 *
 * @since 0.1.0
 */
public class IdWorkerMetrics implements IdWorkerListener, MeterBinder {

	/** Start of the name of every meter here. */
	public static final String PREFIX = "idworker.";

	/**
	 * Timer of store calls, tagged {@code key} (segment key, {@code none} on lease calls), {@code namespace} (lease
	 * namespace, {@code none} on segment calls), {@code operation} and {@code outcome}.
	 */
	public static final String STORE_CALLS = "idworker.store.calls";

	/**
	 * Timer of callers that waited because both segments of a key were spent, tagged {@code key} and {@code outcome};
	 * a key's first fetch in this instance (nothing to serve from yet) is not a wait.
	 */
	public static final String SEGMENT_WAITS = "idworker.segment.waits";

	/**
	 * Counter of segment store answers refused because the store lost writes, tagged {@code key} and {@code reason}:
	 * {@code below-mark} (a segment below the end of the highest one this node was given) or {@code missing} (a key
	 * this node was given segments of is gone). Any increase is an alert: the key issues no IDs until it is repaired.
	 */
	public static final String SEGMENT_REFUSED = "idworker.segment.refused";

	/**
	 * Counter of clock-moved-backwards events, tagged {@code action} ({@code waited}, {@code tolerated},
	 * {@code failed}); registered at 0 when bound to a Snowflake generator, so that an alert has a series to match.
	 */
	public static final String CLOCK_BACKWARDS = "idworker.clock.backwards";

	/** Function counter of the IDs the Snowflake generator issued. */
	public static final String SNOWFLAKE_ISSUED = "idworker.snowflake.issued";

	/** Function counter of the IDs issued per segment key, tagged {@code key}. */
	public static final String SEGMENT_ISSUED = "idworker.segment.issued";

	/** Gauge of the numbers left in memory (current and next segment) per segment key, tagged {@code key}. */
	public static final String SEGMENT_REMAINING = "idworker.segment.remaining";

	/**
	 * Gauge of the seconds left until the Snowflake layout's timestamps run out (its last millisecond); 0 once they
	 * have, when no ID can be issued any more.
	 */
	public static final String LAYOUT_REMAINING = "idworker.snowflake.layout.remaining";

	/**
	 * Gauge of the seconds this node keeps issuing Snowflake IDs without another lease renewal; 0 while it refuses
	 * (lease lost, clock skewed).
	 */
	public static final String LEASE_REMAINING = "idworker.lease.remaining";

	/**
	 * Gauge: numbers the current period of a periodic key can still have before its format's width runs out, from
	 * the next number this node would issue; tag {@code key}, the declared key. Not registered for a key whose format
	 * sets no width.
	 */
	public static final String PERIODIC_REMAINING = "idworker.periodic.remaining";

	/**
	 * Gauge of the lease store's clock minus this node's, in seconds, measured at the last lease call; what the
	 * clock-skew guard ({@code id-worker.lease.max-clock-skew}) compares.
	 */
	public static final String LEASE_CLOCK_OFFSET = "idworker.lease.clock.offset";

	private static final String ALLOCATE = "allocate";

	/** Operations of the worker-ID lease store, whose {@code key} argument is the lease namespace. */
	private static final Set<String> LEASE_OPERATIONS = Set.of("borrow", "renew", "release", "record-layout",
			"replace-layout", "slot-marks");

	/** Actions a clock-backwards policy reports. */
	private static final List<String> CLOCK_BACKWARDS_ACTIONS = List.of("waited", "tolerated", "failed");

	/** Tag value for the tag a call does not have. */
	private static final String NONE = "none";

	/**
	 * The {@code key} tag of the events of keys beyond {@code maxKeyTags}; no segment key can be named so (see
	 * {@link io.idstarter.segment.SegmentKeys#checkKey}).
	 */
	public static final String OTHER_KEYS = "(other)";

	/** Keys metered under their own name unless configured otherwise ({@code id-worker.segment.max-key-tags}). */
	public static final int DEFAULT_MAX_KEY_TAGS = 1000;

	private static final Logger logger = LoggerFactory.getLogger(IdWorkerMetrics.class);

	private final MeterRegistry registry;

	private final Supplier<@Nullable SnowflakeIdGenerator> snowflake;

	private final Supplier<@Nullable WorkerLeaseKeeper> lease;

	private final Supplier<@Nullable SegmentIdGenerator> segments;

	private final Supplier<@Nullable PeriodicNumbers> periodic;

	private final TimeSource time;

	/** Registries the binder was bound to; appended to before their keys are registered. */
	private final List<MeterRegistry> boundRegistries = new CopyOnWriteArrayList<>();

	/**
	 * Segment keys whose meters are registered, per registry (by identity); registering a function meter twice makes
	 * Micrometer log a warning, so each pair is registered once.
	 */
	private final Map<MeterRegistry, Set<String>> keysByRegistry = new ConcurrentHashMap<>();

	/** {@link TimeSource#nanoTime()} at which each key's first range was allocated in this instance; set once. */
	private final Map<String, Long> firstAllocation = new ConcurrentHashMap<>();

	/** The segment generator, set once at the first bind; until then new keys are left to that bind. */
	private volatile @Nullable SegmentIdGenerator boundSegments;

	/** Keys whose meters are registered in every bound registry; a key leaves when it retires. */
	private final Set<String> registeredKeys = ConcurrentHashMap.newKeySet();

	private final int maxKeyTags;

	/**
	 * Keys whose meters carry their own name: at most {@code maxKeyTags}, added under the set's monitor and removed
	 * when a key retires, so that keys created and deleted for ever (periodic keys) keep finding places.
	 */
	private final Set<String> taggedKeys = ConcurrentHashMap.newKeySet();

	/** Whether the warning that {@code maxKeyTags} was reached has been logged. */
	private final AtomicBoolean warnedFull = new AtomicBoolean();

	/**
	 * Creates a listener that records events only (no generator meters).
	 * @param registry where the event meters are registered
	 */
	public IdWorkerMetrics(MeterRegistry registry) {
		this(registry, () -> null, () -> null, () -> null, TimeSource.system());
	}

	/**
	 * Creates the metrics.
	 * @param registry where the event meters are registered
	 * @param snowflake supplies the Snowflake generator, or {@code null} if there is none; called when bound
	 * @param lease supplies the Snowflake generator's lease keeper, or {@code null} if there is none; called when
	 * bound
	 * @param segments supplies the segment generator, or {@code null} if there is none; called when bound
	 * @param time the clock the lease keeper uses
	 */
	public IdWorkerMetrics(MeterRegistry registry, Supplier<@Nullable SnowflakeIdGenerator> snowflake,
			Supplier<@Nullable WorkerLeaseKeeper> lease, Supplier<@Nullable SegmentIdGenerator> segments,
			TimeSource time) {
		this(registry, snowflake, lease, segments, () -> null, time);
	}

	/**
	 * Creates the metrics, with those of the periodic keys.
	 * @param registry where the event meters are registered
	 * @param snowflake supplies the Snowflake generator, or {@code null} if there is none; called when bound
	 * @param lease supplies the Snowflake generator's lease keeper, or {@code null} if there is none; called when
	 * bound
	 * @param segments supplies the segment generator, or {@code null} if there is none; called when bound
	 * @param periodic supplies the periodic numbers, or {@code null} if there are none; called when bound
	 * @param time the clock the lease keeper uses
	 */
	public IdWorkerMetrics(MeterRegistry registry, Supplier<@Nullable SnowflakeIdGenerator> snowflake,
			Supplier<@Nullable WorkerLeaseKeeper> lease, Supplier<@Nullable SegmentIdGenerator> segments,
			Supplier<@Nullable PeriodicNumbers> periodic, TimeSource time) {
		this(registry, snowflake, lease, segments, periodic, time, DEFAULT_MAX_KEY_TAGS);
	}

	/**
	 * Creates the metrics, with those of the periodic keys and a cap on the keys metered under their own name.
	 * @param registry where the event meters are registered
	 * @param snowflake supplies the Snowflake generator, or {@code null} if there is none; called when bound
	 * @param lease supplies the Snowflake generator's lease keeper, or {@code null} if there is none; called when
	 * bound
	 * @param segments supplies the segment generator, or {@code null} if there is none; called when bound
	 * @param periodic supplies the periodic numbers, or {@code null} if there are none; called when bound
	 * @param time the clock the lease keeper uses
	 * @param maxKeyTags how many segment keys at a time have meters tagged with their own name
	 * @since 0.2.0
	 */
	public IdWorkerMetrics(MeterRegistry registry, Supplier<@Nullable SnowflakeIdGenerator> snowflake,
			Supplier<@Nullable WorkerLeaseKeeper> lease, Supplier<@Nullable SegmentIdGenerator> segments,
			Supplier<@Nullable PeriodicNumbers> periodic, TimeSource time, int maxKeyTags) {
		if (maxKeyTags < 1) {
			throw new IllegalArgumentException("maxKeyTags must be 1 or more: " + maxKeyTags);
		}
		this.maxKeyTags = maxKeyTags;
		this.registry = Objects.requireNonNull(registry, "registry");
		this.snowflake = Objects.requireNonNull(snowflake, "snowflake");
		this.lease = Objects.requireNonNull(lease, "lease");
		this.segments = Objects.requireNonNull(segments, "segments");
		this.periodic = Objects.requireNonNull(periodic, "periodic");
		this.time = Objects.requireNonNull(time, "time");
	}

	@Override
	public void bindTo(MeterRegistry registry) {
		if (this.keysByRegistry.putIfAbsent(registry, ConcurrentHashMap.newKeySet()) != null) {
			return;
		}
		SnowflakeIdGenerator snowflake = this.snowflake.get();
		if (snowflake != null) {
			FunctionCounter.builder(SNOWFLAKE_ISSUED, snowflake, SnowflakeIdGenerator::issuedCount)
				.description("IDs issued by the Snowflake generator")
				.register(registry);
			for (String action : CLOCK_BACKWARDS_ACTIONS) {
				clockBackwardsCounter(registry, action);
			}
			Gauge.builder(LAYOUT_REMAINING, snowflake, (generator) -> Math.max(0,
					generator.layoutRemaining().toMillis() / 1000.0))
				.description("Time until the Snowflake layout's timestamps run out")
				.baseUnit("seconds")
				.register(registry);
		}
		WorkerLeaseKeeper lease = this.lease.get();
		if (lease != null) {
			Gauge.builder(LEASE_REMAINING, lease, this::leaseRemainingSeconds)
				.description("Time this node keeps issuing Snowflake IDs without another lease renewal")
				.baseUnit("seconds")
				.register(registry);
			Gauge.builder(LEASE_CLOCK_OFFSET, lease, IdWorkerMetrics::clockOffsetSeconds)
				.description("The lease store's clock minus this node's, at the last lease call")
				.baseUnit("seconds")
				.register(registry);
		}
		SegmentIdGenerator segments = this.segments.get();
		if (segments != null) {
			// Publish the registry and the generator before reading the keys: a key fetched for the first time
			// meanwhile is then either among them below or registered by keySeen(). Only keys this instance was
			// given a range of get meters: with thousands of keys in the store, one meter per key it never used
			// cost several hundred bytes of heap each (and as many series).
			this.boundRegistries.add(registry);
			this.boundSegments = segments;
			for (String key : this.firstAllocation.keySet()) {
				if (!OTHER_KEYS.equals(keyTag(key))) {
					registerKey(registry, segments, key);
				}
			}
			for (String key : this.registeredKeys) {
				registerKey(registry, segments, key);
			}
		}
		PeriodicNumbers periodic = this.periodic.get();
		if (periodic != null) {
			for (String key : periodic.keys().keySet()) {
				if (periodic.remaining(key) >= 0) {
					Gauge.builder(PERIODIC_REMAINING, periodic, (numbers) -> numbers.remaining(key))
						.description("Numbers the current period of a periodic key can still have within its format")
						.tag("key", key)
						.register(registry);
				}
			}
		}
	}

	@Override
	public void storeCall(String key, String operation, long nanos, boolean success) {
		boolean lease = LEASE_OPERATIONS.contains(operation);
		Timer.builder(STORE_CALLS)
			.description("Calls to the segment or lease store")
			.tag("key", lease ? NONE : keyTag(key))
			.tag("namespace", lease ? key : NONE)
			.tag("operation", operation)
			.tag("outcome", success ? "success" : "failure")
			.register(this.registry)
			.record(nanos, TimeUnit.NANOSECONDS);
		if (success && ALLOCATE.equals(operation)) {
			this.firstAllocation.putIfAbsent(key, this.time.nanoTime());
			keySeen(key);
		}
	}

	@Override
	public void segmentWait(String key, long nanos, boolean served) {
		Long first = this.firstAllocation.get(key);
		if (first == null || this.time.nanoTime() - nanos <= first) {
			// The wait began before the key had a range in this instance: its first fetch, not a spent segment.
			return;
		}
		Timer.builder(SEGMENT_WAITS)
			.description("Callers that waited because both segments of a key were spent")
			.tag("key", keyTag(key))
			.tag("outcome", served ? "served" : "failed")
			.register(this.registry)
			.record(nanos, TimeUnit.NANOSECONDS);
	}

	@Override
	public void segmentRefused(String key, long knownMark, long storeStart) {
		Counter.builder(SEGMENT_REFUSED)
			.description("Segment store answers refused because the store lost writes")
			.tag("key", keyTag(key))
			.tag("reason", (storeStart < 0) ? "missing" : "below-mark")
			.register(this.registry)
			.increment();
	}

	/**
	 * Removes the meters of a key deleted on purpose (a periodic key's period past its retention), so that a key per
	 * period does not leave meters behind for ever.
	 */
	@Override
	public void segmentKeyRetired(String key) {
		this.firstAllocation.remove(key);
		Set<MeterRegistry> registries = new LinkedHashSet<>(this.boundRegistries);
		registries.add(this.registry);
		for (MeterRegistry registry : registries) {
			for (Meter meter : List.copyOf(registry.getMeters())) {
				String name = meter.getId().getName();
				if ((name.startsWith("idworker.segment.") || STORE_CALLS.equals(name))
						&& key.equals(meter.getId().getTag("key"))) {
					registry.remove(meter);
				}
			}
			Set<String> keys = this.keysByRegistry.get(registry);
			if (keys != null) {
				keys.remove(key);
			}
		}
		this.registeredKeys.remove(key);
		this.taggedKeys.remove(key);
	}

	@Override
	public void clockMovedBackwards(long offsetMillis, String action) {
		clockBackwardsCounter(this.registry, action).increment();
	}

	private static Counter clockBackwardsCounter(MeterRegistry registry, String action) {
		return Counter.builder(CLOCK_BACKWARDS)
			.description("Times the wall clock was found behind the last Snowflake timestamp")
			.tag("action", action)
			.register(registry);
	}

	/**
	 * Returns the {@code key} tag of a segment key's events: its name while it has a place among the
	 * {@code maxKeyTags} keys metered so, taking one if one is free; {@value #OTHER_KEYS} otherwise.
	 */
	private String keyTag(String key) {
		if (this.taggedKeys.contains(key)) {
			return key;
		}
		if (this.taggedKeys.size() < this.maxKeyTags) {
			synchronized (this.taggedKeys) {
				if (this.taggedKeys.size() < this.maxKeyTags) {
					this.taggedKeys.add(key);
					return key;
				}
			}
		}
		if (this.warnedFull.compareAndSet(false, true)) {
			logger.warn("{} segment keys have meters tagged with their own name; the events of further keys are "
					+ "counted under key={} and they get no {} or {} gauge. Raise id-worker.segment.max-key-tags to "
					+ "meter more keys.", this.maxKeyTags, OTHER_KEYS, SEGMENT_ISSUED, SEGMENT_REMAINING);
		}
		return OTHER_KEYS;
	}

	private void keySeen(String key) {
		SegmentIdGenerator segments = this.boundSegments;
		if (segments == null || this.registeredKeys.contains(key) || OTHER_KEYS.equals(keyTag(key))) {
			return;
		}
		for (MeterRegistry registry : this.boundRegistries) {
			registerKey(registry, segments, key);
		}
	}

	private void registerKey(MeterRegistry registry, SegmentIdGenerator segments, String key) {
		// Once per registry and key, whichever of bindTo and keySeen gets there first.
		if (!this.keysByRegistry.computeIfAbsent(registry, (bound) -> ConcurrentHashMap.newKeySet()).add(key)) {
			this.registeredKeys.add(key);
			return;
		}
		FunctionCounter.builder(SEGMENT_ISSUED, segments, (generator) -> issued(generator, key))
			.description("IDs issued for a segment key by this instance")
			.tag("key", key)
			.register(registry);
		Gauge.builder(SEGMENT_REMAINING, segments, (generator) -> remaining(generator, key))
			.description("Numbers of a segment key left in memory, in the current and the next segment")
			.tag("key", key)
			.register(registry);
		this.registeredKeys.add(key);
	}

	private double leaseRemainingSeconds(WorkerLeaseKeeper lease) {
		LeaseStatus status = lease.status();
		Instant issuingUntil = status.issuingUntil();
		if (status.state() == LeaseStatus.State.LOST || status.state() == LeaseStatus.State.CLOCK_SKEWED
				|| status.state() == LeaseStatus.State.STORE_REGRESSED) {
			return 0;
		}
		if (issuingUntil == null) {
			return Double.NaN;
		}
		long millis = issuingUntil.toEpochMilli() - this.time.currentTimeMillis();
		return Math.max(millis, 0) / 1000.0;
	}

	private static double clockOffsetSeconds(WorkerLeaseKeeper lease) {
		Duration offset = lease.status().clockOffset();
		return (offset != null) ? offset.toMillis() / 1000.0 : Double.NaN;
	}

	private static double issued(SegmentIdGenerator segments, String key) {
		return segments.view(key).map(SegmentBufferView::issuedCount).orElse(0L);
	}

	private static double remaining(SegmentIdGenerator segments, String key) {
		SegmentBufferView view = segments.view(key).orElse(null);
		if (view == null || view.current() == null) {
			return Double.NaN;
		}
		return remaining(view.current()) + remaining(view.next());
	}

	private static long remaining(@Nullable SegmentView segment) {
		return (segment != null) ? Math.max(segment.remaining(), 0) : 0;
	}

}
