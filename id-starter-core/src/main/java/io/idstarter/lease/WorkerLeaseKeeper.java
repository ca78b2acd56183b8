package io.idstarter.lease;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import io.idstarter.IdGenerationException;
import io.idstarter.IdWorkerListener;
import io.idstarter.lease.LeaseStatus.State;
import io.idstarter.snowflake.SnowflakeIdGenerator;
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
	 * The keeper is the lifecycle around three parts, each with its own protocol (see docs/snowflake.md):
	 *   - LeaseHeartbeat: the lease's state machine (grant, renewal, borrowing again, release at close), under its lock;
	 *   - SlotAcquirer: taking a slot (the borrow loop, the checks of the store's answer, the wait for the floor);
	 *   - InstrumentedLeaseStore: the store calls, timed and reported to the listener.
	 * The keeper runs the heartbeat on a single daemon thread, and bounds how long close() waits for it.
	 */

	private static final Logger logger = LoggerFactory.getLogger(WorkerLeaseKeeper.class);

	/** How long close() waits for the heartbeat to stop and for a store call in progress to return. */
	private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(10);

	private final LeaseSettings settings;

	private final TimeSource time;

	private final LeaseHeartbeat heartbeat;

	/** When to run the heartbeat again after it failed unexpectedly: about a quarter heartbeat, with jitter. */
	private final RetryBackoff backoff;

	/** How long close() waits for the heartbeat and for a store call in progress. */
	private volatile Duration closeTimeout = CLOSE_TIMEOUT;

	/** Runs the heartbeat; set once by start(). */
	private volatile @Nullable ScheduledExecutorService scheduler;

	/**
	 * Creates a keeper; nothing is borrowed until {@link #start()}.
	 * @param manager the lease store
	 * @param generator the generator to grant worker IDs to
	 * @param settings how to hold the lease
	 * @param time this node's clock (the generator's)
	 * @param listener receives store-call events
	 * @throws io.idstarter.InvalidSettingException naming {@code excludedWorkerIds} if the settings exclude a worker
	 * ID above the layout's greatest, or all of them
	 */
	public WorkerLeaseKeeper(ISequenceManager manager, SnowflakeIdGenerator generator, LeaseSettings settings,
			TimeSource time, IdWorkerListener listener) {
		this.settings = Objects.requireNonNull(settings, "settings");
		WorkerIdRanges.requireWithin(settings.excludedWorkerIds(),
				Objects.requireNonNull(generator, "generator").layout().maxWorkerId());
		this.time = Objects.requireNonNull(time, "time");
		this.backoff = new RetryBackoff(settings.heartbeat());
		this.heartbeat = new LeaseHeartbeat(Objects.requireNonNull(manager, "manager"),
				Objects.requireNonNull(generator, "generator"), settings, time,
				Objects.requireNonNull(listener, "listener"));
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
		this.heartbeat.start();
		if (!heartbeatThread) {
			return;
		}
		ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor((task) -> {
			Thread thread = new Thread(task, "id-worker-lease-" + this.settings.namespace());
			thread.setDaemon(true);
			return thread;
		});
		this.scheduler = scheduler;
		if (this.heartbeat.isClosed()) {
			// close() ran before the scheduler was set, and did not see it
			scheduler.shutdownNow();
			return;
		}
		schedule(this.settings.heartbeat());
	}

	/**
	 * Stops renewing, revokes the generator's grant and gives the worker ID back, reporting the last timestamp
	 * issued so the next owner may start right above it. Returns within the close timeout (10 s) even if a store
	 * call hangs: the grant is then revoked without the lock, and the slot becomes free when its lease expires.
	 * Idempotent.
	 */
	@Override
	public void close() {
		if (!this.heartbeat.markClosed()) {
			return;
		}
		long deadline = System.nanoTime() + this.closeTimeout.toNanos();
		ScheduledExecutorService scheduler = this.scheduler;
		if (scheduler != null) {
			scheduler.shutdownNow();
			try {
				if (!scheduler.awaitTermination(remaining(deadline), TimeUnit.NANOSECONDS)) {
					logger.warn("{}lease heartbeat did not stop within {}", prefix(),
							LeaseSettings.format(this.closeTimeout));
				}
			}
			catch (InterruptedException ex) {
				// the close below gives up at once on the lock, as it would after the timeout
				Thread.currentThread().interrupt();
			}
		}
		if (!this.heartbeat.close(remaining(deadline))) {
			logger.warn("{}a lease store call has not returned within the close timeout ({}); IDs are refused from "
					+ "now on, but the worker ID is not given back: the slot becomes free when its lease expires, "
					+ "within {}", prefix(), LeaseSettings.format(this.closeTimeout),
					LeaseSettings.format(this.settings.ttl()));
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
		LeaseHeartbeat.Snapshot snapshot = this.heartbeat.published();
		State state = snapshot.status().state();
		if ((state == State.ACTIVE || state == State.RENEWAL_FAILING)
				&& this.time.nanoTime() - snapshot.validUntilNanos() >= 0) {
			return snapshot.status().withState(State.LOST);
		}
		return snapshot.status();
	}

	/**
	 * Returns why IDs of a worker ID this keeper held may have been issued twice: another program claimed it outside
	 * the lease protocol ({@link WorkerIdConflictException}). Kept until the keeper is recreated.
	 * @return the alarm, or {@code null} for none
	 */
	public @Nullable String alarm() {
		return this.heartbeat.alarm();
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
		return this.heartbeat.beat();
	}

	private void runHeartbeat() {
		if (this.heartbeat.isClosed()) {
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
		if (scheduler != null && !this.heartbeat.isClosed()) {
			try {
				scheduler.schedule(this::runHeartbeat, delay.toNanos(), TimeUnit.NANOSECONDS);
			}
			catch (RejectedExecutionException ex) {
				// closing
			}
		}
	}

	/**
	 * Returns the log prefix of the slot the published status names; read without the heartbeat's lock.
	 */
	private String prefix() {
		return this.settings.logPrefix(this.heartbeat.published().status().workerId());
	}

	@Override
	public String toString() {
		return "WorkerLeaseKeeper" + prefix().strip() + " " + status().state();
	}

}
