package io.idstarter.segment;

import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.jspecify.annotations.Nullable;

/**
 * A {@link SegmentStore} held in memory, with the semantics the real stores follow (Leaf's {@code leaf_alloc}: each
 * allocation moves the key's high mark up by the step and returns the range below it; keys follow
 * {@link SegmentKeys}). Thread-safe and lock-free.
 * For tests and single-JVM demos only: the ranges it hands out are unique within this object, not across processes.
 *
 * <p>For tests it can simulate a slow store ({@link #setLatency(Duration)}) and an outage
 * ({@link #setAvailable(boolean)}), and counts its calls.
 */
public final class InMemorySegmentStore implements SegmentStore, SegmentKeyAdmin {

	private final ConcurrentHashMap<String, Entry> entries = new ConcurrentHashMap<>();

	/** Delay added to every call, in nanoseconds. */
	private volatile long latencyNanos;

	/** Whether calls succeed; {@code false} simulates an outage. */
	private volatile boolean available = true;

	private final AtomicLong allocateCalls = new AtomicLong();

	private final AtomicLong keysCalls = new AtomicLong();

	private final AtomicLong keysMarkerCalls = new AtomicLong();

	private final AtomicLong containsKeyCalls = new AtomicLong();

	/** Counts the changes of the key list, each counted after it is made: the {@link #keysMarker() marker}. */
	private final AtomicLong keysVersion = new AtomicLong();

	@Override
	public SegmentAllocation allocate(String key) {
		SegmentKeys.checkKey(key);
		return allocate(key, 0, /* configured= */ true);
	}

	@Override
	public SegmentAllocation allocate(String key, int step) {
		SegmentKeys.checkKey(key);
		SegmentKeys.checkStep(key, step);
		return allocate(key, step, /* configured= */ false);
	}

	private SegmentAllocation allocate(String key, int step, boolean configured) {
		Objects.requireNonNull(key, "key");
		this.allocateCalls.incrementAndGet();
		simulate();
		Entry entry = this.entries.get(key);
		if (entry == null) {
			throw new UnknownKeyException(key);
		}
		while (true) {
			int configuredStep = entry.step;
			int size = configured ? configuredStep : step;
			long start = entry.maxId.get();
			if (start > Long.MAX_VALUE - size) {
				throw new SegmentKeyExhaustedException(key, String.format(Locale.ROOT,
						"Range of key '%s' would pass Long.MAX_VALUE: max_id %d + step %d; the key is used up, "
								+ "move to a new key",
						key, start, size), Long.MAX_VALUE - start);
			}
			if (entry.maxId.compareAndSet(start, start + size)) {
				return new SegmentAllocation(key, start, start + size, configuredStep);
			}
		}
	}

	@Override
	public Set<String> keys() {
		this.keysCalls.incrementAndGet();
		simulate();
		return Set.copyOf(this.entries.keySet());
	}

	@Override
	public boolean containsKey(String key) {
		this.containsKeyCalls.incrementAndGet();
		simulate();
		return this.entries.containsKey(key);
	}

	@Override
	public String keysMarker() {
		this.keysMarkerCalls.incrementAndGet();
		simulate();
		return Long.toString(this.keysVersion.get());
	}

	/**
	 * Returns {@code true}: the ranges live in this object, nothing is bound to the calling thread.
	 */
	@Override
	public boolean supportsCallerThreadAllocation() {
		return true;
	}

	@Override
	public boolean createKey(String key, long firstId, int step, String description) {
		SegmentKeys.checkNewKey(key, firstId, step, description);
		return changed(this.entries.putIfAbsent(key, new Entry(firstId, step, description)) == null);
	}

	@Override
	public void updateStep(String key, int step) {
		SegmentKeys.checkKey(key);
		SegmentKeys.checkStep(key, step);
		Entry entry = this.entries.get(key);
		if (entry == null) {
			throw new UnknownKeyException(key);
		}
		entry.step = step;
	}

	/**
	 * Removes a key, as an operator deleting its row would.
	 * @param key the business key
	 * @return whether the key existed
	 */
	public boolean removeKey(String key) {
		return changed(this.entries.remove(key) != null);
	}

