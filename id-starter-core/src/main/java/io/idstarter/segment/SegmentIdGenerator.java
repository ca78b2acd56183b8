package io.idstarter.segment;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;

import io.idstarter.IdWorker;
import io.idstarter.IdWorkerListener;
import io.idstarter.StoreRegressionException;
import io.idstarter.time.TimeSource;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Leaf-style segment IDs: each key has its own number space, allocated in ranges from a {@link SegmentStore} shared by
 * every instance and served from memory through a double buffer, the next range fetched in the background.
 *
 * <p>IDs are unique across all instances that share the store, for as long as the store never hands out a range
 * twice. IDs of one key increase on one instance in the order they are handed out, across threads; with
 * {@link SegmentOptions.Builder#threadChunkSize(int) thread chunks} only within each thread. Across instances they
 * interleave. Ranges taken but not used up (at shutdown, or when the step
 * changes) leave gaps, which is harmless. A call blocks only when both ranges of a key are used up, for at most
 * {@link SegmentOptions#maxWait()}, and the first call of a key waits for its first range the same way.
 *
 * <p>Call {@link #start()} before the first ID and {@link #close()} at shutdown; one generator per store per JVM.
 * Keys are read from the store at start and every {@link SegmentOptions#keyRefreshInterval()}: new keys become
 * usable, removed keys stop. A key that is not in the cached list is looked up in the store again, at most once a
 * second for all such keys together, so that unknown keys cannot flood the store.
 *
 * <p>A store that loses writes is refused, not served: every range is checked against this node's
 * {@link SegmentMarks high mark} of its key (kept in a local file across restarts when one is given), and a range
 * below it fails callers with {@link StoreRegressionException} ({@link #refusedKeys()}). A key this node has used
 * that disappears from the store is reported by {@link #missingKeys()} until it is back.
 */
public final class SegmentIdGenerator implements IdWorker, AutoCloseable {

	private static final Logger logger = LoggerFactory.getLogger(SegmentIdGenerator.class);

	/** Threads the prefetch pool created when no executor is given keeps while idle. */
	static final int PREFETCH_THREADS = 4;

	/**
	 * Most threads of that pool: while store calls hang, more threads are started, so that hanging keys (each holds
	 * at most one, a key having at most one store call in flight) do not stall the fetches of the others. A fetch
	 * refused beyond this is retried later.
	 */
	static final int MAX_PREFETCH_THREADS = 64;

	/** Shortest time between two reads of the key list caused by unknown keys. */
	static final long UNKNOWN_KEY_RELOAD_INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(1);

	private static final VarHandle PRIMARY;

	static {
		try {
			PRIMARY = MethodHandles.lookup().findVarHandle(SegmentIdGenerator.class, "primary", SegmentBuffer.class);
		}
		catch (ReflectiveOperationException ex) {
			throw new ExceptionInInitializerError(ex);
		}
	}

	/** Lifecycle: constructed, {@link #start()} not called yet. */
	private static final int NEW = 0;

	/** Lifecycle: issuing IDs. */
	private static final int STARTED = 1;

	/** Lifecycle: closed; no more IDs. */
	private static final int CLOSED = 2;

	private final SegmentStore store;

	private final SegmentOptions options;

	private final TimeSource time;

	private final IdWorkerListener listener;

	private final Executor prefetchExecutor;

	private final @Nullable ThreadPoolExecutor ownPrefetchExecutor;

	private final ScheduledThreadPoolExecutor scheduler;

	/** Passes the buffers' requested fetches to the prefetch executor, polling on the scheduler thread. */
	private final PrefetchDispatcher dispatcher;

	/** Buffers of the keys used so far; a buffer is removed (and retired) when its key leaves the store. */
	private final ConcurrentHashMap<String, SegmentBuffer> buffers = new ConcurrentHashMap<>();

	/**
	 * The buffer of the default key, or else of the first key used, checked before the map because most applications
	 * use one key; written only when a buffer is created or removed, so it stays read-mostly.
	 */
	private volatile @Nullable SegmentBuffer primary;

	/** Serialises reading and applying the key list, so that an older list never replaces a newer one. */
	private final ReentrantLock keysLock = new ReentrantLock();

	/** The store's keys as last read; an immutable set, replaced as a whole under {@code keysLock}. */
	private volatile Set<String> keys = Set.of();

	/** Monotonic time of the latest read of the key list; advanced by CAS when an unknown key triggers a read. */
	private final AtomicLong lastKeyReloadNanos;

	/** NEW, then STARTED, then CLOSED. */
	private final AtomicInteger lifecycle = new AtomicInteger(NEW);

	/** Whether a key refresh is running on the prefetch executor; set by CAS, so refreshes never pile up. */
	private final AtomicBoolean refreshing = new AtomicBoolean();

	/** This node's high mark per key; ranges below it are refused. */
	private final SegmentMarks marks;

	/**
	 * Keys this node has a high mark for that the store no longer has, with that mark; a key is added when the store
	 * drops it and removed when the store lists it again.
	 */
	private final ConcurrentHashMap<String, Long> missingKeys = new ConcurrentHashMap<>();

	/**
	 * Creates a generator on the system clock, with no listener and its own prefetch threads.
	 * @param store the store the ranges come from
	 * @param options the settings
	 */
	public SegmentIdGenerator(SegmentStore store, SegmentOptions options) {
		this(store, options, TimeSource.system(), IdWorkerListener.NONE, null);
	}

	/**
	 * Creates a generator; call {@link #start()} before the first ID.
	 * @param store the store the ranges come from
	 * @param options the settings
	 * @param time the clock
	 * @param listener receives store calls and waits
	 * @param prefetchExecutor runs the store calls and the key refresh, or {@code null} for a pool of daemon threads
	 * named {@code id-segment-prefetch-N} (4 kept, more started while store calls hang, up to 64) that the generator
	 * shuts down on {@link #close()}; a given executor is not shut down. A virtual-thread-per-task executor works:
	 * fetches block only in the store call and never pin. A fixed pool lets keys whose store calls hang hold all its
	 * threads (one each at most), stalling the other keys.
	 */
	public SegmentIdGenerator(SegmentStore store, SegmentOptions options, TimeSource time, IdWorkerListener listener,
			@Nullable Executor prefetchExecutor) {
		this(store, options, time, listener, prefetchExecutor, SegmentMarks.inMemory());
	}

	/**
	 * Creates a generator; call {@link #start()} before the first ID.
	 * @param store the store the ranges come from
	 * @param options the settings
	 * @param time the clock
	 * @param listener receives store calls, waits and refusals
	 * @param prefetchExecutor runs the store calls and the key refresh, or {@code null} for the generator's own pool
	 * (see the other constructor); a given executor is not shut down
	 * @param marks this node's high marks: a range below its key's mark is refused; a mark is raised (and written,
	 * for {@link SegmentMarks#file(java.nio.file.Path) file marks}) before any number of a range is served
	 */
	public SegmentIdGenerator(SegmentStore store, SegmentOptions options, TimeSource time, IdWorkerListener listener,
			@Nullable Executor prefetchExecutor, SegmentMarks marks) {
		this.marks = Objects.requireNonNull(marks, "marks");
		this.store = Objects.requireNonNull(store, "store");
		this.options = Objects.requireNonNull(options, "options");
		this.time = Objects.requireNonNull(time, "time");
		this.listener = Objects.requireNonNull(listener, "listener");
		if (prefetchExecutor != null) {
			this.prefetchExecutor = prefetchExecutor;
			this.ownPrefetchExecutor = null;
		}
		else {
			this.ownPrefetchExecutor = newPrefetchExecutor();
			this.prefetchExecutor = this.ownPrefetchExecutor;
		}
		this.scheduler = newScheduler();
		this.dispatcher = new PrefetchDispatcher(this.scheduler);
		this.lastKeyReloadNanos = new AtomicLong(time.nanoTime() - UNKNOWN_KEY_RELOAD_INTERVAL_NANOS);
	}

	/**
	 * Reads the keys from the store and schedules their refresh. Ranges are fetched on each key's first call.
	 * @throws SegmentStoreException if the store cannot be reached or is not set up; the generator can be started
	 * again
	 * @throws SegmentMarksException if the marks file belongs to another store
	 * @throws IllegalStateException if already started or closed
	 */
	public void start() {
		if (!this.lifecycle.compareAndSet(NEW, STARTED)) {
			throw new IllegalStateException("Segment ID generator was already " + lifecycleName() + "; start it once");
		}
		try {
			// Before the keys are compared with the marks: another store's marks would report its keys as lost here.
			this.marks.bindStore(this.store.identity());
			reloadKeys();
		}
		catch (RuntimeException ex) {
			this.lifecycle.compareAndSet(STARTED, NEW);
			throw ex;
		}
		long interval = DynamicStep.saturatedNanos(this.options.keyRefreshInterval());
		this.scheduler.scheduleWithFixedDelay(this::submitRefresh, interval, interval, TimeUnit.NANOSECONDS);
		logger.info("Segment ID generator started with {} keys, {}, marks {}", this.keys.size(), this.options,
				this.marks);
		String defaultKey = this.options.defaultKey();
		if (defaultKey != null && !this.keys.contains(defaultKey)) {
			// A default key this node has a mark for is reported as lost by reloadKeys.
			if (this.marks.highMark(defaultKey) == 0) {
				logger.warn("The default segment key '{}' is not in the store; nextId() fails until it is created: "
						+ "declare it with id-worker.segment.keys.{}.first-id and .step, call SegmentKeyAdmin.createKey, "
						+ "or add it to the store by hand", defaultKey, defaultKey);
			}
		}
	}

	@Override
	public long nextId() {
		return nextId(defaultKey());
	}

	@Override
	public long nextId(String key) {
		SegmentBuffer buffer = this.primary;
		if (buffer == null || !buffer.key().equals(key)) {
			buffer = this.buffers.get(key);
			if (buffer == null) {
				buffer = bufferFor(key);
			}
		}
		return buffer.nextId();
	}

	/**
	 * Returns {@code count} IDs of a key, taking each run from a range with one atomic add rather than one per ID.
	 * The IDs increase; they are consecutive except where a run crosses from one range to the next.
	 * @param key the business key
	 * @param count how many IDs, at least 1
	 * @return the IDs
	 */
	@Override
	public long[] nextIds(String key, int count) {
		if (count < 1) {
			throw new IllegalArgumentException("count must be at least 1: " + count);
		}
		SegmentBuffer buffer = this.primary;
		if (buffer == null || !buffer.key().equals(key)) {
			buffer = this.buffers.get(key);
			if (buffer == null) {
				buffer = bufferFor(key);
			}
		}
		return buffer.nextIds(count);
	}

	/**
	 * Returns the keys the store had at the latest read.
	 * @return an immutable set
	 */
	public Set<String> keys() {
		return this.keys;
	}

	/**
	 * Returns this node's high marks.
	 * @return the marks
	 */
	public SegmentMarks marks() {
		return this.marks;
	}

	/**
	 * Returns the keys whose store answered below this node's high mark: their callers are refused (with
	 * {@link StoreRegressionException}) once the numbers in memory are used up, until the store is above the mark.
	 * @return key to the latest refusal, sorted by key
	 */
	public Map<String, StoreRegressionException> refusedKeys() {
		Map<String, StoreRegressionException> refused = new TreeMap<>();
		for (SegmentBuffer buffer : this.buffers.values()) {
			StoreRegressionException regression = buffer.regression();
			if (regression != null) {
				refused.put(buffer.key(), regression);
			}
		}
		return refused;
	}

	/**
	 * Returns the keys this node was given ranges of (it has a high mark for them, kept across restarts with a marks
	 * file) that the store no longer has: the store lost them. They stay missing until the store lists them again;
	 * creating such a key below the mark gets its ranges refused. A key retired on purpose stops being reported once
	 * its line is removed from the marks file.
	 * @return key to this node's high mark, sorted by key
	 */
	public Map<String, Long> missingKeys() {
		return new TreeMap<>(this.missingKeys);
	}

	/**
	 * Returns a snapshot of a key's double buffer.
	 * @param key the business key
	 * @return the snapshot (with no ranges if the key has not been used yet), or empty if the key is unknown
	 */
	public Optional<SegmentBufferView> view(String key) {
		SegmentBuffer buffer = this.buffers.get(key);
		if (buffer != null) {
			return Optional.of(buffer.view());
		}
		return this.keys.contains(key) ? Optional.of(unloadedView(key)) : Optional.empty();
	}

	/**
	 * Returns snapshots of every known key's double buffer, sorted by key.
	 * @return the snapshots
	 */
	public List<SegmentBufferView> views() {
		Set<String> all = new TreeSet<>(this.keys);
		all.addAll(this.buffers.keySet());
		List<SegmentBufferView> views = new ArrayList<>(all.size());
		for (String key : all) {
			view(key).ifPresent(views::add);
		}
		return views;
	}

	/**
	 * Stops issuing IDs: callers waiting for a range fail, the key refresh stops, and the prefetch pool the generator
	 * created is shut down. Ranges not used up are left as gaps. Calling it again does nothing.
	 */
	@Override
	public void close() {
		if (this.lifecycle.getAndSet(CLOSED) == CLOSED) {
			return;
		}
		this.primary = null;
		for (SegmentBuffer buffer : this.buffers.values()) {
			buffer.retire(/* keyRemoved= */ false);
		}
		this.buffers.clear();
		this.scheduler.shutdownNow();
		if (this.ownPrefetchExecutor != null) {
			this.ownPrefetchExecutor.shutdown();
		}
		logger.info("Segment ID generator closed");
	}

	private String defaultKey() {
		String key = this.options.defaultKey();
		if (key == null) {
			throw new IllegalStateException("No default segment key: set id-worker.segment.default-key "
					+ "(SegmentOptions.defaultKey) or call nextId(key)");
		}
		return key;
	}

	/** Slow path of a key's first call: checks the key and creates its buffer. */
	private SegmentBuffer bufferFor(String key) {
		Objects.requireNonNull(key, "key");
		int state = this.lifecycle.get();
		if (state != STARTED) {
			throw new IllegalStateException("Segment ID generator is " + lifecycleName()
					+ ((state == NEW) ? "; call start() first" : "; it issues no more IDs"));
		}
		if (!this.keys.contains(key) && !reloadKeysForUnknown(key)) {
			Long mark = this.missingKeys.get(key);
			if (mark != null) {
				throw new UnknownKeyException(key, lostKeyMessage(key, mark));
			}
			throw new UnknownKeyException(key);
		}
		SegmentBuffer buffer = this.buffers.computeIfAbsent(key, this::newBuffer);
		if (this.lifecycle.get() == CLOSED) {
			// close() may have missed a buffer created while it ran.
			buffer.retire(/* keyRemoved= */ false);
			this.buffers.remove(key, buffer);
			return buffer;
		}
		if (key.equals(this.options.defaultKey())) {
			this.primary = buffer;
		}
		else {
			PRIMARY.compareAndSet(this, null, buffer);
		}
		if (this.buffers.get(key) != buffer) {
			// Removed meanwhile: the removal may have looked at `primary` before this buffer was put there.
			forgetPrimary(buffer);
		}
		return buffer;
	}

	private SegmentBuffer newBuffer(String key) {
		return new SegmentBuffer(key, this.store, this.options, this.time, this.listener, this.prefetchExecutor,
				this.dispatcher, this.scheduler, this::keyRemoved, this.marks);
	}

	/** Re-reads the key list for a key not in it, unless a read happened within the last second. */
	private boolean reloadKeysForUnknown(String key) {
		long now = this.time.nanoTime();
		long last = this.lastKeyReloadNanos.get();
		if (now - last < UNKNOWN_KEY_RELOAD_INTERVAL_NANOS || !this.lastKeyReloadNanos.compareAndSet(last, now)) {
			return false;
		}
		reloadKeys();
		return this.keys.contains(key);
	}

	/**
	 * Runs the key refresh on the prefetch executor, not on the scheduler thread: a key list read that hangs must not
	 * hold up the retries of failed fetches, which the scheduler starts.
	 */
	private void submitRefresh() {
		if (!this.refreshing.compareAndSet(false, true)) {
			return;
		}
		try {
			this.prefetchExecutor.execute(() -> {
				try {
					refreshKeys();
				}
				finally {
					this.refreshing.set(false);
				}
			});
		}
		catch (RejectedExecutionException ex) {
			this.refreshing.set(false);
		}
	}

	private void refreshKeys() {
		try {
			reloadKeys();
		}
		catch (RuntimeException ex) {
			logger.warn("Could not refresh the segment keys; keeping the {} cached keys", this.keys.size(), ex);
		}
		for (SegmentBuffer buffer : this.buffers.values()) {
			buffer.releaseChunksOfEndedThreads();
		}
	}

	private void reloadKeys() {
		this.keysLock.lock();
		try {
			Set<String> loaded = Set.copyOf(this.store.keys());
			this.lastKeyReloadNanos.set(this.time.nanoTime());
			Set<String> previous = this.keys;
			this.keys = loaded;
			for (String key : loaded) {
				if (!previous.contains(key) && !previous.isEmpty()) {
					logger.info("Segment key '{}' added", key);
				}
				if (this.missingKeys.remove(key) != null) {
					logger.warn("Segment key '{}' is in the store again; its ranges are served only from this node's "
							+ "high mark {} on", key, this.marks.highMark(key));
				}
			}
			Set<String> removed = new HashSet<>();
			for (SegmentBuffer buffer : this.buffers.values()) {
				if (!loaded.contains(buffer.key()) && this.buffers.remove(buffer.key(), buffer)) {
					forgetPrimary(buffer);
					buffer.retire(/* keyRemoved= */ true);
					removed.add(buffer.key());
					removed(buffer.key(), buffer.view().configuredStep());
				}
			}
			// Keys used before (this process, or before a restart with a marks file) that the store no longer has.
			this.marks.all().forEach((key, mark) -> {
				if (mark > 0 && !loaded.contains(key) && !removed.contains(key)) {
					keyLost(key, mark, 0);
				}
			});
		}
		finally {
			this.keysLock.unlock();
		}
	}

	/** A key this generator used left the store: a deletion, or a lost store if this node issued from it. */
	private void removed(String key, int configuredStep) {
		long mark = this.marks.highMark(key);
		if (mark > 0) {
			keyLost(key, mark, configuredStep);
		}
		else {
			logger.info("Segment key '{}' removed from the store; it issues no more IDs", key);
		}
	}

	/**
	 * A key this node was given ranges of is missing from the store. With heal forward and a step known from this
	 * run, the key is created again at the mark plus the heal margin (or, if another node created it meanwhile,
	 * raised there).
	 * @param configuredStep the key's step as the store last reported it; 0 if unknown
	 */
	private void keyLost(String key, long mark, int configuredStep) {
		if (this.missingKeys.containsKey(key)) {
			return;
		}
		// Counted before it shows as missing, so that a health check that sees it finds the metric too.
		this.listener.segmentRefused(key, mark, -1);
		if (this.missingKeys.put(key, mark) == null) {
			logger.error(lostKeyMessage(key, mark));
		}
		if (this.options.healForward() && configuredStep > 0 && this.store instanceof SegmentKeyAdmin admin) {
			healMissingKey(admin, key, mark, configuredStep);
		}
	}

	private void healMissingKey(SegmentKeyAdmin admin, String key, long mark, int configuredStep) {
		long floor = SegmentFetcher.healFloor(mark, this.options.healMargin());
		try {
			boolean created = admin.createKey(key, floor, configuredStep,
					"created again by id-starter at a node's high mark after the store lost the key");
			if (!created) {
				// Another node (one that joined after the loss, perhaps) created it first, maybe below the mark.
				admin.raiseMaxId(key, floor);
			}
			this.missingKeys.remove(key, mark);
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

	/**
	 * Called by a buffer whose store answered that the key does not exist, on a pool thread. It does not wait for a
	 * key list read in progress (which may hang on the store): that read, or the next, drops the key from the list.
	 */
	private void keyRemoved(SegmentBuffer buffer) {
		this.buffers.remove(buffer.key(), buffer);
		forgetPrimary(buffer);
		if (this.keysLock.tryLock()) {
			try {
				if (this.keys.contains(buffer.key())) {
					Set<String> remaining = new HashSet<>(this.keys);
					remaining.remove(buffer.key());
					this.keys = Set.copyOf(remaining);
				}
			}
			finally {
				this.keysLock.unlock();
			}
		}
		buffer.retire(/* keyRemoved= */ true);
		removed(buffer.key(), buffer.view().configuredStep());
	}

	private void forgetPrimary(SegmentBuffer buffer) {
		PRIMARY.compareAndSet(this, buffer, null);
	}

	private String lifecycleName() {
		int state = this.lifecycle.get();
		return switch (state) {
			case NEW -> "not started";
			case STARTED -> "started";
			case CLOSED -> "closed";
			default -> throw new IllegalStateException("Invalid lifecycle state: " + state);
		};
	}

	private static SegmentBufferView unloadedView(String key) {
		return new SegmentBufferView(key, null, null, 0, 0, null, null, 0, false, null, null, null);
	}

	private static ThreadPoolExecutor newPrefetchExecutor() {
		// A hand-off queue: a fetch never waits behind one that hangs; a thread is started instead, up to the maximum.
		ThreadPoolExecutor executor = new ThreadPoolExecutor(PREFETCH_THREADS, MAX_PREFETCH_THREADS, 60,
				TimeUnit.SECONDS, new SynchronousQueue<>(), daemonThreads("id-segment-prefetch-"));
		executor.allowCoreThreadTimeOut(true);
		return executor;
	}

	private static ScheduledThreadPoolExecutor newScheduler() {
		ScheduledThreadPoolExecutor scheduler = new ScheduledThreadPoolExecutor(1, daemonThreads("id-segment-refresh-"));
		scheduler.setRemoveOnCancelPolicy(true);
		scheduler.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
		return scheduler;
	}

	private static ThreadFactory daemonThreads(String prefix) {
		AtomicInteger count = new AtomicInteger();
		return (task) -> {
			Thread thread = new Thread(task, prefix + count.incrementAndGet());
			thread.setDaemon(true);
			return thread;
		};
	}

}
