package io.idstarter.lease;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import io.idstarter.IdWorkerListener;
import io.idstarter.StoreRegressionException;
import io.idstarter.lease.LeaseStatus.State;
import io.idstarter.snowflake.RecordedLayout;
import io.idstarter.snowflake.SnowflakeIdGenerator;
import io.idstarter.snowflake.WorkerGrant;
import io.idstarter.time.TimeSource;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The lease keeper's state machine: holds the lease, grants it to the generator, renews it every heartbeat, borrows
 * again when it is lost, and gives it back at close. Every transition runs under {@link #lock}, on the keeper's thread
 * or in its start and close.
 */
final class LeaseHeartbeat {

	/*
	 * The lease protocol (see docs/snowflake.md).
	 *
	 * Every store call asks for a timestamp ceiling, ceiling = max(clock, generator.lastTimestamp()) + ttl, which the
	 * store records as the slot's high-water mark before it answers. The generator is granted
	 * (workerId, floor, ceiling, validUntilNanos) where floor is the mark left by the slot's previous owners and
	 * validUntilNanos = nanoTime() read *before* the call + ttl - safetyMargin. Hence:
	 *   - IDs of this owner have floor < timestamp <= ceiling, and the next owner's floor is at least that ceiling:
	 *     owners of a slot never share a timestamp, whatever their clocks say;
	 *   - the store lets the lease expire ttl after it handled the call, which is after we read nanoTime(), so this
	 *     node stops issuing at least safetyMargin before anyone else can get the slot.
	 * A failed renewal keeps the current grant (it runs out by itself) and is retried after about heartbeat / 4
	 * (RetryBackoff: jittered, so a fleet does not retry in lockstep after an outage); a lease that expired in the
	 * store meanwhile is still renewed if nobody took the slot. A lost lease (LeaseLostException: the slot was released
	 * or another owner took it) revokes the grant at once; the keeper then borrows again (any slot, SlotAcquirer)
	 * until it holds one.
	 *
	 * Marks. Before the generator may issue under a ceiling, the ceiling is written to WorkerSlotMarks (forced to
	 * disk); close() lowers it to the timestamp it reports, before the release, as the store will. A renewal always asks
	 * for at least that mark and refuses an answer below it (STORE_REGRESSED).
	 *
	 * Closing. close() revokes the generator first (its revoke() fences calls in flight, see SnowflakeIdGenerator), then
	 * releases with generator.lastTimestamp(). It waits for a store call in progress only until its timeout; past it
	 * the generator is revoked without the lock, the slot is left to expire, and grant() re-checks `closed` after
	 * granting so that a late answer cannot revive it.
	 */

	private static final Logger logger = LoggerFactory.getLogger(WorkerLeaseKeeper.class);

	private final InstrumentedLeaseStore store;

	private final SlotAcquirer acquirer;

	/** The namespace's layout record: checked before and after every borrow and after every renewal. */
	private final LayoutRegistration layout;

	private final SnowflakeIdGenerator generator;

	private final LeaseSettings settings;

	private final TimeSource time;

	/** The worker ID and slot marks this node keeps on disk, beside the cache file. */
	private final NodeLocalLeaseState local;

	/** When to retry a failed store call: about a quarter heartbeat, with jitter. */
	private final RetryBackoff backoff;

	/** This node's clock against the store's: measured on every call, checked against maxClockSkew. */
	private final ClockOffsetGuard clock;

	/** Guards the lease, the grant and the status fields; held during store calls. */
	private final ReentrantLock lock = new ReentrantLock();

	/** Set once, by the keeper's close(); no transition but close's happens after it. */
	private final AtomicBoolean closed = new AtomicBoolean();

	/** What the keeper's status() reads; replaced whole under the lock, or once by a close that could not take it. */
	private volatile Snapshot snapshot;

	/** Why IDs of a worker ID held here may have been issued twice (a WorkerIdConflictException); set once, kept. */
	private volatile @Nullable String alarm;

	// While a lease is held, `lease` is the store's last answer for it, and the generator's grant (if any) carries that
	// answer's ceiling and `validUntilNanos`; `lease` is null exactly when no slot is held.

	@GuardedBy("lock")
	private @Nullable WorkerLease lease;

	@GuardedBy("lock")
	private State state = State.NOT_STARTED;

	/** The slot held, or last held; -1 before the first. */
	@GuardedBy("lock")
	private int workerId = -1;

	/** Monotonic time at which the current grant runs out: read before the call that got it, plus ttl - margin. */
	@GuardedBy("lock")
	private long validUntilNanos;

	@GuardedBy("lock")
	private @Nullable Instant leaseExpiry;

	@GuardedBy("lock")
	private @Nullable Instant issuingUntil;

	@GuardedBy("lock")
	private @Nullable Instant lastRenewal;

	@GuardedBy("lock")
	private int consecutiveFailures;

	/** The mark the store must hold for the slot held now: the greatest ceiling granted under it; -1 for none. */
	@GuardedBy("lock")
	private long slotMark = -1;

	/** Whether the end of issuing during the current run of failed renewals has been logged. */
	@GuardedBy("lock")
	private boolean refusalLogged;

	LeaseHeartbeat(ISequenceManager manager, SnowflakeIdGenerator generator, LeaseSettings settings, TimeSource time,
			IdWorkerListener listener) {
		this.generator = generator;
		this.settings = settings;
		this.time = time;
		this.store = new InstrumentedLeaseStore(manager, listener, time, settings.namespace());
		this.local = new NodeLocalLeaseState(settings.namespace(), settings.cacheFile());
		this.backoff = new RetryBackoff(settings.heartbeat());
		this.clock = new ClockOffsetGuard(settings.maxClockSkew());
		this.layout = new LayoutRegistration(this.store,
				new RecordedLayout(generator.layout(), settings.layoutPreset()), settings, time);
		this.acquirer = new SlotAcquirer(this.store, generator, settings, time, this.clock, this.local, this.layout);
		this.snapshot = snapshot();
	}

	/**
	 * Borrows the first lease and grants it; see {@link WorkerLeaseKeeper#start()}.
	 */
	void start() {
		this.lock.lock();
		try {
			if (this.closed.get()) {
				throw new IllegalStateException(prefix() + "keeper is closed; create a new one");
			}
			if (this.state != State.NOT_STARTED && this.state != State.STORE_REGRESSED) {
				throw new IllegalStateException(prefix() + "keeper is already started");
			}
			try {
				this.local.bindStore(this.store::identity);
				acquire(this.local.preferredWorkerId(prefix(), this.generator.layout().maxWorkerId()));
			}
			catch (RuntimeException ex) {
				this.consecutiveFailures++;
				publish();
				throw ex;
			}
			this.state = State.ACTIVE;
			this.consecutiveFailures = 0;
			publish();
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * Runs one heartbeat: renews the lease, or borrows one if none is held.
	 * @return the delay until the next heartbeat
	 */
	Duration beat() {
		this.lock.lock();
		try {
			if (this.closed.get() || this.state == State.NOT_STARTED) {
				return this.settings.heartbeat();
			}
			return (this.lease != null) ? renew(this.lease) : reacquire();
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * Marks the state machine closed: no heartbeat changes anything after this.
	 * @return {@code false} if it was closed already
	 */
	boolean markClosed() {
		return this.closed.compareAndSet(false, true);
	}

	boolean isClosed() {
		return this.closed.get();
	}

	/**
	 * Revokes the generator's grant and gives the worker ID back, reporting the last timestamp issued. Call after
	 * {@link #markClosed()}.
	 * @param timeoutNanos how long to wait for a store call in progress
	 * @return {@code false} if that call did not return in time: the grant was revoked without the lock, and the slot
	 * is left to expire
	 */
	boolean close(long timeoutNanos) {
		boolean locked = false;
		try {
			locked = this.lock.tryLock(timeoutNanos, TimeUnit.NANOSECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		if (!locked) {
			// A store call hangs with the lock held. Revoking needs no lock; whatever that call returns, grant()
			// sees `closed` and revokes again. The lease is left to expire: releasing needs the store.
			this.generator.revoke("closed");
			this.snapshot = new Snapshot(this.snapshot.status().withState(State.CLOSED), this.snapshot.validUntilNanos());
			return false;
		}
		try {
			this.generator.revoke("closed");
			WorkerLease current = this.lease;
			if (current != null) {
				release(current);
				this.lease = null;
			}
			this.state = State.CLOSED;
			publish();
			return true;
		}
		finally {
			this.lock.unlock();
		}
	}

	@GuardedBy("lock")
	private void release(WorkerLease current) {
		long lastTimestamp = this.generator.lastTimestamp();
		if (lastTimestamp >= 0
				&& !this.local.recordReleased(prefix(), current.workerId(), current.releaseMark(lastTimestamp))) {
			// The marks file still holds a granted ceiling: the store keeps it too.
			lastTimestamp = Math.max(lastTimestamp, this.slotMark);
		}
		try {
			this.store.release(current, lastTimestamp);
			logger.info("{}gave back worker ID ({})", prefix(), (this.generator.issuedCount() == 0) ? "no ID issued"
					: "last timestamp " + Instant.ofEpochMilli(lastTimestamp));
		}
		catch (RuntimeException ex) {
			logger.warn("{}could not give back worker ID ({}); the slot becomes free when its lease expires, "
					+ "within {}", prefix(), ex.getMessage(), LeaseSettings.format(this.settings.ttl()));
		}
	}

	Snapshot published() {
		return this.snapshot;
	}

	@Nullable String alarm() {
		return this.alarm;
	}

	@GuardedBy("lock")
	private Duration renew(WorkerLease current) {
		long wallBefore = this.time.currentTimeMillis();
		long nanosBefore = this.time.nanoTime();
		long ceiling = Math.max(this.acquirer.ceiling(wallBefore), this.slotMark);
		try {
			WorkerLease renewed = this.store.renew(current, ceiling);
			this.acquirer.measureClockOffset(renewed, wallBefore, nanosBefore);
			if (renewed.timestampCeiling() < this.slotMark) {
				return refuseRegressedStore(renewed, this.local.regression(prefix(renewed.workerId()), renewed,
						this.slotMark, renewed.timestampCeiling(), "ceiling"));
			}
			ClockSkewException skew = this.clock.check(prefix(renewed.workerId()));
			if (skew != null) {
				return refuseForClockSkew(renewed, skew);
			}
			if (this.state == State.CLOCK_SKEWED) {
				logger.info("{}clock back within maxClockSkew of the store's; issuing resumes", prefix());
			}
			try {
				this.layout.confirm(renewed.workerId());
			}
			catch (LayoutConflictException ex) {
				return layoutChanged(renewed, ex);
			}
			grant(renewed, wallBefore, nanosBefore);
			if (this.consecutiveFailures > 0) {
				logger.info("{}lease renewed after {} failed attempts", prefix(), this.consecutiveFailures);
			}
			return backToActive();
		}
		catch (LeaseLostException ex) {
			return lost(ex);
		}
		catch (RuntimeException ex) {
			this.generator.renewalFailed(ex);
			this.consecutiveFailures++;
			this.state = State.RENEWAL_FAILING;
			publish();
			logRenewalFailure(ex);
			return this.backoff.next();
		}
	}

	/**
	 * Stops issuing for good under a layout the namespace no longer records, and gives the slot back.
	 */
	@GuardedBy("lock")
	private Duration layoutChanged(WorkerLease renewed, LayoutConflictException ex) {
		this.generator.revoke(ex.getMessage());
		release(renewed);
		this.lease = null;
		this.consecutiveFailures++;
		this.state = State.LOST;
		publish();
		logger.error("{}IDs are refused from now on: {}", prefix(), ex.getMessage());
		return this.backoff.next();
	}

	@GuardedBy("lock")
	private Duration backToActive() {
		this.consecutiveFailures = 0;
		this.refusalLogged = false;
		this.state = State.ACTIVE;
		publish();
		return this.settings.heartbeat();
	}

	@GuardedBy("lock")
	private Duration lost(LeaseLostException ex) {
		this.generator.revoke("lease lost: " + ex.getMessage());
		this.lease = null;
		this.consecutiveFailures++;
		this.state = State.LOST;
		if (ex instanceof WorkerIdConflictException) {
			this.alarm = ex.getMessage();
		}
		publish();
		logger.error("{}lease lost{}, IDs are refused from now on; borrowing a worker ID again about every {}: {}",
				prefix(), (ex instanceof WorkerIdConflictException) ? " to a program outside the lease protocol "
						+ "(alarm: health stays DOWN until restart)" : "",
				LeaseSettings.format(this.backoff.base()), ex.getMessage());
		return this.backoff.next();
	}

	/**
	 * Warns on the first failure and then about once a heartbeat, and once when issuing stops.
	 */
	@GuardedBy("lock")
	private void logRenewalFailure(RuntimeException ex) {
		long leftMillis = TimeUnit.NANOSECONDS.toMillis(this.validUntilNanos - this.time.nanoTime());
		if (leftMillis <= 0 && !this.refusalLogged) {
			this.refusalLogged = true;
			logger.error("{}lease renewal failed ({} in a row) and the lease ran out {} ms ago: IDs are refused until "
					+ "a renewal succeeds (retrying about every {}): {}", prefix(), this.consecutiveFailures, -leftMillis,
					LeaseSettings.format(this.backoff.base()), ex.getMessage());
		}
		else if (leftMillis > 0
				&& (this.consecutiveFailures == 1 || this.consecutiveFailures % RetryBackoff.DIVISOR == 0)) {
			logger.warn("{}lease renewal failed ({} in a row), retrying about every {}; IDs are issued for another {} ms, "
					+ "then refused until a renewal succeeds: {}", prefix(), this.consecutiveFailures,
					LeaseSettings.format(this.backoff.base()), leftMillis, ex.getMessage());
		}
		else {
			logger.debug("{}lease renewal failed ({} in a row): {}", prefix(), this.consecutiveFailures,
					ex.getMessage());
		}
	}

	@GuardedBy("lock")
	private Duration reacquire() {
		try {
			acquire(this.workerId);
			backToActive();
			logger.info("{}lease held again; issuing resumes", prefix());
			return this.settings.heartbeat();
		}
		catch (RuntimeException ex) {
			this.consecutiveFailures++;
			publish();
			if (this.consecutiveFailures <= 2 || this.consecutiveFailures % RetryBackoff.DIVISOR == 0) {
				if (ex instanceof StoreRegressionException) {
					logger.error("{}no worker ID leased, IDs are refused; retrying about every {} ({}): {}", prefix(),
							LeaseSettings.format(this.backoff.base()), ex.getClass().getSimpleName(), ex.getMessage());
				}
				else {
					logger.warn("{}no worker ID leased, IDs are refused; retrying about every {}: {}", prefix(),
							LeaseSettings.format(this.backoff.base()), ex.getMessage());
				}
			}
			return this.backoff.next();
		}
	}

	/**
	 * Takes a slot (SlotAcquirer) and grants it.
	 */
	@GuardedBy("lock")
	private void acquire(int preferredWorkerId) {
		SlotAcquirer.Acquired acquired;
		try {
			acquired = this.acquirer.acquire(preferredWorkerId, this.workerId);
		}
		catch (StoreRegressionException ex) {
			this.state = State.STORE_REGRESSED;
			throw ex;
		}
		WorkerLease lease = acquired.lease();
		if (lease.workerId() != this.workerId) {
			this.slotMark = -1;
		}
		this.workerId = lease.workerId();
		try {
			grant(lease, acquired.wallBefore(), acquired.nanosBefore());
		}
		catch (RuntimeException ex) {
			if (this.lease != lease) {
				// Not granted (its ceiling could not be recorded): nothing was issued under it.
				this.acquirer.giveBackUnused(lease);
			}
			throw ex;
		}
		this.local.rememberWorkerId(prefix(), lease.workerId());
		Duration offset = this.clock.offset();
		logger.info("{}leased worker ID {} of {} as {} (floor {}, ceiling {}, clock offset to the store {} ms)",
				prefix(), lease.workerId(), this.generator.layout().maxWorkerId() + 1L, this.settings.instance(),
				(lease.timestampFloor() < 0) ? "none" : Instant.ofEpochMilli(lease.timestampFloor()),
				Instant.ofEpochMilli(lease.timestampCeiling()), (offset != null) ? offset.toMillis() : "?");
	}

	/**
	 * Records the lease and publishes the ACTIVE status before granting it, so that a caller who gets an ID under
	 * the new grant never reads an older status (such as LOST) afterwards. The ceiling is on disk before the
	 * generator may issue under it.
	 */
	@GuardedBy("lock")
	private void grant(WorkerLease lease, long wallBefore, long nanosBefore) {
		this.slotMark = Math.max(this.slotMark, lease.timestampCeiling());
		this.local.recordGranted(prefix(lease.workerId()), lease.workerId(), lease.timestampCeiling());
		long validNanos = this.settings.ttl().minus(this.settings.safetyMargin()).toNanos();
		long validUntil = nanosBefore + validNanos;
		this.lease = lease;
		this.validUntilNanos = validUntil;
		this.issuingUntil = Instant.ofEpochMilli(wallBefore + TimeUnit.NANOSECONDS.toMillis(validNanos));
		Duration measured = this.clock.offset();
		long offset = (measured != null) ? measured.toMillis() : 0;
		this.leaseExpiry = Instant.ofEpochMilli(lease.storeTimeMillis() + this.settings.ttl().toMillis() - offset);
		this.lastRenewal = Instant.ofEpochMilli(this.time.currentTimeMillis());
		this.state = State.ACTIVE;
		publish();
		long floor = Math.max(lease.timestampFloor(), this.layout.floorMillis());
		this.generator.grant(new WorkerGrant(lease.workerId(), floor, lease.timestampCeiling(),
				validUntil));
		if (this.closed.get()) {
			// close() gave up waiting for this call and revoked without the lock; it stays revoked
			this.generator.revoke("closed");
		}
	}

	/**
	 * Keeps the lease but stops issuing: the store's answer is below what it granted before. The next renewal asks
	 * for the known mark again, which puts the store's mark back; issuing resumes once an answer is consistent.
	 */
	@GuardedBy("lock")
	private Duration refuseRegressedStore(WorkerLease renewed, StoreRegressionException regression) {
		this.lease = renewed;
		this.generator.revoke(regression.getMessage());
		this.consecutiveFailures++;
		this.state = State.STORE_REGRESSED;
		publish();
		logger.error("{}IDs are refused ({}): {}", prefix(), regression.getClass().getSimpleName(),
				regression.getMessage());
		return this.backoff.next();
	}

	/**
	 * Keeps the renewed lease but stops issuing until a renewal finds the clock back within bounds.
	 */
	@GuardedBy("lock")
	private Duration refuseForClockSkew(WorkerLease renewed, ClockSkewException skew) {
		this.lease = renewed;
		this.generator.revoke(skew.getMessage());
		this.consecutiveFailures = 0;
		if (this.state != State.CLOCK_SKEWED) {
			logger.error("{}IDs are refused until the clock is back within bounds: {}", prefix(), skew.getMessage());
		}
		this.state = State.CLOCK_SKEWED;
		publish();
		return this.settings.heartbeat();
	}

	@GuardedBy("lock")
	private void publish() {
		this.snapshot = snapshot();
	}

	@GuardedBy("lock")
	private Snapshot snapshot() {
		boolean held = this.lease != null;
		// once closed, a store call that returns late (close() did not wait for it) changes nothing visible
		State state = this.closed.get() ? State.CLOSED : this.state;
		LeaseStatus status = new LeaseStatus(state, this.settings.namespace(), this.workerId,
				held ? this.leaseExpiry : null, held ? this.issuingUntil : null, this.lastRenewal,
				this.consecutiveFailures, this.clock.offset());
		return new Snapshot(status, this.validUntilNanos);
	}

	@GuardedBy("lock")
	private String prefix() {
		return prefix(this.workerId);
	}

	private String prefix(int workerId) {
		return this.settings.logPrefix(workerId);
	}

	/**
	 * What the keeper's status() reads: the published status and the grant's deadline.
	 */
	record Snapshot(LeaseStatus status, long validUntilNanos) {
	}

}
