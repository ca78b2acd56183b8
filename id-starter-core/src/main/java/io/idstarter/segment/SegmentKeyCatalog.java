package io.idstarter.segment;

import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import io.idstarter.time.TimeSource;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The store's key list as this generator last read it: read at start, refreshed periodically on the prefetch
 * executor, grown by a key not in it that the store has when asked (at most once a second), and shortened when a
 * fetch finds a key gone. A refresh reads the whole list only when the store's
 * {@link SegmentStore#keysMarker() marker} changed since the last read.
 */
final class SegmentKeyCatalog {

	/*
	 * Protocol. Reads of the list are serialised by `lock`, and the listener sees each read under it, so an older list
	 * never replaces a newer one and the listener's bookkeeping (removed buffers, missing keys) follows the reads in
	 * order. Callers read `keys` without the lock: it is an immutable set, replaced as a whole. A fetch that finds its
	 * key gone only tries the lock: a read in progress may hang on the store, and that read, or the next, drops the key
	 * anyway. An unknown key is looked up in the store (one key, not the list) only by winning the CAS of
	 * `lastReadNanos` once a second has passed since the last lookup or read of the list, so unknown keys cannot flood
	 * the store. The periodic refresh runs only if none is running (`refreshing`).
	 *
	 * Change marker. Each read of the list first reads the store's marker, and keeps it with the list. A refresh that
	 * finds the marker unchanged keeps the list and does not call the listener: the store's keys are the ones read
	 * then, so no buffer has left, no key came back and no marked key went missing since (every one of those is a
	 * change of the list). A change made between the marker and the list is in the next marker. The unknown-key
	 * lookup does not trust the marker: one that missed a change (a key added by hand where the store cannot see it,
	 * a failover to a replica that missed writes) would otherwise leave a key the store has unknown until the marker
	 * next changes. The list changed here without a read (a key this process created or looked up, one a fetch found
	 * gone) clears the marker, so that the next refresh reads the whole list again.
	 */

	private static final Logger logger = LoggerFactory.getLogger(SegmentKeyCatalog.class);

	/** Shortest time between two reads of the key list caused by unknown keys. */
	static final long UNKNOWN_KEY_RELOAD_INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(1);

	/** Receives each read of the key list, under the catalog's lock. */
	interface ReadListener {

		/**
		 * Called after a read replaced the key list, before the next read can start.
		 * @param read the list this read returned
		 */
		void keysRead(Set<String> read);

	}

	private final SegmentStore store;

	private final TimeSource time;

	private final ReadListener listener;

	/** Serialises reading and applying the key list. */
	private final ReentrantLock lock = new ReentrantLock();

	/** The store's keys as last read; an immutable set, written only under {@code lock}, read without it. */
	private volatile Set<String> keys = Set.of();

	/** Monotonic time of the latest read of the key list or lookup of a key; advanced by CAS for a lookup. */
	private final AtomicLong lastReadNanos;

	/** Whether a periodic refresh is running; set by CAS, so refreshes never pile up. */
	private final AtomicBoolean refreshing = new AtomicBoolean();

	/** The store's marker read with {@code keys}; null when the store has none or the list changed here since. */
	@GuardedBy("lock")
	private @Nullable String marker;

	SegmentKeyCatalog(SegmentStore store, TimeSource time, ReadListener listener) {
		this.store = store;
		this.time = time;
		this.listener = listener;
		this.lastReadNanos = new AtomicLong(time.nanoTime() - UNKNOWN_KEY_RELOAD_INTERVAL_NANOS);
	}

	/**
	 * Returns the keys the store had at the latest read.
	 * @return an immutable set
	 */
	Set<String> keys() {
		return this.keys;
	}

	boolean contains(String key) {
		return this.keys.contains(key);
	}

	/** Reads the key list from the store and hands it to the listener; store failures are thrown. */
	void reload() {
		this.lock.lock();
		try {
			read(this.store.keysMarker());
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * Reads the key list again if the store's marker changed since the last read; store failures are thrown.
	 * @return whether the list was read
	 */
	boolean reloadIfChanged() {
		this.lock.lock();
		try {
			String current = this.store.keysMarker();
			if (current != null && current.equals(this.marker)) {
				return false;
			}
			read(current);
			return true;
		}
		finally {
			this.lock.unlock();
		}
	}

	/** Reads the whole list, which the store's marker was {@code current} before. */
	@GuardedBy("lock")
	private void read(@Nullable String current) {
		Set<String> read = Set.copyOf(this.store.keys());
		this.lastReadNanos.set(this.time.nanoTime());
		Set<String> previous = this.keys;
		this.keys = read;
		this.marker = current;
		for (String key : read) {
			if (!previous.contains(key) && !previous.isEmpty()) {
				logger.info("Segment key '{}' added", key);
			}
		}
		this.listener.keysRead(read);
	}

	/**
	 * Asks the store whether it has a key not in the list, unless a lookup or a read of the list happened within the
	 * last second; a key it has is added to the list. Store failures are thrown.
	 * @param key the key not in the list
	 * @return whether the key is in the list now
	 */
	boolean lookUp(String key) {
		long now = this.time.nanoTime();
		long last = this.lastReadNanos.get();
		if (now - last < UNKNOWN_KEY_RELOAD_INTERVAL_NANOS || !this.lastReadNanos.compareAndSet(last, now)) {
			return false;
		}
		if (!this.store.containsKey(key)) {
			return false;
		}
		logger.info("Segment key '{}' added", key);
		added(key);
		return true;
	}

	/**
	 * Runs a refresh on the executor unless one is running: on the prefetch executor, not the scheduler thread, so that
	 * a read that hangs does not hold up the retries of failed fetches, which the scheduler starts.
	 * @param executor where the read runs
	 * @param afterRead runs after each read, whether it succeeded or not
	 */
	void refreshOn(Executor executor, Runnable afterRead) {
		if (!this.refreshing.compareAndSet(false, true)) {
			return;
		}
		try {
			executor.execute(() -> {
				try {
					refresh();
					afterRead.run();
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

	/**
	 * Adds a key the store has (one this process has just created, or found by {@link #lookUp}), so that its first
	 * call need not wait for a read of the list. Under the lock: a read that started before the creation finishes
	 * first, and one that starts after it lists the key.
	 * @param key the key, now in the store
	 */
	void added(String key) {
		this.lock.lock();
		try {
			if (!this.keys.contains(key)) {
				Set<String> grown = new HashSet<>(this.keys);
				grown.add(key);
				this.keys = Set.copyOf(grown);
				this.marker = null;
			}
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * Drops a key the store answered it does not have, unless a read holds the lock (it drops it then, or the next).
	 * @param key the key
	 */
	void forget(String key) {
		if (this.lock.tryLock()) {
			try {
				if (this.keys.contains(key)) {
					Set<String> remaining = new HashSet<>(this.keys);
					remaining.remove(key);
					this.keys = Set.copyOf(remaining);
					this.marker = null;
				}
			}
			finally {
				this.lock.unlock();
			}
		}
	}

	/**
	 * Refreshes the key list as the periodic refresh does: read again if the store's marker changed; a failure is
	 * logged and the cached keys are kept.
	 */
	void refresh() {
		try {
			reloadIfChanged();
		}
		catch (RuntimeException ex) {
			logger.warn("Could not refresh the segment keys; keeping the {} cached keys", this.keys.size(), ex);
		}
	}

}
