package io.idstarter.snowflake;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

import io.idstarter.IdGenerationException;
import io.idstarter.IdWorker;
import io.idstarter.IdWorkerListener;
import io.idstarter.snowflake.WorkerIdUnavailableException.Reason;
import io.idstarter.time.TimeSource;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Lock-free Snowflake generator: IDs are unique and strictly increasing for as long as each running generator holds a
 * different worker ID. It issues only under a {@link WorkerGrant}, given by the lease keeper ({@link #grant}) and taken
 * back when the lease is lost ({@link #revoke}); without a valid one, calls throw
 * {@link WorkerIdUnavailableException}. It never blocks on a store. A caller waits only while a millisecond's sequence
 * is used up (until the next millisecond) or the clock stepped back by at most the {@link ClockBackwardsPolicy}'s
 * bound; it is parked meanwhile, never holds a lock, and so never pins a virtual thread.
 *
 * <p>One generator per JVM and worker-ID namespace: the IDs of two generators with the same worker ID collide.
 */
public final class SnowflakeIdGenerator implements IdWorker {

	/*
	 * Protocol.
	 *
	 * The whole issuing state is one AtomicLong, `state`: the last ID issued without its worker bits, i.e.
	 * (timestamp offset from the epoch << sequenceBits) | sequence. Because the timestamp sits above the sequence, the
	 * state orders exactly as the IDs do, and "the next ID" is plain arithmetic on it:
	 *
	 *     next = max(now << sequenceBits, state + 1)
	 *
	 * A new millisecond starts at sequence 0; within the same millisecond the sequence counts up; when it is used up,
	 * state + 1 carries into the next millisecond. A caller reads the clock and the state, computes `next`, and CASes
	 * state from what it read to `next`. The winner owns `next`; a loser recomputes from the fresh state. Nobody locks,
	 * so nobody waits for a descheduled thread. Because state only ever increases and each value is won by exactly one
	 * CAS, no two calls return the same ID, and each thread sees its IDs increase.
	 *
	 * A caller reads the state *before* the clock. The timestamp in the state came from a clock reading made before
	 * the CAS that wrote it, so a clock read afterwards is at least that timestamp unless the clock really went back
	 * (or the state was raised to a grant's floor, or borrowed ahead under tolerance). In the other order a caller
	 * descheduled between its two reads would see a state newer than its clock reading and mistake that for a step
	 * back.
	 *
	 * If the timestamp of `next` is ahead of the clock, the caller is about to borrow from the future. That is the
	 * slow path (clockBehind): if the clock equals the last timestamp, the millisecond's sequence is used up and the
	 * caller parks until the clock moves on (awaitNextMillis); if the clock is behind the last timestamp, it moved
	 * backwards: the caller parks until it catches up if the step is within the policy's bound (awaitClock), else the
	 * policy either fails the call or accepts `next` (tolerance: logical time runs ahead of the clock, a millisecond
	 * at a time as sequences are used up). Nothing on the slow path is shared except the rate limit of reports.
	 *
	 * Worker identity is the volatile `permit`, an immutable view of the current WorkerGrant, replaced whole. A call
	 * checks it first (granted, not revoked, monotonic deadline not passed) and later checks that the timestamp it is
	 * about to issue is at most the grant's ceiling. These two checks are what make a lease safe:
	 *   - the ceiling was recorded as the slot's high-water mark in the store before the grant was given, and the next
	 *     owner of the slot issues strictly above it, so even a thread that read the permit just before it was
	 *     replaced, and issues later, issues below what the next owner will use;
	 *   - the monotonic deadline stops the node before the store can let the lease expire, so it has stopped before
	 *     anyone else can borrow the slot. Both rest on the store keeping its writes: a store that loses the lease
	 *     and the mark together (a restart without persistence) lets another node take the slot meanwhile.
	 * grant() first raises the state to (floor, maxSequence) and only then publishes the permit, so a caller that sees
	 * the new permit also sees the raised state and issues above the floor (volatile write/read order).
	 * revoke() publishes the revoked permit and then increments the state (the fence). A caller reads the permit,
	 * then the state, then the permit again, and goes on only if it is the same object (every grant() and revoke()
	 * publishes a new one, so identity cannot be fooled by a revoke followed by a new grant). Take a caller that read
	 * the old permit and then CASes after revoke() has returned:
	 *   - if its state read came before the fence in the state's order, the fence changed the state since, so its CAS
	 *     fails (the state only increases, so no value comes back) and it starts over, reading the revoked permit;
	 *   - if its state read came at or after the fence, it read a value written by the fence or later, so it also
	 *     sees the permit written before the fence (volatile: write, then increment, happen-before the read): its
	 *     second permit read differs from the first and it starts over.
	 * So every CAS that succeeds under the old permit takes place before the fence, and lastTimestamp() read after
	 * revoke() returns is at least its timestamp: no ID above it appears until the next grant(). Checking the permit
	 * only once (before the state) is not enough: a caller descheduled between the two reads would pass the check,
	 * read the state after the fence, and win its CAS at a later clock reading. nextIds() is a series of such
	 * reservations, each fenced the same way.
	 *
	 * Initial state 0 reserves ID 0 (never issued: IDs are positive).
	 *
	 * See https://github.com/twitter-archive/snowflake (the original) and the id-starter docs/snowflake.md.
	 */

	private static final Logger logger = LoggerFactory.getLogger(SnowflakeIdGenerator.class);

	/** Rounds of {@link Thread#onSpinWait()} before a waiting caller parks; a few microseconds. */
	private static final int SPINS_BEFORE_PARK = 64;

	/** How long a waiting caller parks before it reads the clock again: 0.1 ms, a tenth of a timestamp step. */
	private static final long PARK_NANOS = TimeUnit.MICROSECONDS.toNanos(100);

	/** Grace beyond the policy's bound for the clock to pass the last millisecond itself. */
	private static final long CLOCK_WAIT_GRACE_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

	/**
	 * Longest a caller waits for the wall clock to leave a millisecond whose sequence is used up: 1 s of monotonic
	 * time, a thousand times what it takes a running clock. A clock stuck longer is frozen, and the call fails.
	 */
	private static final long FROZEN_CLOCK_NANOS = TimeUnit.SECONDS.toNanos(1);

	/** Least time between two reports (log and listener) of tolerated or failed clock steps. */
	private static final long REPORT_INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(1);

	/**
	 * How long before its layout's timestamp field runs out a generator warns at construction, unless told otherwise;
	 * health warns within the same time.
	 * @since 0.2.0
	 */
	public static final Duration DEFAULT_LAYOUT_WARNING = Duration.ofDays(365);

	private final SnowflakeLayout layout;

	private final TimeSource time;

	private final ClockBackwardsPolicy policy;

	private final IdWorkerListener listener;

	// Derived from the layout and policy once.

	private final long epochMillis;

	private final int sequenceBits;

	private final long sequenceMask;

	private final int timestampShift;

	private final long maxTimestampOffset;

	private final long maxWaitNanos;

	/** Packed (timestamp offset, sequence) of the last ID issued or reserved; only increases; changed only by CAS. */
	private final AtomicLong state = new AtomicLong();

	/** The grant issued under now; replaced whole by grant() and revoke(), never mutated. */
	private volatile Permit permit = Permit.NOT_GRANTED;

	/**
	 * Why the latest renewal of the current grant failed, for the refusal once the grant runs out; null while the
	 * grant is fresh (cleared by grant()). Written by the lease keeper, read only off the hot path.
	 */
	private volatile @Nullable RuntimeException renewalFailure;

	/** Number of IDs issued. */
	private final LongAdder issued = new LongAdder();

	/** Monotonic time after which the next tolerated step is reported; rate-limits tolerance reports. */
	private final AtomicLong nextToleranceReport = new AtomicLong(Long.MIN_VALUE);

	/** Monotonic time after which the next failed step is logged; rate-limits failure logs. */
	private final AtomicLong nextFailureLog = new AtomicLong(Long.MIN_VALUE);

	/**
	 * Creates a generator that issues nothing until it is {@linkplain #grant granted} a worker ID.
	 * @param layout the bit layout
	 * @param time the clock that stamps IDs and measures grant validity
	 * @param policy what to do when the clock moves backwards
	 * @param listener receives clock-backwards events
	 * @throws IllegalStateException if the layout's timestamp field has already run out by {@code time}'s clock
	 */
	public SnowflakeIdGenerator(SnowflakeLayout layout, TimeSource time, ClockBackwardsPolicy policy,
			IdWorkerListener listener) {
		this(layout, time, policy, listener, DEFAULT_LAYOUT_WARNING);
	}

	/**
	 * Creates a generator that issues nothing until it is {@linkplain #grant granted} a worker ID.
	 * @param layout the bit layout
	 * @param time the clock that stamps IDs and measures grant validity
	 * @param policy what to do when the clock moves backwards
	 * @param listener receives clock-backwards events
	 * @param layoutWarning how long before the layout's timestamp field runs out the construction's log line is a
	 * WARN
	 * @throws IllegalStateException if the layout's timestamp field has already run out by {@code time}'s clock
	 * @since 0.2.0
	 */
	public SnowflakeIdGenerator(SnowflakeLayout layout, TimeSource time, ClockBackwardsPolicy policy,
			IdWorkerListener listener, Duration layoutWarning) {
		this.layout = Objects.requireNonNull(layout, "layout");
		this.time = Objects.requireNonNull(time, "time");
		this.policy = Objects.requireNonNull(policy, "policy");
		this.listener = Objects.requireNonNull(listener, "listener");
		this.epochMillis = layout.epochMillis();
		this.sequenceBits = layout.sequenceBits();
		this.sequenceMask = layout.maxSequence();
		this.timestampShift = layout.timestampShift();
		this.maxTimestampOffset = layout.maxTimestampOffset();
		this.maxWaitNanos = policy.maxWait().toNanos();
		checkExhaustion(Objects.requireNonNull(layoutWarning, "layoutWarning"));
	}

	private void checkExhaustion(Duration layoutWarning) {
		Instant now = Instant.ofEpochMilli(this.time.currentTimeMillis());
		Instant exhaustedAt = this.layout.exhaustedAt();
		if (now.isAfter(exhaustedAt)) {
			// uid-generator's 28-bit seconds field ran out on 2024-11-20 and its users got negative IDs.
			throw new IllegalStateException("the " + this.layout.timestampBits() + "-bit timestamp field of layout ("
					+ this.layout + ") from epoch " + this.layout.epoch() + " ran out at " + exhaustedAt
					+ " (now " + now + "); use a later epoch or more timestamp bits");
		}
		Duration left = Duration.between(now, exhaustedAt);
		if (left.compareTo(layoutWarning) < 0) {
			logger.warn("Snowflake layout ({}) runs out of timestamps in {} days, at {}: no ID can be issued after "
					+ "that; plan a move to a later epoch or more timestamp bits now", this.layout, left.toDays(),
					exhaustedAt);
		}
		else {
			logger.info("Snowflake layout: {}; clock backwards: {}", this.layout, this.policy);
		}
	}

	@Override
	public long nextId() {
		return reserve(1);
	}

	/**
	 * Returns the next ID; Snowflake IDs share one number space, so the key is ignored.
	 * @param key the business key (ignored)
	 * @return a positive ID
	 */
	@Override
	public long nextId(String key) {
		return nextId();
	}

	/**
	 * Returns {@code count} IDs in increasing order, reserving the rest of a millisecond's sequence with one CAS at a
	 * time. The key is ignored.
	 */
	@Override
	public long[] nextIds(String key, int count) {
		if (count < 1) {
			throw new IllegalArgumentException("count must be at least 1: " + count);
		}
		long[] ids = new long[count];
		int filled = 0;
		while (filled < count) {
			long first = reserve(count - filled);
			int run = runLength(first, count - filled);
			for (int i = 0; i < run; i++) {
				ids[filled + i] = first + i;
			}
			filled += run;
		}
		return ids;
	}

	/**
	 * Reserves a run of consecutive IDs with one CAS: {@code wanted} of them, or fewer if the millisecond of the first
	 * runs out of sequence numbers first ({@link #runLength} says how many).
	 * @param wanted how many IDs the caller would like, at least 1
	 * @return the first ID of the run; the others follow it, one apart
	 */
	private long reserve(int wanted) {
		for (;;) {
			Permit permit = this.permit;
			if (!permit.isValid(this.time)) {
				throw unavailable(permit);
			}
			long last = this.state.get();
			if (this.permit != permit) {
				// revoked or replaced since the check: the state read may be past revoke()'s fence (see Protocol)
				continue;
			}
			long now = this.time.currentTimeMillis() - this.epochMillis;
			if (now > permit.ceilingOffset) {
				throw beyondCeiling(permit, now);
			}
			long first = Math.max(now << this.sequenceBits, last + 1);
			long timestamp = first >>> this.sequenceBits;
			if (timestamp > permit.ceilingOffset) {
				throw beyondCeiling(permit, timestamp);
			}
			if (timestamp > now && !clockBehind(last, now)) {
				continue;
			}
			int run = runLength(first, wanted);
			if (this.state.compareAndSet(last, first + run - 1)) {
				this.issued.add(run);
				return toId(first, permit.workerBits);
			}
		}
	}

	/**
	 * Returns how many of {@code wanted} IDs fit in the millisecond of {@code first}, a state or an ID: the sequence
	 * number is the low bits of both.
	 */
	private int runLength(long first, int wanted) {
		return (int) Math.min(wanted, this.sequenceMask - (first & this.sequenceMask) + 1);
	}

	private long toId(long state, long workerBits) {
		return ((state >>> this.sequenceBits) << this.timestampShift) | workerBits | (state & this.sequenceMask);
	}

	/**
	 * Slow path: the next state's timestamp is ahead of the clock. Waits, tolerates, or fails per the policy.
	 * @param last the state the caller read
	 * @param now the clock the caller read, as an offset from the epoch
	 * @return {@code true} to issue from the last timestamp anyway (tolerated), {@code false} to start over after a
	 * wait
	 */
	private boolean clockBehind(long last, long now) {
		long lastTimestamp = last >>> this.sequenceBits;
		if (now == lastTimestamp) {
			awaitNextMillis(lastTimestamp);
			return false;
		}
		if (now < 0) {
			throw new IdGenerationException("clock (" + Instant.ofEpochMilli(now + this.epochMillis)
					+ ") is before the layout's epoch (" + this.layout.epoch() + "); check the clock of this node");
		}
		long behind = lastTimestamp - now;
		if (TimeUnit.MILLISECONDS.toNanos(behind) <= this.maxWaitNanos) {
			if (awaitClock(lastTimestamp)) {
				this.listener.clockMovedBackwards(behind, "waited");
				logger.debug("Clock was {} ms behind the last ID's timestamp; waited it out", behind);
				return false;
			}
			behind = lastTimestamp - (this.time.currentTimeMillis() - this.epochMillis);
			if (behind <= 0) {
				return false;
			}
		}
		if (this.policy.isTolerant()) {
			reportTolerated(behind, lastTimestamp);
			return true;
		}
		throw clockMovedBackwards(behind, lastTimestamp);
	}

	/**
	 * Parks until the clock leaves the millisecond whose sequence is used up (forward, or back: caller decides), for
	 * at most {@link #FROZEN_CLOCK_NANOS} of monotonic time.
	 * @throws IdGenerationException if the wall clock stays in that millisecond that long
	 */
	private void awaitNextMillis(long lastTimestamp) {
		long start = 0;
		for (int spins = 0; this.time.currentTimeMillis() - this.epochMillis == lastTimestamp; spins++) {
			if (spins < SPINS_BEFORE_PARK) {
				Thread.onSpinWait();
			}
			else {
				if (spins == SPINS_BEFORE_PARK) {
					start = this.time.nanoTime();
				}
				else if (this.time.nanoTime() - start > FROZEN_CLOCK_NANOS) {
					throw frozenClock(lastTimestamp);
				}
				LockSupport.parkNanos(PARK_NANOS);
				checkInterrupted(lastTimestamp);
			}
		}
	}

	private IdGenerationException frozenClock(long lastTimestamp) {
		String message = "the wall clock has stayed at " + Instant.ofEpochMilli(lastTimestamp + this.epochMillis)
				+ " for more than " + TimeUnit.NANOSECONDS.toMillis(FROZEN_CLOCK_NANOS) + " ms of monotonic time "
				+ "while that millisecond's " + (this.sequenceMask + 1) + " sequence numbers are used up: the wall "
				+ "clock seems frozen; no ID was issued; check this node's clock source (NTP, the hypervisor's clock)";
		if (dueForReport(this.nextFailureLog)) {
			logger.warn("{} (logged at most once a second)", message);
		}
		return new IdGenerationException(message);
	}

	/**
	 * Parks until the clock is back at the last timestamp, for at most the policy's bound (plus a millisecond).
	 * @return whether the clock caught up
	 */
	private boolean awaitClock(long lastTimestamp) {
		long start = this.time.nanoTime();
		for (;;) {
			if (this.time.currentTimeMillis() - this.epochMillis >= lastTimestamp) {
				return true;
			}
			if (this.time.nanoTime() - start > this.maxWaitNanos + CLOCK_WAIT_GRACE_NANOS) {
				return false;
			}
			LockSupport.parkNanos(PARK_NANOS);
			checkInterrupted(lastTimestamp);
		}
	}

	private void checkInterrupted(long lastTimestamp) {
		if (Thread.currentThread().isInterrupted()) {
			throw new IdGenerationException("interrupted while waiting for the clock to pass "
					+ Instant.ofEpochMilli(lastTimestamp + this.epochMillis) + "; no ID was issued");
		}
	}

	private void reportTolerated(long behind, long lastTimestamp) {
		if (dueForReport(this.nextToleranceReport)) {
			this.listener.clockMovedBackwards(behind, "tolerated");
			logger.warn("Clock is {} ms behind the last ID's timestamp ({}), more than the {} ms waited out; issuing "
					+ "from the last timestamp until the clock catches up (reported at most once a second)", behind,
					Instant.ofEpochMilli(lastTimestamp + this.epochMillis), this.policy.maxWait().toMillis());
		}
	}

	private ClockMovedBackwardsException clockMovedBackwards(long behind, long lastTimestamp) {
		this.listener.clockMovedBackwards(behind, "failed");
		Instant resumeAt = Instant.ofEpochMilli(lastTimestamp + this.epochMillis);
		String message = "clock moved backwards: it is " + behind + " ms behind the last ID's timestamp ("
				+ resumeAt + "), more than the " + this.policy.maxWait().toMillis() + " ms that are waited out; IDs"
				+ " are refused until the clock reaches " + resumeAt + "; check time synchronisation (NTP) on this"
				+ " node, or use ClockBackwardsPolicy.tolerate to keep issuing through such steps";
		if (dueForReport(this.nextFailureLog)) {
			logger.warn("{} (logged at most once a second)", message);
		}
		return new ClockMovedBackwardsException(message, behind);
	}

	/**
	 * Returns the time left, by this generator's clock, until the layout's timestamps run out: after
	 * {@link SnowflakeLayout#exhaustedAt()} no ID is issued (never a negative or wrapped one).
	 * @return the time left; zero or negative once the layout has run out
	 */
	public Duration layoutRemaining() {
		return Duration.ofMillis(this.layout.exhaustedAt().toEpochMilli() + 1 - this.time.currentTimeMillis());
	}

	private boolean dueForReport(AtomicLong nextReport) {
		long now = this.time.nanoTime();
		long due = nextReport.get();
		return (due == Long.MIN_VALUE || now - due >= 0) && nextReport.compareAndSet(due, now + REPORT_INTERVAL_NANOS);
	}

	private IdGenerationException beyondCeiling(Permit permit, long timestamp) {
		Instant at = Instant.ofEpochMilli(timestamp + this.epochMillis);
		if (timestamp > this.maxTimestampOffset) {
			return new IdGenerationException("the timestamp field of layout (" + this.layout + ") has run out: "
					+ at + " is past " + this.layout.exhaustedAt() + "; use a later epoch or more timestamp bits");
		}
		WorkerGrant grant = Objects.requireNonNull(permit.grant);
		return new WorkerIdUnavailableException(Reason.CEILING_REACHED, "worker ID " + grant.workerId()
				+ " may stamp IDs up to " + Instant.ofEpochMilli(grant.timestampCeiling()) + " (its lease's ceiling)"
				+ " and the next would be at " + at + "; issuing resumes after the next lease renewal, which raises"
				+ " the ceiling; if this persists, check that the lease store is reachable");
	}

	private WorkerIdUnavailableException unavailable(Permit permit) {
		WorkerGrant grant = permit.grant;
		if (permit.revokedReason != null) {
			return new WorkerIdUnavailableException(Reason.REVOKED,
					((grant != null) ? "worker ID " + grant.workerId() : "the worker ID") + " was revoked ("
							+ permit.revokedReason + "); issuing resumes once a lease is held again");
		}
		if (grant == null) {
			return new WorkerIdUnavailableException(Reason.NOT_GRANTED, "no worker ID has been granted: IDs are "
					+ "issued only under a worker ID leased by a WorkerLeaseKeeper (or a WorkerGrant.fixed one); "
					+ "start the keeper before issuing IDs");
		}
		long overdueMillis = TimeUnit.NANOSECONDS.toMillis(this.time.nanoTime() - grant.validUntilNanos());
		String message = "the lease of worker ID " + grant.workerId() + " ran out " + overdueMillis
				+ " ms ago without a successful renewal; issuing resumes once it is renewed or a lease is held again; "
				+ "check that the lease store is reachable";
		RuntimeException failure = this.renewalFailure;
		return (failure != null)
				? new WorkerIdUnavailableException(Reason.EXPIRED,
						message + " (the latest renewal failed: " + failure.getMessage() + ")", failure)
				: new WorkerIdUnavailableException(Reason.EXPIRED, message);
	}

	/**
	 * Records why a renewal of the current grant failed, so that the refusal after the grant runs out names the
	 * cause (the store, its address, its error). The lease keeper calls it; the next {@link #grant} forgets it.
	 * @param failure what the store call threw
	 */
	public void renewalFailed(RuntimeException failure) {
		this.renewalFailure = Objects.requireNonNull(failure, "failure");
	}

	/**
	 * Lets the generator issue under a worker ID. From now on it issues no timestamp at or below the grant's floor
	 * nor above its ceiling, and nothing once the grant's validity has passed. Meant to be called by one owner (the
	 * lease keeper); a later grant or revoke replaces an earlier one.
	 * @param grant the worker ID and its bounds
	 * @throws IllegalArgumentException if the worker ID does not fit the layout
	 */
	public void grant(WorkerGrant grant) {
		Objects.requireNonNull(grant, "grant");
		if (grant.workerId() > this.layout.maxWorkerId()) {
			throw new IllegalArgumentException(
					"workerId must be in [0, " + this.layout.maxWorkerId() + "]: " + grant.workerId());
		}
		long floorOffset = grant.timestampFloor() - this.epochMillis;
		if (grant.timestampFloor() != WorkerGrant.NO_FLOOR && floorOffset >= 0) {
			long floorState = (Math.min(floorOffset, this.maxTimestampOffset) << this.sequenceBits) | this.sequenceMask;
			this.state.accumulateAndGet(floorState, Math::max);
		}
		long ceilingOffset = (grant.timestampCeiling() < this.epochMillis) ? -1
				: Math.min(grant.timestampCeiling() - this.epochMillis, this.maxTimestampOffset);
		this.renewalFailure = null;
		this.permit = new Permit(grant, null, (long) grant.workerId() << this.sequenceBits, ceilingOffset);
	}

	/**
	 * Stops issuing: calls throw {@link WorkerIdUnavailableException} until the next {@link #grant}. When this
	 * returns, no ID with a timestamp above {@link #lastTimestamp()} (read after it returns) will be returned under the
	 * revoked grant, not even by a call already in progress: such a call either reserved its ID before the revocation
	 * took effect (and {@code lastTimestamp()} counts it) or throws. IDs reserved before may still be returned by
	 * calls in progress; their timestamps are at most {@code lastTimestamp()}.
	 * @param reason why, for the exception message (e.g. "lease lost", "closed")
	 */
	public void revoke(String reason) {
		Objects.requireNonNull(reason, "reason");
		this.permit = new Permit(this.permit.grant, reason, 0, -1);
		this.state.getAndIncrement();
	}

	@Override
	public String toString() {
		Permit permit = this.permit;
		return "SnowflakeIdGenerator[" + this.layout + ", worker "
				+ ((permit.grant != null && permit.revokedReason == null) ? permit.grant.workerId() : "none") + "]";
	}

	/**
	 * Splits an ID of this generator's layout into its fields.
	 * @param id the ID
	 * @return its timestamp, worker ID and sequence
	 * @throws IllegalArgumentException if {@code id} is negative
	 */
	public SnowflakeId parse(long id) {
		return this.layout.parse(id);
	}

	public SnowflakeLayout layout() {
		return this.layout;
	}

	public ClockBackwardsPolicy policy() {
		return this.policy;
	}

	/**
	 * Returns the worker ID of the current grant, whether or not its validity has passed.
	 * @return the worker ID, or empty if never granted or revoked
	 */
	public OptionalInt workerId() {
		Permit permit = this.permit;
		return (permit.grant != null && permit.revokedReason == null) ? OptionalInt.of(permit.grant.workerId())
				: OptionalInt.empty();
	}

	/**
	 * Returns the greatest timestamp issued or reserved: the last ID's timestamp, or a grant's floor if that is
	 * higher. The lease keeper reports it to the store when it renews and releases.
	 * @return milliseconds since the Unix epoch, or {@code -1} if nothing was issued or reserved
	 */
	public long lastTimestamp() {
		long state = this.state.get();
		return (state == 0) ? -1 : (state >>> this.sequenceBits) + this.epochMillis;
	}

	/**
	 * Returns how many IDs this generator has issued.
	 * @return the count
	 */
	public long issuedCount() {
		return this.issued.sum();
	}

	/**
	 * Immutable view of a grant, with what the hot path needs precomputed.
	 */
	private static final class Permit {

		static final Permit NOT_GRANTED = new Permit(null, null, 0, -1);

		final @Nullable WorkerGrant grant;

		final @Nullable String revokedReason;

		/** Whether IDs may be issued (granted and not revoked), subject to the deadline. */
		final boolean usable;

		/** The worker ID shifted into place. */
		final long workerBits;

		/** Greatest timestamp offset that may be issued: the ceiling, capped by the layout. */
		final long ceilingOffset;

		final boolean expires;

		final long validUntilNanos;

		Permit(@Nullable WorkerGrant grant, @Nullable String revokedReason, long workerBits, long ceilingOffset) {
			this.grant = grant;
			this.revokedReason = revokedReason;
			this.usable = (grant != null) && (revokedReason == null);
			this.workerBits = workerBits;
			this.ceilingOffset = ceilingOffset;
			this.expires = (grant != null) && grant.expires();
			this.validUntilNanos = (grant != null) ? grant.validUntilNanos() : 0;
		}

		boolean isValid(TimeSource time) {
			return this.usable && (!this.expires || time.nanoTime() - this.validUntilNanos < 0);
		}

	}

}
