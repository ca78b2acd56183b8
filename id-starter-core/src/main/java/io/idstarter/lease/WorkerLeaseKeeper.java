package io.idstarter.lease;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

import io.idstarter.IdGenerationException;
import io.idstarter.IdWorkerListener;
import io.idstarter.StoreRegressionException;
import io.idstarter.lease.LeaseStatus.State;
import io.idstarter.snowflake.SnowflakeIdGenerator;
import io.idstarter.snowflake.WorkerGrant;
import io.idstarter.time.TimeSource;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Holds a worker ID for a {@link SnowflakeIdGenerator}: borrows it from an {@link ISequenceManager} at
 * {@link #start()}, renews it every heartbeat on its own daemon thread, and gives it back at {@link #close()}. The
 * generator issues IDs only while the lease is held; call {@code close()} at shutdown to free the slot at once
 * (otherwise it becomes free when the lease expires). One keeper per generator.
 */
public final class WorkerLeaseKeeper implements AutoCloseable {

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
	 * or another owner took it) revokes the grant at once; the keeper then borrows again (any slot) until it holds one.
	 *
	 * Borrowing. A slot is granted only if the borrow's answer passes three checks, else it is given back:
	 *   - the clock offset to the store is within maxClockSkew (ClockOffsetGuard);
	 *   - its floor is not below this node's own record of the slot's mark (WorkerSlotMarks, on disk beside the cache
	 *     file): a store that answers lower lost writes; the slot is given back reporting the known mark, and the
	 *     borrow fails with StoreRegressionException;
	 *   - its floor is within maxStartupWait of this node's clock; otherwise the slot is excluded and another borrowed.
	 * A slot given back unused is released reporting its floor, so the store's mark is what the borrow found: a
	 * refused start leaves no trace of this node's clock.
	 *
	 * Marks. Before the generator may issue under a ceiling, the ceiling is written to WorkerSlotMarks (forced to
	 * disk); close() lowers it to the timestamp it reports, before the release, as the store will. A renewal always asks
	 * for at least that mark and refuses an answer below it (STORE_REGRESSED).
	 *
	 * Closing. close() revokes the generator first (its revoke() fences calls in flight, see SnowflakeIdGenerator), then
	 * releases with generator.lastTimestamp(). It waits for a store call in progress only until its timeout; past it
	 * the generator is revoked without the lock, the slot is left to expire, and grant() re-checks `closed` after
	 * granting so that a late answer cannot revive it.
	 *
	 * All store calls and grant changes happen under `lock`, on the keeper's thread or in start()/close(); the only
	 * exception is close()'s revoke after its timeout, which needs no lock.
	 */

	private static final Logger logger = LoggerFactory.getLogger(WorkerLeaseKeeper.class);

	/** Longest sleep between two looks at the clock while waiting for it to pass a slot's floor. */
	private static final long FLOOR_POLL_MILLIS = 50;

	/** How long close() waits for the heartbeat to stop and for a store call in progress to return. */
	private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(10);

	private final ISequenceManager manager;

	private final SnowflakeIdGenerator generator;

	private final LeaseSettings settings;

	private final TimeSource time;

	private final IdWorkerListener listener;

	/** The worker ID and slot marks this node keeps on disk, beside the cache file. */
	private final NodeLocalLeaseState local;

	/** When to retry a failed store call: about a quarter heartbeat, with jitter. */
	private final RetryBackoff backoff;

	/** This node's clock against the store's: measured on every call, checked against maxClockSkew. */
	private final ClockOffsetGuard clock;

	/** Guards the lease, the grant and the status fields; held during store calls. */
	private final ReentrantLock lock = new ReentrantLock();

	/** How long close() waits for the heartbeat and for a store call in progress. */
	private volatile Duration closeTimeout = CLOSE_TIMEOUT;

	/** Set once by close(); the heartbeat stops when it sees it. */
	private final AtomicBoolean closed = new AtomicBoolean();

	/** Runs the heartbeat; set once by start(). */
	private volatile @Nullable ScheduledExecutorService scheduler;

	/** What status() returns; replaced whole under the lock. */
	private volatile Snapshot snapshot;

	// Guarded by lock. While a lease is held, `lease` is the store's last answer for it, and the generator's grant
	// (if any) carries that answer's ceiling and `validUntilNanos`; `lease` is null exactly when no slot is held.

	private @Nullable WorkerLease lease;

	private State state = State.NOT_STARTED;

	/** The slot held, or last held; -1 before the first. */
	private int workerId = -1;

	/** Monotonic time at which the current grant runs out: read before the call that got it, plus ttl - margin. */
	private long validUntilNanos;

	private @Nullable Instant leaseExpiry;

	private @Nullable Instant issuingUntil;

	private @Nullable Instant lastRenewal;

	private int consecutiveFailures;

	/** The mark the store must hold for the slot held now: the greatest ceiling granted under it; -1 for none. */
	private long slotMark = -1;

	private boolean refusalLogged;

	/** Why IDs of a worker ID held here may have been issued twice (a WorkerIdConflictException); set once, kept. */
	private volatile @Nullable String alarm;

	/**
	 * Creates a keeper; nothing is borrowed until {@link #start()}.
	 * @param manager the lease store
	 * @param generator the generator to grant worker IDs to
	 * @param settings how to hold the lease
	 * @param time this node's clock (the generator's)
	 * @param listener receives store-call events
	 */
	public WorkerLeaseKeeper(ISequenceManager manager, SnowflakeIdGenerator generator, LeaseSettings settings,
			TimeSource time, IdWorkerListener listener) {
		this.manager = Objects.requireNonNull(manager, "manager");
		this.generator = Objects.requireNonNull(generator, "generator");
		this.settings = Objects.requireNonNull(settings, "settings");
		this.time = Objects.requireNonNull(time, "time");
		this.listener = Objects.requireNonNull(listener, "listener");
		this.local = new NodeLocalLeaseState(settings.namespace(), settings.cacheFile());
		this.backoff = new RetryBackoff(settings.heartbeat());
		this.clock = new ClockOffsetGuard(settings.maxClockSkew());
		this.snapshot = snapshot();
	}

	/**
	 * Borrows a worker ID (the one in the cache file if it is free), waits if needed for this node's clock to pass
	 * the slot's timestamp floor, grants it to the generator, and starts renewing it.
	 * @throws NoFreeWorkerIdException if every slot of the namespace is held
	 * @throws LeaseStoreException if the store cannot be reached
	 * @throws ClockSkewException if this node's clock is further from the store's than
	 * {@link LeaseSettings#maxClockSkew()} (the slot is given back)
	 * @throws IdGenerationException if this node's clock stays behind the slot's floor for longer than
	 * {@link LeaseSettings#maxStartupWait()}
	 * @throws LeaseFileOfAnotherStoreException if the cache file or the slot marks file records another store for
	 * this namespace (nothing is borrowed)
	 * @throws IllegalStateException if already started or closed
	 */
	public void start() {
		startLease(/* heartbeatThread= */ true);
	}

	/**
	 * Starts the lease; without the heartbeat thread, tests step the protocol with {@link #heartbeat()}.
	 */
	void startLease(boolean heartbeatThread) {
		this.lock.lock();
		try {
			if (this.closed.get()) {
				throw new IllegalStateException(prefix() + "keeper is closed; create a new one");
			}
			if (this.state != State.NOT_STARTED && this.state != State.STORE_REGRESSED) {
				throw new IllegalStateException(prefix() + "keeper is already started");
			}
			try {
				this.local.bindStore(this.manager::identity);
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
			if (heartbeatThread) {
				this.scheduler = Executors.newSingleThreadScheduledExecutor((task) -> {
					Thread thread = new Thread(task, "id-worker-lease-" + this.settings.namespace());
					thread.setDaemon(true);
					return thread;
				});
				schedule(this.settings.heartbeat());
			}
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * Stops renewing, revokes the generator's grant and gives the worker ID back, reporting the last timestamp
	 * issued so the next owner may start right above it. Returns within the close timeout (10 s) even if a store
	 * call hangs: the grant is then revoked without the lock, and the slot becomes free when its lease expires.
	 * Idempotent.
	 */
	@Override
	public void close() {
		if (!this.closed.compareAndSet(false, true)) {
			return;
		}
		long deadline = System.nanoTime() + this.closeTimeout.toNanos();
		ScheduledExecutorService scheduler = this.scheduler;
		boolean locked = false;
		try {
			if (scheduler != null) {
				scheduler.shutdownNow();
				if (!scheduler.awaitTermination(remaining(deadline), TimeUnit.NANOSECONDS)) {
					logger.warn("{}lease heartbeat did not stop within {}", prefix(),
							LeaseSettings.format(this.closeTimeout));
				}
			}
			locked = this.lock.tryLock(remaining(deadline), TimeUnit.NANOSECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		if (!locked) {
			// A store call hangs with the lock held. Revoking needs no lock; whatever that call returns, grant()
			// sees `closed` and revokes again. The lease is left to expire: releasing needs the store.
			this.generator.revoke("closed");
			logger.warn("{}a lease store call has not returned within the close timeout ({}); IDs are refused from "
					+ "now on, but the worker ID is not given back: the slot becomes free when its lease expires, "
					+ "within {}", prefix(), LeaseSettings.format(this.closeTimeout),
					LeaseSettings.format(this.settings.ttl()));
			this.snapshot = new Snapshot(this.snapshot.status.withState(State.CLOSED), this.snapshot.validUntilNanos);
			return;
		}
		try {
			this.generator.revoke("closed");
			WorkerLease current = this.lease;
			if (current != null) {
				long lastTimestamp = this.generator.lastTimestamp();
				if (lastTimestamp >= 0) {
					this.local.recordReleased(prefix(), current.workerId(),
							Math.max(lastTimestamp, current.timestampFloor()));
				}
				try {
					call("release", () -> {
						this.manager.release(current, lastTimestamp);
						return current;
					});
					logger.info("{}gave back worker ID ({})", prefix(), (this.generator.issuedCount() == 0)
							? "no ID issued" : "last timestamp " + Instant.ofEpochMilli(lastTimestamp));
				}
				catch (RuntimeException ex) {
					logger.warn("{}could not give back worker ID ({}); the slot becomes free when its lease expires, "
							+ "within {}", prefix(), ex.getMessage(), LeaseSettings.format(this.settings.ttl()));
				}
				this.lease = null;
			}
			this.state = State.CLOSED;
			publish();
		}
		finally {
			this.lock.unlock();
		}
	}

	private static long remaining(long deadline) {
		return Math.max(0, deadline - System.nanoTime());
	}

	/**
	 * Sets how long {@link #close()} waits for the heartbeat and a store call in progress; for tests.
	 */
	void closeTimeout(Duration timeout) {
		this.closeTimeout = Objects.requireNonNull(timeout, "timeout");
	}

	/**
	 * Returns what the keeper is doing now.
	 * @return a snapshot; {@link State#LOST} once the grant has run out, even before the next heartbeat notices
	 */
	public LeaseStatus status() {
		Snapshot snapshot = this.snapshot;
		State state = snapshot.status.state();
		if ((state == State.ACTIVE || state == State.RENEWAL_FAILING)
				&& this.time.nanoTime() - snapshot.validUntilNanos >= 0) {
			return snapshot.status.withState(State.LOST);
		}
		return snapshot.status;
	}

	/**
	 * Returns why IDs of a worker ID this keeper held may have been issued twice: another program claimed it outside
	 * the lease protocol ({@link WorkerIdConflictException}). Kept until the keeper is recreated.
	 * @return the alarm, or {@code null} for none
	 */
	public @Nullable String alarm() {
		return this.alarm;
	}

	public LeaseSettings settings() {
		return this.settings;
	}

	/**
	 * Runs one heartbeat now: renews the lease, or borrows one if none is held. The keeper's thread calls this every
	 * heartbeat; tests call it to step the protocol.
	 * @return the delay until the next heartbeat
	 */
	Duration heartbeat() {
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

	private void runHeartbeat() {
		if (this.closed.get()) {
			return;
		}
		Duration next;
		try {
			next = heartbeat();
		}
		catch (RuntimeException ex) {
			logger.error("{}unexpected failure in the lease heartbeat; retrying in {}", prefix(),
					LeaseSettings.format(this.backoff.base()), ex);
			next = this.backoff.next();
		}
		schedule(next);
	}

	private void schedule(Duration delay) {
		ScheduledExecutorService scheduler = this.scheduler;
		if (scheduler != null && !this.closed.get()) {
			try {
				scheduler.schedule(this::runHeartbeat, delay.toNanos(), TimeUnit.NANOSECONDS);
			}
			catch (RejectedExecutionException ex) {
				// closing
			}
		}
	}

	private Duration renew(WorkerLease current) {
		long wallBefore = this.time.currentTimeMillis();
		long nanosBefore = this.time.nanoTime();
		long ceiling = Math.max(ceiling(wallBefore), this.slotMark);
		try {
			WorkerLease renewed = call("renew", () -> this.manager.renew(current, ceiling));
			measureClockOffset(renewed, wallBefore, nanosBefore);
			if (renewed.timestampCeiling() < this.slotMark) {
				return refuseRegressedStore(renewed,
						regression(renewed, this.slotMark, renewed.timestampCeiling(), "ceiling"));
			}
			ClockSkewException skew = this.clock.check(prefixFor(renewed.workerId()));
			if (skew != null) {
				return refuseForClockSkew(renewed, skew);
			}
			if (this.state == State.CLOCK_SKEWED) {
				logger.info("{}clock back within maxClockSkew of the store's; issuing resumes", prefix());
			}
			grant(renewed, wallBefore, nanosBefore);
			if (this.consecutiveFailures > 0) {
				logger.info("{}lease renewed after {} failed attempts", prefix(), this.consecutiveFailures);
			}
			this.consecutiveFailures = 0;
			this.refusalLogged = false;
			this.state = State.ACTIVE;
			publish();
			return this.settings.heartbeat();
		}
		catch (LeaseLostException ex) {
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
	 * Warns on the first failure and then about once a heartbeat, and once when issuing stops.
	 */
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

	private Duration reacquire() {
		try {
			acquire(this.workerId);
			this.consecutiveFailures = 0;
			this.refusalLogged = false;
			this.state = State.ACTIVE;
			publish();
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
	 * Borrows a slot, waits for the clock to pass its floor if needed, and grants it. A slot whose floor this node's
	 * clock cannot pass within maxStartupWait is given back as it was found and another one is borrowed instead.
	 */
	private void acquire(int preferredWorkerId) {
		int maxWorkerId = this.generator.layout().maxWorkerId();
		Set<Integer> unreachable = new TreeSet<>();
		long nearestUnreachable = Long.MAX_VALUE;
		for (;;) {
			long wallBefore = this.time.currentTimeMillis();
			long nanosBefore = this.time.nanoTime();
			int preferred = (preferredWorkerId <= maxWorkerId && !unreachable.contains(preferredWorkerId))
					? preferredWorkerId : -1;
			LeaseRequest request = new LeaseRequest(this.settings.namespace(), maxWorkerId, this.settings.ttl(),
					preferred, this.settings.instance(), ceiling(wallBefore), unreachable);
			WorkerLease borrowed;
			try {
				borrowed = call("borrow", () -> this.manager.borrow(request));
			}
			catch (NoFreeWorkerIdException ex) {
				if (unreachable.isEmpty()) {
					throw ex;
				}
				throw new IdGenerationException(prefix() + "no worker ID can be used: the floors of free slots "
						+ unreachable + " are further ahead of this node's clock than maxStartupWait ("
						+ LeaseSettings.format(this.settings.maxStartupWait()) + "), the nearest by "
						+ nearestUnreachable + " ms, and the store has no other free slot (" + ex.getMessage()
						+ "); check clock synchronisation (NTP) on this node", ex);
			}
			measureClockOffset(borrowed, wallBefore, nanosBefore);
			ClockSkewException skew = this.clock.check(prefixFor(borrowed.workerId()));
			if (skew != null) {
				giveBackUnused(borrowed);
				throw skew;
			}
			long known;
			try {
				known = knownMark(borrowed.workerId());
			}
			catch (RuntimeException ex) {
				giveBackUnused(borrowed);
				throw ex;
			}
			if (borrowed.timestampFloor() < known) {
				// the slot's mark is put back to what this node knows, so that nobody issues below it
				giveBack(borrowed, known);
				this.state = State.STORE_REGRESSED;
				throw regression(borrowed, known, borrowed.timestampFloor(), "floor");
			}
			long ahead = borrowed.timestampFloor() - this.time.currentTimeMillis();
			if (ahead >= this.settings.maxStartupWait().toMillis()) {
				logger.warn("{}the slot's timestamp floor {} is {} ms ahead of this node's clock, beyond maxStartupWait"
						+ " ({}); giving it back unchanged and trying another slot; check clock synchronisation",
						prefixFor(borrowed.workerId()), Instant.ofEpochMilli(borrowed.timestampFloor()), ahead,
						LeaseSettings.format(this.settings.maxStartupWait()));
				giveBackUnused(borrowed);
				unreachable.add(borrowed.workerId());
				nearestUnreachable = Math.min(nearestUnreachable, ahead);
				continue;
			}
			grantBorrowed(borrowed, wallBefore, nanosBefore);
			return;
		}
	}

	private void grantBorrowed(WorkerLease borrowed, long wallBefore, long nanosBefore) {
		int maxWorkerId = this.generator.layout().maxWorkerId();
		WorkerLease lease = borrowed;
		try {
			if (borrowed.timestampFloor() >= this.time.currentTimeMillis()) {
				awaitFloor(borrowed);
				wallBefore = this.time.currentTimeMillis();
				nanosBefore = this.time.nanoTime();
				long ceiling = ceiling(wallBefore);
				lease = call("renew", () -> this.manager.renew(borrowed, ceiling));
				measureClockOffset(lease, wallBefore, nanosBefore);
			}
		}
		catch (RuntimeException ex) {
			giveBackUnused(borrowed);
			throw ex;
		}
		if (lease.workerId() != this.workerId) {
			this.slotMark = -1;
		}
		this.workerId = lease.workerId();
		grant(lease, wallBefore, nanosBefore);
		this.local.rememberWorkerId(prefix(), lease.workerId());
		logger.info("{}leased worker ID {} of {} as {} (floor {}, ceiling {}, clock offset to the store {} ms)",
				prefix(), lease.workerId(), maxWorkerId + 1L, this.settings.instance(),
				(lease.timestampFloor() < 0) ? "none" : Instant.ofEpochMilli(lease.timestampFloor()),
				Instant.ofEpochMilli(lease.timestampCeiling()),
				(this.clock.offset() != null) ? this.clock.offset().toMillis() : "?");
	}

	private void awaitFloor(WorkerLease lease) {
		long floor = lease.timestampFloor();
		long start = this.time.nanoTime();
		long maxWait = this.settings.maxStartupWait().toNanos();
		boolean warned = false;
		for (;;) {
			long now = this.time.currentTimeMillis();
			if (now > floor) {
				return;
			}
			if (this.time.nanoTime() - start >= maxWait) {
				throw new IdGenerationException(prefixFor(lease.workerId()) + "the slot's timestamp floor "
						+ Instant.ofEpochMilli(floor) + " (the last timestamp its previous owner may have issued) is "
						+ (floor - now) + " ms ahead of this node's clock " + Instant.ofEpochMilli(now)
						+ " after waiting maxStartupWait (" + LeaseSettings.format(this.settings.maxStartupWait())
						+ "); check clock synchronisation (NTP) on this node and the previous owner's");
			}
			if (!warned) {
				logger.warn("{}waiting up to {} for this node's clock {} to pass the slot's timestamp floor {}, {} ms"
						+ " ahead; check clock synchronisation", prefixFor(lease.workerId()),
						LeaseSettings.format(this.settings.maxStartupWait()), Instant.ofEpochMilli(now),
						Instant.ofEpochMilli(floor), floor - now);
				warned = true;
			}
			try {
				Thread.sleep(Math.min(floor - now + 1, FLOOR_POLL_MILLIS));
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IdGenerationException(prefixFor(lease.workerId())
						+ "interrupted while waiting for the clock to pass the slot's timestamp floor", ex);
			}
		}
	}

	/**
	 * Records the lease and publishes the ACTIVE status before granting it, so that a caller who gets an ID under
	 * the new grant never reads an older status (such as LOST) afterwards.
	 */
	private void grant(WorkerLease lease, long wallBefore, long nanosBefore) {
		recordMark(lease.workerId(), lease.timestampCeiling());
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
		this.generator.grant(new WorkerGrant(lease.workerId(), lease.timestampFloor(), lease.timestampCeiling(),
				validUntil));
		if (this.closed.get()) {
			// close() gave up waiting for this call and revoked without the lock; it stays revoked
			this.generator.revoke("closed");
		}
	}

	/**
	 * Records the ceiling on disk before the generator may issue under it.
	 */
	private void recordMark(int workerId, long ceiling) {
		this.slotMark = Math.max(this.slotMark, ceiling);
		this.local.recordGranted(prefixFor(workerId), workerId, ceiling);
	}

	private long ceiling(long now) {
		return Math.max(now, this.generator.lastTimestamp()) + this.settings.ttl().toMillis();
	}

	private void measureClockOffset(WorkerLease lease, long wallBefore, long nanosBefore) {
		this.clock.measure(prefixFor(lease.workerId()), lease.storeTimeMillis(), wallBefore, nanosBefore,
				this.time.nanoTime());
	}

	/**
	 * Keeps the lease but stops issuing: the store's answer is below what it granted before. The next renewal asks
	 * for the known mark again, which puts the store's mark back; issuing resumes once an answer is consistent.
	 */
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

	private long knownMark(int workerId) {
		return this.local.knownMark(workerId);
	}

	private StoreRegressionException regression(WorkerLease lease, long known, long answered, String what) {
		String subject = "worker slot " + lease.workerId() + " of namespace '" + lease.namespace() + "'";
		return new StoreRegressionException(subject, known, answered, prefixFor(lease.workerId()) + "the lease store "
				+ "answered a timestamp " + what + " of " + answered + " for " + subject + ", below " + known + " ("
				+ Instant.ofEpochMilli(known) + "), the mark it granted this node before (kept in "
				+ this.local.marksLocation() + "): "
				+ "the store has lost writes (a restart without persistence, a failover to a replica that missed "
				+ "them, a restore from an old backup); no ID is issued from that answer; the keeper reports the "
				+ "known mark back to the store (giving the slot back with it, or asking for it at the next renewal); "
				+ "make the store durable (see docs/redis.md), and check the other "
				+ "nodes, which may not know their own marks");
	}

	/**
	 * Keeps the renewed lease but stops issuing until a renewal finds the clock back within bounds.
	 */
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

	/**
	 * Gives back a lease under which nothing was issued (the generator was never granted it), reporting its floor so
	 * the slot's mark is what the borrow found (0 for a slot never used): a refused start leaves no trace of this
	 * node's clock.
	 */
	private void giveBackUnused(WorkerLease lease) {
		giveBack(lease, Math.max(lease.timestampFloor(), 0));
	}

	private void giveBack(WorkerLease lease, long mark) {
		try {
			call("release", () -> {
				this.manager.release(lease, mark);
				return lease;
			});
		}
		catch (RuntimeException ex) {
			logger.warn("{}could not give back worker ID ({}); it becomes free when its lease expires, with the "
					+ "ceiling this node asked for as its mark", prefixFor(lease.workerId()), ex.getMessage());
		}
	}

	private <T> T call(String operation, Supplier<T> storeCall) {
		long start = this.time.nanoTime();
		try {
			T result = storeCall.get();
			this.listener.storeCall(this.settings.namespace(), operation, this.time.nanoTime() - start, true);
			return result;
		}
		catch (RuntimeException ex) {
			this.listener.storeCall(this.settings.namespace(), operation, this.time.nanoTime() - start, false);
			throw ex;
		}
	}

	private void publish() {
		this.snapshot = snapshot();
	}

	private Snapshot snapshot() {
		boolean held = this.lease != null;
		// once closed, a store call that returns late (close() did not wait for it) changes nothing visible
		State state = this.closed.get() ? State.CLOSED : this.state;
		LeaseStatus status = new LeaseStatus(state, this.settings.namespace(), this.workerId,
				held ? this.leaseExpiry : null, held ? this.issuingUntil : null, this.lastRenewal,
				this.consecutiveFailures, this.clock.offset());
		return new Snapshot(status, this.validUntilNanos);
	}

	private String prefix() {
		return prefixFor(this.workerId);
	}

	private String prefixFor(int workerId) {
		return "[" + this.settings.namespace() + "/worker " + ((workerId >= 0) ? workerId : "-") + "] ";
	}

	@Override
	public String toString() {
		return "WorkerLeaseKeeper" + prefix().strip() + " " + status().state();
	}

	/**
	 * What status() reads: the published status and the grant's deadline.
	 */
	private record Snapshot(LeaseStatus status, long validUntilNanos) {
	}

}
