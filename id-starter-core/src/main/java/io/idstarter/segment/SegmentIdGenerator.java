package io.idstarter.segment;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Predicate;

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
 * interleave. A graceful {@link #close()} gives the unused rest of each key's ranges back to the store where nobody
 * allocated after them; what cannot go back (a crash, a store that refuses or fails the give-back, a range another node
 * allocated after) is a gap, which is harmless. A call blocks only when both ranges of a key are used up, for at most
 * {@link SegmentOptions#maxWait()}, and the first call of a key waits for its first range the same way.
 *
 * <p>Call {@link #start()} before the first ID and {@link #close()} at shutdown; one generator per store per JVM.
 * Keys are read from the store at start and every {@link SegmentOptions#keyRefreshInterval()}: new keys become
 * usable, removed keys stop. A refresh reads the whole list only when the store's
 * {@link SegmentStore#keysMarker() marker} of it changed, so that many keys cost nothing while none is added or
 * removed. A key that is not in the cached list is looked up in the store by itself
 * ({@link SegmentStore#containsKey}), at most once a second for all such keys together, so that unknown keys cannot
 * flood the store.
 *
 * <p>A store that loses writes is refused, not served: every range is checked against this node's
 * {@link SegmentMarks high mark} of its key (kept in a local file across restarts when one is given), and a range
 * below it fails callers with {@link StoreRegressionException} ({@link #refusedKeys()}). A key this node has used
 * that disappears from the store is reported by {@link #missingKeys()} until it is back.
 */
public final class SegmentIdGenerator implements IdWorker, AutoCloseable {

	/*
	 * Parts. SegmentBuffers finds a key's double buffer (SegmentBuffer, with its SegmentFetcher) on every call;
	 * SegmentKeyCatalog holds the store's key list and its reads; MissingSegmentKeys reports and heals keys the store
	 * lost; SegmentExecutors owns the threads. This class holds the lifecycle and ties them together: a read of the key
	 * list (under the catalog's lock) retires the buffers of keys that left and updates the missing keys, and a fetch
	 * that finds its key gone does the same for one key.
	 */

	private static final Logger logger = LoggerFactory.getLogger(SegmentIdGenerator.class);

	/** Lifecycle: constructed, {@link #start()} not called yet. */
	private static final int NEW = 0;

	/** Lifecycle: issuing IDs. */
	private static final int STARTED = 1;

	/** Lifecycle: closed; no more IDs. */
	private static final int CLOSED = 2;

	private final SegmentStore store;

	private final SegmentOptions options;

	/** This node's high mark per key; ranges below it are refused. */
	private final SegmentMarks marks;

	private final SegmentExecutors executors;

	/** What every buffer of this generator is built with. */
	private final SegmentBufferContext bufferContext;

	private final SegmentBuffers buffers = new SegmentBuffers();

	private final SegmentKeyCatalog catalog;

	private final MissingSegmentKeys missingKeys;

	/** Receives the events of this generator. */
	private final IdWorkerListener listener;

	/** Told by a buffer whose store answered that its key is gone; one instance for every buffer. */
	private final Consumer<SegmentBuffer> keyRemoved = this::keyRemoved;

	/** NEW, then STARTED, then CLOSED. */
	private final AtomicInteger lifecycle = new AtomicInteger(NEW);

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
		Objects.requireNonNull(time, "time");
		this.listener = Objects.requireNonNull(listener, "listener");
		this.executors = new SegmentExecutors(prefetchExecutor);
		this.bufferContext = new SegmentBufferContext(store, options, time, listener,
				this.executors.prefetchExecutor(), this.executors.dispatcher(), this.executors.scheduler(), marks);
		this.catalog = new SegmentKeyCatalog(store, time, this::keysRead);
		this.missingKeys = new MissingSegmentKeys(store, options, listener, marks);
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
			this.catalog.reload();
		}
		catch (RuntimeException ex) {
			this.lifecycle.compareAndSet(STARTED, NEW);
			throw ex;
		}
		long interval = DynamicStep.saturatedNanos(this.options.keyRefreshInterval());
		this.executors.scheduler().scheduleWithFixedDelay(this::refreshKeys, interval, interval, TimeUnit.NANOSECONDS);
		logger.info("Segment ID generator started with {} keys, {}, marks {}", this.catalog.keys().size(), this.options,
				this.marks);
		String defaultKey = this.options.defaultKey();
		if (defaultKey != null && !this.catalog.contains(defaultKey)) {
			// A default key this node has a mark for is reported as lost by the read of the keys.
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
		SegmentBuffer buffer = this.buffers.find(key);
		if (buffer == null) {
			buffer = bufferFor(key);
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
		SegmentBuffer buffer = this.buffers.find(key);
		if (buffer == null) {
			buffer = bufferFor(key);
		}
		return buffer.nextIds(count);
	}

	/**
	 * Returns the keys the store had at the latest read.
	 * @return an immutable set
	 */
	public Set<String> keys() {
		return this.catalog.keys();
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
		for (SegmentBuffer buffer : this.buffers.all()) {
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
		return this.missingKeys.snapshot();
	}

	/**
	 * Returns a snapshot of a key's double buffer.
	 * @param key the business key
	 * @return the snapshot (with no ranges if the key has not been used yet), or empty if the key is unknown
	 */
	public Optional<SegmentBufferView> view(String key) {
		SegmentBuffer buffer = this.buffers.find(key);
		if (buffer != null) {
			return Optional.of(buffer.view());
		}
		return this.catalog.contains(key) ? Optional.of(unloadedView(key)) : Optional.empty();
	}

	/**
	 * Returns snapshots of every known key's double buffer, sorted by key.
	 * @return the snapshots
	 */
	public List<SegmentBufferView> views() {
		Set<String> all = new TreeSet<>(this.catalog.keys());
		all.addAll(this.buffers.keys());
		List<SegmentBufferView> views = new ArrayList<>(all.size());
		for (String key : all) {
			view(key).ifPresent(views::add);
		}
		return views;
	}

	/**
	 * Stops issuing IDs: callers waiting for a range fail, the key refresh stops, and the prefetch pool the generator
	 * created is shut down. With {@link SegmentOptions#giveBackOnClose()} (the default), the unused tail of each key's
	 * range and its prefetched range go back to the store where nobody allocated after them, so the next range starts
	 * where this node stopped; what cannot be given back is left as a gap. Calling it again does nothing.
	 */
	@Override
	public void close() {
		if (this.lifecycle.getAndSet(CLOSED) == CLOSED) {
			return;
		}
		List<SegmentBuffer> retired = this.buffers.retireAll();
		if (this.options.giveBackOnClose()) {
			giveBack(retired);
		}
		this.executors.shutdown();
		logger.info("Segment ID generator closed");
	}

	/**
	 * Gives back each key's unused numbers, until the store or the marks file fails: the keys after it keep their
	 * gaps, so that a store that is down costs a close one timeout, not one per key.
	 */
	private void giveBack(List<SegmentBuffer> retired) {
		for (int i = 0; i < retired.size(); i++) {
			SegmentBuffer buffer = retired.get(i);
			long given = 0;
			try {
				for (SegmentBuffer.Tail tail : buffer.giveBack()) {
					given += tail.size();
				}
			}
			catch (RuntimeException ex) {
				int rest = retired.size() - i - 1;
				if (rest > 0) {
					logger.warn("Gave back nothing of the other {} keys, whose unused numbers stay gaps", rest);
				}
				return;
			}
			if (given > 0) {
				logger.info("Gave back {} unused numbers of key '{}' to the segment store", given, buffer.key());
			}
		}
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
		if (!this.catalog.contains(key)) {
			if (!this.catalog.lookUp(key)) {
				throw this.missingKeys.unknown(key);
			}
			this.missingKeys.listed(key);
		}
		SegmentBuffer buffer = this.buffers.obtain(key, this::newBuffer);
		if (this.lifecycle.get() == CLOSED) {
			// close() may have missed a buffer created while it ran.
			buffer.retire(/* keyRemoved= */ false);
			this.buffers.remove(buffer);
			return buffer;
		}
		this.buffers.promote(buffer, key.equals(this.options.defaultKey()));
		return buffer;
	}

	private SegmentBuffer newBuffer(String key) {
		return new SegmentBuffer(key, this.bufferContext, this.keyRemoved);
	}

	/** The periodic refresh, started on the scheduler thread; the read itself runs on the prefetch executor. */
	private void refreshKeys() {
		this.catalog.refreshOn(this.executors.prefetchExecutor(), this::releaseChunksOfEndedThreads);
	}

	/** Runs the periodic refresh now, on the calling thread: for tests and benchmarks. */
	void refreshKeysNow() {
		this.catalog.refresh();
		releaseChunksOfEndedThreads();
	}

	private void releaseChunksOfEndedThreads() {
		for (SegmentBuffer buffer : this.buffers.all()) {
			buffer.releaseChunksOfEndedThreads();
		}
	}

	/** Applies a read of the store's key list; runs under the catalog's lock. */
	private void keysRead(Set<String> read) {
		for (String key : read) {
			this.missingKeys.listed(key);
		}
		Set<String> removed = new HashSet<>();
		this.buffers.removeAbsent(read, (buffer) -> {
			buffer.retire(/* keyRemoved= */ true);
			removed.add(buffer.key());
			this.missingKeys.left(buffer.key(), buffer.view().configuredStep());
		});
		// Keys used before (this process, or before a restart with a marks file) that the store no longer has.
		this.missingKeys.lostFrom(read, removed);
	}

	/**
	 * Called by a buffer whose store answered that the key does not exist, on a pool thread. It does not wait for a
	 * key list read in progress (which may hang on the store): that read, or the next, drops the key from the list.
	 */
	private void keyRemoved(SegmentBuffer buffer) {
		this.buffers.remove(buffer);
		this.catalog.forget(buffer.key());
		buffer.retire(/* keyRemoved= */ true);
		this.missingKeys.left(buffer.key(), buffer.view().configuredStep());
	}

	/**
	 * Makes a key this process has just created usable at once, without waiting for a read of the key list.
	 * @param key the key, now in the store
	 */
	void keyCreated(String key) {
		this.catalog.added(key);
	}

	/**
	 * Sets which keys are deleted from the store on purpose: their absence is not reported as a lost key, and their
	 * marks are dropped.
	 * @param retired tells whether a key is retired
	 */
	void retiredKeys(Predicate<String> retired) {
		this.missingKeys.retired(retired);
	}

	/**
	 * Stops serving a key that is about to be deleted on purpose: drops its buffer and its mark.
	 * @param key the key
	 */
	void retire(String key) {
		SegmentBuffer buffer = this.buffers.find(key);
		if (buffer != null) {
			this.buffers.remove(buffer);
			buffer.retire(/* keyRemoved= */ true);
		}
		this.catalog.forget(key);
		this.marks.forget(key);
		this.listener.segmentKeyRetired(key);
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

}
