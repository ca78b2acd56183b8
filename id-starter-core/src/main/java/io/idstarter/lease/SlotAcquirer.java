package io.idstarter.lease;

import java.time.Instant;
import java.util.Set;
import java.util.TreeSet;

import io.idstarter.IdGenerationException;
import io.idstarter.StoreRegressionException;
import io.idstarter.snowflake.SnowflakeIdGenerator;
import io.idstarter.time.TimeSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Takes a slot for the lease keeper: borrows one, checks the store's answer, waits for this node's clock to pass the
 * slot's floor, and gives back what it cannot use. Keeps no state between calls; the keeper's lock is held around
 * each one, so the generator's last timestamp and the clock guard are read by one thread at a time.
 */
final class SlotAcquirer {

	/*
	 * A slot is granted only if the borrow's answer passes three checks, else it is given back:
	 *   - the clock offset to the store is within maxClockSkew (ClockOffsetGuard);
	 *   - its floor is not below this node's own record of the slot's mark (WorkerSlotMarks, on disk beside the cache
	 *     file): a store that answers lower lost writes; the slot is given back reporting the known mark, and the
	 *     borrow fails with StoreRegressionException;
	 *   - its floor is within what is left of maxStartupWait (the layout record's floor, waited for first, draws on the
	 *     same budget) of this node's clock; otherwise the slot is excluded and another borrowed.
	 * Before the first borrow the namespace's layout record is checked (LayoutRegistration), and after the last one
	 * again, so that a slot borrowed while a layout change was under way is given back unused.
	 * Every borrow also excludes the settings' excludedWorkerIds (worker IDs an old fleet still uses), the preferred
	 * slot included: a cache file that remembers one of them is not followed.
	 * A slot given back unused is released reporting its floor, so the store's mark is what the borrow found: a
	 * refused start leaves no trace of this node's clock. A slot whose floor is ahead of the clock, but within reach,
	 * is waited for and then renewed, so that the grant's validity counts from a call made after the wait.
	 */

	private static final Logger logger = LoggerFactory.getLogger(WorkerLeaseKeeper.class);

	private final InstrumentedLeaseStore store;

	private final SnowflakeIdGenerator generator;

	private final LeaseSettings settings;

	private final TimeSource time;

	private final ClockOffsetGuard clock;

	private final NodeLocalLeaseState local;

	private final LayoutRegistration layout;

	SlotAcquirer(InstrumentedLeaseStore store, SnowflakeIdGenerator generator, LeaseSettings settings, TimeSource time,
			ClockOffsetGuard clock, NodeLocalLeaseState local, LayoutRegistration layout) {
		this.store = store;
		this.generator = generator;
		this.settings = settings;
		this.time = time;
		this.clock = clock;
		this.local = local;
		this.layout = layout;
	}

	/**
	 * Borrows a slot, waits for the clock to pass its floor if needed, and returns it ready to grant. A slot whose
	 * floor this node's clock cannot pass within maxStartupWait is given back as it was found and another one is
	 * borrowed instead.
	 * @param preferredWorkerId the slot to ask for first, or -1
	 * @param lastWorkerId the slot the keeper held last, or -1, for messages
	 * @throws StoreRegressionException if the store answered a floor below this node's mark (the slot is given back)
	 */
	Acquired acquire(int preferredWorkerId, int lastWorkerId) {
		// the layout's floor and the slot's share one budget: together they wait at most maxStartupWait
		StartupWait wait = new StartupWait(this.time, this.settings.maxStartupWait());
		this.layout.register(wait);
		Acquired acquired = borrowUsable(preferredWorkerId, lastWorkerId, wait);
		try {
			this.layout.confirm(acquired.lease().workerId());
		}
		catch (RuntimeException ex) {
			giveBackUnused(acquired.lease());
			throw ex;
		}
		return acquired;
	}

	private Acquired borrowUsable(int preferredWorkerId, int lastWorkerId, StartupWait wait) {
		int maxWorkerId = this.generator.layout().maxWorkerId();
		Set<Integer> configured = this.settings.excludedWorkerIds();
		if (configured.contains(preferredWorkerId)) {
			logger.info("{}not asking for worker ID {} first, as remembered: it is one of the excluded worker IDs {}",
					this.settings.logPrefix(lastWorkerId), preferredWorkerId, WorkerIdRanges.format(configured));
		}
		Set<Integer> unreachable = new TreeSet<>();
		long nearestUnreachable = Long.MAX_VALUE;
		for (;;) {
			long wallBefore = this.time.currentTimeMillis();
			long nanosBefore = this.time.nanoTime();
			Set<Integer> excluded = new TreeSet<>(configured);
			excluded.addAll(unreachable);
			int preferred = (preferredWorkerId <= maxWorkerId && !excluded.contains(preferredWorkerId))
					? preferredWorkerId : -1;
			LeaseRequest request = new LeaseRequest(this.settings.namespace(), maxWorkerId, this.settings.ttl(),
					preferred, this.settings.instance(), ceiling(wallBefore), excluded, this.layout.ownText());
			WorkerLease borrowed;
			try {
				borrowed = this.store.borrow(request);
			}
			catch (NoFreeWorkerIdException ex) {
				if (unreachable.isEmpty()) {
					throw ex;
				}
				throw new IdGenerationException(this.settings.logPrefix(lastWorkerId) + "no worker ID can be used: "
						+ "the floors of free slots " + unreachable + " are further ahead of this node's clock than "
						+ "maxStartupWait (" + LeaseSettings.format(this.settings.maxStartupWait()) + "), the nearest by "
						+ nearestUnreachable + " ms, and the store has no other free slot (" + ex.getMessage()
						+ "); check clock synchronisation (NTP) on this node", ex);
			}
			checkAnswer(borrowed, wallBefore, nanosBefore);
			long ahead = borrowed.timestampFloor() - this.time.currentTimeMillis();
			if (ahead >= wait.remainingMillis()) {
				logger.warn("{}the slot's timestamp floor {} is {} ms ahead of this node's clock, beyond maxStartupWait"
						+ " ({}); giving it back unchanged and trying another slot; check clock synchronisation",
						prefix(borrowed), Instant.ofEpochMilli(borrowed.timestampFloor()), ahead,
						LeaseSettings.format(this.settings.maxStartupWait()));
				giveBackUnused(borrowed);
				unreachable.add(borrowed.workerId());
				nearestUnreachable = Math.min(nearestUnreachable, ahead);
				continue;
			}
			return awaitFloorIfAhead(borrowed, wallBefore, nanosBefore, wait);
		}
	}

