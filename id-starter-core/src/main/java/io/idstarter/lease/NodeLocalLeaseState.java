package io.idstarter.lease;

import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.OptionalInt;
import java.util.function.Supplier;

import io.idstarter.StoreRegressionException;
import io.idstarter.local.LocalFileLockTimeoutException;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the lease keeper of one namespace keeps on this node's disk, beside the configured cache file: the last
 * worker ID (a preference for the next start, {@link WorkerIdCache}) and each slot's mark (a check on the store,
 * {@link WorkerSlotMarks}). Without a cache file it keeps nothing. Write failures are logged, not thrown: issuing
 * goes on, with the preference or the check weakened. One exception: a mark not written because the file's lock was
 * not obtained in time (another process sharing the file is frozen or stuck, {@link LocalFileLockTimeoutException})
 * fails the grant, so that no ID is issued under a ceiling the file does not hold while that lasts. Not
 * thread-safe: the keeper calls it under its lock.
 */
final class NodeLocalLeaseState {

	private static final Logger logger = LoggerFactory.getLogger(WorkerLeaseKeeper.class);

	private final String namespace;

	private final @Nullable WorkerIdCache cache;

	private final @Nullable WorkerSlotMarks marks;

	/** Whether the current run of failed mark writes has been warned about; reset by a successful write. */
	private boolean markWriteWarned;

	NodeLocalLeaseState(String namespace, @Nullable Path cacheFile) {
		this.namespace = namespace;
		this.cache = (cacheFile != null) ? new WorkerIdCache(cacheFile) : null;
		this.marks = (cacheFile != null) ? WorkerSlotMarks.besideCacheFile(cacheFile) : null;
	}

	/**
	 * Checks that the files were written for the store in use, before anything in them is believed; they record it
	 * from now on.
	 * @param store the store's {@link ISequenceManager#identity()}, asked only if there are files (it may call the
	 * store)
	 * @throws LeaseFileOfAnotherStoreException if a file records another store for this namespace
	 * @throws UncheckedIOException if the marks file cannot be read or is corrupt
	 */
	void bindStore(Supplier<String> store) {
		if (this.marks == null || this.cache == null) {
			return;
		}
		String identity = store.get();
		this.marks.bindStore(this.namespace, identity);
		this.cache.bindStore(this.namespace, identity);
	}

	/**
	 * Returns the worker ID held before, if it fits the layout.
	 * @param prefix log prefix
	 * @return the worker ID, or -1 for none
	 */
	int preferredWorkerId(String prefix, int maxWorkerId) {
		if (this.cache == null) {
			return -1;
		}
		OptionalInt cached = this.cache.read(this.namespace);
		if (cached.isEmpty()) {
			return -1;
		}
		if (cached.getAsInt() > maxWorkerId) {
			logger.info("{}ignoring cached worker ID {}: the layout allows up to {}", prefix, cached.getAsInt(),
					maxWorkerId);
			return -1;
		}
		return cached.getAsInt();
	}

	void rememberWorkerId(String prefix, int workerId) {
		if (this.cache != null) {
			try {
				this.cache.write(this.namespace, workerId);
			}
			catch (UncheckedIOException ex) {
				logger.warn("{}{}; a restart may borrow another worker ID", prefix, ex.getMessage());
			}
		}
	}

	/**
	 * Returns the mark this node knows for a slot.
	 * @return milliseconds since the Unix epoch, or -1 if none is known
	 * @throws UncheckedIOException if the marks file cannot be read or is corrupt
	 */
	long knownMark(int workerId) {
		return (this.marks != null) ? this.marks.known(this.namespace, workerId) : -1;
	}

	/**
	 * Records a granted ceiling; called before the generator may issue under it.
	 * @throws UncheckedIOException if the marks file's lock was not obtained in time: the ceiling must not be granted
	 */
	void recordGranted(String prefix, int workerId, long ceiling) {
		if (this.marks != null) {
			try {
				this.marks.raise(this.namespace, workerId, ceiling);
				this.markWriteWarned = false;
			}
			catch (UncheckedIOException ex) {
				if (ex.getCause() instanceof LocalFileLockTimeoutException) {
					throw new UncheckedIOException(prefix + "ceiling " + Instant.ofEpochMilli(ceiling)
							+ " not recorded, so no ID is issued under it (retried at the next heartbeat): "
							+ ex.getCause().getMessage(), ex.getCause());
				}
				if (!this.markWriteWarned) {
					this.markWriteWarned = true;
					logger.warn("{}{}; issuing goes on, but a restart cannot tell whether the store lost this mark",
							prefix, ex.getMessage());
				}
			}
		}
	}

	/**
	 * Lowers a slot's mark to what a release reports, before the release: the store may apply it even if its answer
	 * is lost.
	 * @return {@code false} if the file could not be written: it may still hold a higher mark, which the release
	 * must then report instead, or this node's next borrow of the slot would take the store for one that lost writes
	 */
	boolean recordReleased(String prefix, int workerId, long mark) {
		if (this.marks != null && mark >= 0) {
			try {
				this.marks.lowerTo(this.namespace, workerId, mark);
			}
			catch (UncheckedIOException ex) {
				logger.warn("{}{}; the worker ID is given back with the highest ceiling it was granted as its mark",
						prefix, ex.getMessage());
				return false;
			}
		}
		return true;
	}

	/**
	 * Names where the marks are kept, for messages.
	 */
	String marksLocation() {
		return (this.marks != null) ? this.marks.file().toString() : "memory";
	}

	/**
	 * Returns the refusal of a store's answer below the mark this node knows for the slot: the store lost writes.
	 * @param prefix log prefix naming the namespace and slot
	 * @param lease the store's answer
	 * @param known the mark this node knows
	 * @param answered the store's floor or ceiling
	 * @param what "floor" or "ceiling"
	 */
	StoreRegressionException regression(String prefix, WorkerLease lease, long known, long answered, String what) {
		String subject = "worker slot " + lease.workerId() + " of namespace '" + lease.namespace() + "'";
		return new StoreRegressionException(subject, known, answered, prefix + "the lease store answered a timestamp "
				+ what + " of " + answered + " for " + subject + ", below " + known + " (" + Instant.ofEpochMilli(known)
				+ "), the mark it granted this node before (kept in " + marksLocation() + "): the store has lost writes "
				+ "(a restart without persistence, a failover to a replica that missed them, a restore from an old "
				+ "backup); no ID is issued from that answer; the keeper reports the known mark back to the store "
				+ "(giving the slot back with it, or asking for it at the next renewal); make the store durable (see "
				+ "docs/redis.md), and check the other nodes, which may not know their own marks");
	}

}