	private boolean changed(boolean changed) {
		if (changed) {
			this.keysVersion.incrementAndGet();
		}
		return changed;
	}

	@Override
	public boolean deleteKey(String key) {
		SegmentKeys.checkKey(key);
		return removeKey(key);
	}

	@Override
	public boolean deletesKeys() {
		return true;
	}

	@Override
	public @Nullable String description(String key) {
		SegmentKeys.checkKey(key);
		Entry entry = this.entries.get(key);
		return (entry != null) ? entry.description : null;
	}

	@Override
	public boolean giveBack(String key, long cursor, long end) {
		SegmentKeys.checkGiveBack(key, cursor, end);
		simulate();
		Entry entry = this.entries.get(key);
		return entry != null && entry.maxId.compareAndSet(end, cursor);
	}

	@Override
	public boolean raiseMaxId(String key, long floor) {
		Entry entry = this.entries.get(key);
		if (entry == null) {
			throw new UnknownKeyException(key);
		}
		long maxId = entry.maxId.get();
		while (maxId < floor) {
			if (entry.maxId.compareAndSet(maxId, floor)) {
				return true;
			}
			maxId = entry.maxId.get();
		}
		return false;
	}

	/**
	 * Sets a key's high mark back (or forward), as a restore from an old backup or a store that lost writes would.
	 * @param key the business key
	 * @param maxId the first number of the next range
	 * @throws UnknownKeyException if the key does not exist
	 */
	public void resetMaxId(String key, long maxId) {
		if (maxId < 0) {
			throw new IllegalArgumentException("max ID of key '" + key + "' must be at least 0: " + maxId);
		}
		Entry entry = this.entries.get(key);
		if (entry == null) {
			throw new UnknownKeyException(key);
		}
		entry.maxId.set(maxId);
	}

	/**
	 * Returns a key's high mark: the first number of the next range.
	 * @param key the business key
	 * @return the high mark, or empty if the key does not exist
	 */
	public OptionalLong maxId(String key) {
		Entry entry = this.entries.get(key);
		return (entry != null) ? OptionalLong.of(entry.maxId.get()) : OptionalLong.empty();
	}

	/**
	 * Makes every call take at least this long, like a remote store.
	 * @param latency the delay, zero for none
	 */
	public void setLatency(Duration latency) {
		if (latency.isNegative()) {
			throw new IllegalArgumentException("latency must not be negative: " + latency);
		}
		this.latencyNanos = latency.toNanos();
	}

	/**
	 * Simulates an outage: while unavailable, every call fails with a {@link SegmentStoreException} (after the
	 * latency).
	 * @param available {@code false} to fail calls, {@code true} to serve them again
	 */
	public void setAvailable(boolean available) {
		this.available = available;
	}

	/**
	 * Returns how many times {@code allocate} was called, including calls that failed.
	 * @return the count
	 */
	public long allocateCalls() {
		return this.allocateCalls.get();
	}

	/**
	 * Returns how many times {@link #keys()} was called, including calls that failed.
	 * @return the count
	 */
	public long keysCalls() {
		return this.keysCalls.get();
	}

	/**
	 * Returns how many times {@link #containsKey(String)} was called.
	 * @return the count
	 */
	public long containsKeyCalls() {
		return this.containsKeyCalls.get();
	}

	/**
	 * Returns how many times {@link #keysMarker()} was called.
	 * @return the count
	 */
	public long keysMarkerCalls() {
		return this.keysMarkerCalls.get();
	}

	private void simulate() {
		long latency = this.latencyNanos;
		if (latency > 0) {
			try {
				TimeUnit.NANOSECONDS.sleep(latency);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new SegmentStoreException("Interrupted during the simulated latency of the in-memory store", ex);
			}
		}
		if (!this.available) {
			throw new SegmentStoreException("In-memory segment store is unavailable (simulated outage)");
		}
	}

	private static final class Entry {

		/** First number of the next range; only grows, by CAS, except when a test sets it back. */
		final AtomicLong maxId;

		/** The key's configured step. */
		volatile int step;

		/** Free text given at creation. */
		final String description;

		Entry(long firstId, int step, String description) {
			this.maxId = new AtomicLong(firstId);
			this.step = step;
			this.description = description;
		}

	}

}