	/**
	 * Checks the clock offset the answer shows and its floor against this node's mark, giving the slot back if
	 * either fails.
	 */
	private void checkAnswer(WorkerLease borrowed, long wallBefore, long nanosBefore) {
		measureClockOffset(borrowed, wallBefore, nanosBefore);
		ClockSkewException skew = this.clock.check(prefix(borrowed));
		if (skew != null) {
			giveBackUnused(borrowed);
			throw skew;
		}
		long known;
		try {
			known = this.local.knownMark(borrowed.workerId());
		}
		catch (RuntimeException ex) {
			giveBackUnused(borrowed);
			throw ex;
		}
		if (borrowed.timestampFloor() < known) {
			// the slot's mark is put back to what this node knows, so that nobody issues below it
			giveBack(borrowed, known);
			throw this.local.regression(prefix(borrowed), borrowed, known, borrowed.timestampFloor(), "floor");
		}
	}

	private Acquired awaitFloorIfAhead(WorkerLease borrowed, long wallBefore, long nanosBefore, StartupWait wait) {
		if (borrowed.timestampFloor() < this.time.currentTimeMillis()) {
			return new Acquired(borrowed, wallBefore, nanosBefore);
		}
		try {
			awaitFloor(borrowed, wait);
			long wallAfterWait = this.time.currentTimeMillis();
			long nanosAfterWait = this.time.nanoTime();
			WorkerLease renewed = this.store.renew(borrowed, ceiling(wallAfterWait));
			measureClockOffset(renewed, wallAfterWait, nanosAfterWait);
			return new Acquired(renewed, wallAfterWait, nanosAfterWait);
		}
		catch (RuntimeException ex) {
			giveBackUnused(borrowed);
			throw ex;
		}
	}

	private void awaitFloor(WorkerLease lease, StartupWait wait) {
		long floor = lease.timestampFloor();
		long now = this.time.currentTimeMillis();
		logger.warn("{}waiting up to {} ms for this node's clock {} to pass the slot's timestamp floor {}, {} ms ahead; "
				+ "check clock synchronisation", prefix(lease), wait.remainingMillis(), Instant.ofEpochMilli(now),
				Instant.ofEpochMilli(floor), floor - now);
		if (!wait.untilClockPast(floor, "the slot's timestamp floor")) {
			now = this.time.currentTimeMillis();
			throw new IdGenerationException(prefix(lease) + "the slot's timestamp floor " + Instant.ofEpochMilli(floor)
					+ " (the last timestamp its previous owner may have issued) is " + (floor - now)
					+ " ms ahead of this node's clock " + Instant.ofEpochMilli(now) + " after waiting maxStartupWait ("
					+ LeaseSettings.format(this.settings.maxStartupWait())
					+ "); check clock synchronisation (NTP) on this node and the previous owner's");
		}
	}

	/**
	 * Returns the ceiling to ask the store for: a ttl above this node's clock, or above the generator's last
	 * timestamp if that is ahead (it never goes back).
	 * @param now this node's clock
	 */
	long ceiling(long now) {
		return Math.max(now, this.generator.lastTimestamp()) + this.settings.ttl().toMillis();
	}

	/**
	 * Records the clock offset an answer shows, from a call sent at {@code wallBefore} / {@code nanosBefore}.
	 */
	void measureClockOffset(WorkerLease lease, long wallBefore, long nanosBefore) {
		this.clock.measure(prefix(lease), lease.storeTimeMillis(), wallBefore, nanosBefore, this.time.nanoTime());
	}

	/**
	 * Gives back a lease under which nothing was issued (the generator was never granted it), reporting its floor so
	 * the slot's mark is what the borrow found (0 for a slot never used): a refused start leaves no trace of this
	 * node's clock.
	 */
	void giveBackUnused(WorkerLease lease) {
		giveBack(lease, Math.max(lease.timestampFloor(), 0));
	}

	private void giveBack(WorkerLease lease, long mark) {
		try {
			this.store.release(lease, mark);
		}
		catch (RuntimeException ex) {
			logger.warn("{}could not give back worker ID ({}); it becomes free when its lease expires, with the "
					+ "ceiling this node asked for as its mark", prefix(lease), ex.getMessage());
		}
	}

	private String prefix(WorkerLease lease) {
		return this.settings.logPrefix(lease.workerId());
	}

	/**
	 * A slot borrowed and checked, ready to grant.
	 *
	 * @param lease the store's last answer for it
	 * @param wallBefore this node's clock read before the call that gave that answer
	 * @param nanosBefore this node's monotonic clock read before that call: the grant's validity counts from it
	 */
	record Acquired(WorkerLease lease, long wallBefore, long nanosBefore) {
	}

}
