package io.idstarter.segment;

import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import io.idstarter.StoreRegressionException;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Fetches the ranges of one key from the store: at most one store call in flight, a failed call retried with a growing,
 * jittered delay, every range checked against this node's high mark of the key (and the mark raised, durably) before
 * it is published, and the dynamic step applied.
 */
final class SegmentFetcher {

	/*
	 * Protocol. A segment's successor is requested by a CAS of the segment's state from IDLE to FETCHING; the winner
	 * creates one Fetch and queues it with the PrefetchDispatcher, which hands it to the executor within a few
	 * milliseconds: the caller that crossed the prefetch threshold does not pay for waking a pool thread. Except when
	 * those milliseconds could make callers wait (handOverNow): no waiting caller could run the fetch, and ranges last
	 * less than the fetch (store call and marks write) plus HAND_OVER_NOW_SLACK_NANOS; then that caller hands it to
	 * the executor itself, one wake-up per range, against a wait of up to the poll's delay per range. A Fetch that
	 * fails retries itself with a growing delay (scheduled, not sleeping on a pool thread), so there is at most one
	 * store call in flight per key and an outage is not hammered; the delay is jittered so that nodes that lost the
	 * store together do not retry in lockstep. On success it writes `next`, CASes FETCHING to READY and completes
	 * `successor`.
	 *
	 * Running a queued fetch: a waiting caller that finds the Fetch still queued (no pool thread has started it) runs
	 * it itself, when the store allows calls on callers' threads (SegmentStore.supportsCallerThreadAllocation: not if a
	 * call could join the caller's transaction), answered its latest call within INLINE_FETCH_MAX_NANOS and has not
	 * failed since. Handing a task to a parked pool thread takes tens of microseconds, longer than a fast store's call
	 * and longer than a small range lasts at full speed (1,000 IDs: about 3 µs). Each attempt of a Fetch is claimed by
	 * a CAS before it runs, so the pool thread that dequeues it later does nothing, and a retry is not claimable while
	 * its delay runs. A waiting caller that may not run it hands it to the executor at once instead of leaving it for
	 * the dispatcher's next poll (Fetch.dispatch: at most one hand-over per attempt). The cost: if a store that was
	 * fast hangs at that very call, that one caller waits for the store's own timeout rather than maxWait (it still
	 * gets an ID or an error, never a duplicate).
	 *
	 * Store regression: before a range is published, it is checked against the key's high mark (SegmentMarks: the end
	 * of the highest range this node was given, kept in a local file across restarts) and the mark is raised to its
	 * end, durably. A range below the mark means the store lost writes; it is refused (StoreRegressionException, a
	 * gap), `regression` is set so that waiters fail at once instead of waiting, and the Fetch retries only every
	 * regressionRetryNanos (the key refresh interval): each retry moves the store up by one step, so the store does
	 * not climb back past the mark quickly on its own (that would serve numbers other nodes may have served), while an
	 * operator who raised the key's max_id is picked up within an interval. Waiters already parked are woken by
	 * completing the segment's `successor` exceptionally after a fresh future was put in its place for the retry.
	 * Heal forward (SegmentOptions.healForward, off by default): the refused range stays a gap, the store's max_id is
	 * raised to the mark plus healMargin by one conditional update that only moves it up (SegmentKeyAdmin.raiseMaxId),
	 * and the retry follows at once: the key is served again from there instead of staying refused. This node's mark
	 * is all it knows; numbers other nodes were given above it in the lost window are safe only if the margin covers
	 * them.
	 *
	 * Marks file that cannot be written (a full disk, a read-only remount): the range the store gave is kept in the
	 * Fetch (`pending`) and only the write is retried, with the growing delay of a failed call; the range is neither
	 * served before its mark is on disk nor thrown away, so an outage of the disk does not burn a range per retry.
	 *
	 * End of a key: a step larger than what is left of the key (below Long.MAX_VALUE) is cut to what is left, which
	 * the store reports with its refusal (SegmentKeyExhaustedException.remaining; halved when it cannot say), and that
	 * last range is served. Once nothing is left, the key is used up for good: the fetch fails, `usedUp` is set, and
	 * callers get SegmentKeyExhaustedException at once instead of waiting out maxWait at every call.
	 *
	 * Only the Fetch writes the statistics below; one Fetch runs per key at a time, because a segment's successor is
	 * requested only once the segment is current, which is after its own fetch completed.
	 */

	private static final Logger logger = LoggerFactory.getLogger(SegmentFetcher.class);

	/** First delay before a failed fetch is retried; doubles with each failure in a row. */
	private static final long RETRY_DELAY_MIN_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

	/** Longest delay between retries of a failed fetch (lowered to a quarter of maxWait when that is shorter). */
	static final long RETRY_DELAY_MAX_NANOS = TimeUnit.SECONDS.toNanos(1);

	/**
	 * A waiting caller runs a queued fetch itself only if the store's latest call took at most this long (or half
	 * of maxWait, if that is shorter): a store this fast is in-process or next door, and a hand-off to a pool thread
	 * costs as much as its call.
	 */
	private static final long INLINE_FETCH_MAX_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

	/**
	 * A requested fetch that no waiting caller could run is handed to the executor at once, rather than queued for
	 * the dispatcher's poll, when ranges outlast the fetch by less than this: the poll's delay (up to
	 * {@link PrefetchDispatcher#POLL_MAX_NANOS}) would then take much of the time the fetch has before callers run
	 * out, as for a client-mode application taking IDs at full speed, whose ranges of 1,000,000 last a few
	 * milliseconds and whose store is a round trip to the ID server, or for JPA inserts drawing 50-number ranges of a
	 * database sequence. Short ranges too: a caller that runs out would hand the fetch over itself and then wait for
	 * all of it, where the wake-up alone (tens of microseconds) is paid at the prefetch point.
	 */
	static final long HAND_OVER_NOW_SLACK_NANOS = 4 * PrefetchDispatcher.POLL_MAX_NANOS;

	/**
	 * The poll watches a buffer only while its ranges outlast a fetch by at most this: a caller of a slower key
	 * requests a fetch once in seconds, which costs nothing that matters, and the poll, which looks at every watched
	 * buffer each time it runs, would look at many idle keys of an application with thousands of them.
	 */
	static final long WATCH_MAX_SLACK_NANOS = 2 * PrefetchDispatcher.IDLE_AFTER_NANOS;

	private final SegmentBuffer buffer;

	private final String key;

	/**
	 * What every fetcher of the generator shares: the store, the settings, the clock, the threads, the marks. Kept as
	 * one reference rather than copied into each fetcher: a generator may hold many thousands of keys.
	 */
	private final SegmentBufferContext context;

	// Statistics and dynamic-step inputs: written only by the one Fetch running at a time, read by anyone.

	/** Size of the range given at the latest successful fetch; 0 before the first. */
	private volatile int step;

	/** The key's configured step as the store reported it at the latest fetch; 0 before the first. */
	private volatile int configuredStep;

	/** Monotonic time when the latest successful store call returned. */
	private volatile long lastFetchNanos;

	/** Wall-clock time when the latest successful store call returned; 0 before the first. */
	private volatile long lastFetchMillis;

	/** How long the latest successful store call took; -1 before the first. */
	private volatile long lastFetchDurationNanos = -1;

	/**
	 * How long the latest successful fetch took from the start of its store call until its range could be served,
	 * the marks file written (an fsync, milliseconds on some disks); -1 before the first.
	 */
	private volatile long lastFetchToReadyNanos = -1;

	/** Store calls that failed since the latest success. */
	private volatile int failuresInRow;

	/** The store's error since the latest successful fetch; null once a fetch succeeds. */
	private volatile @Nullable Throwable lastError;

	/** Wall-clock time of the latest store error; written just after {@code lastError}, for monitoring only. */
	private volatile long lastErrorMillis;

	/** Set when the store answered below the key's high mark; null again once a range passes. */
	private volatile @Nullable StoreRegressionException regression;

	/** Set once the key has no numbers left; never cleared. */
	private volatile @Nullable SegmentKeyExhaustedException usedUp;

	SegmentFetcher(SegmentBuffer buffer, SegmentBufferContext context) {
		this.buffer = buffer;
		this.key = buffer.key();
		this.context = context;
	}

	private long maxWaitNanos() {
		return DynamicStep.saturatedNanos(this.context.options().maxWait());
	}

	/**
	 * A waiting caller runs a queued fetch itself if the store's latest call took at most this long; -1 if the store
	 * must only be called from the pool.
	 */
	private long inlineFetchMaxNanos() {
		return this.context.store().supportsCallerThreadAllocation()
				? Math.min(INLINE_FETCH_MAX_NANOS, maxWaitNanos() / 2) : -1;
	}

	/** Delay between retries of a fetch whose range was refused as below the key's high mark. */
	private long regressionRetryNanos() {
		long refresh = DynamicStep.saturatedNanos(this.context.options().keyRefreshInterval());
		return Math.max(RETRY_DELAY_MAX_NANOS, refresh);
	}

	/** Starts the fetch of the segment's successor unless it was requested already. */
	void request(Segment segment) {
		if (segment.state == Segment.IDLE) {
			long now = this.context.time().nanoTime();
			segment.fetchRequestedNanos = now;
			if (segment.casState(Segment.IDLE, Segment.FETCHING)) {
				long slack = slackNanos(now);
				Fetch fetch = new Fetch(segment, slack);
				segment.fetch = fetch;
				if (slack >= 0 && slack < HAND_OVER_NOW_SLACK_NANOS && !callersMayRun(this.lastFetchDurationNanos)) {
					fetch.dispatch();
				}
				else {
					this.context.dispatcher().offer(fetch::dispatch);
				}
			}
		}
	}

	/**
	 * How long a fetch requested now may wait before callers could run out: a range (about the time since the latest
	 * fetch returned) less what a fetch takes, store call and marks write.
	 * @return the slack, at least 0, or -1 before the key's first fetch
	 */
	private long slackNanos(long now) {
		long fetchNanos = this.lastFetchToReadyNanos;
		return (fetchNanos < 0) ? -1 : Math.max(0, now - this.lastFetchNanos - fetchNanos);
	}

	/** Whether a waiting caller may run a queued fetch itself: the store allows it, was fast and has not failed since. */
	private boolean callersMayRun(long lastCallNanos) {
		return lastCallNanos >= 0 && lastCallNanos <= inlineFetchMaxNanos() && this.failuresInRow == 0;
	}

	/**
	 * Called by a caller about to wait for the spent segment's successor: runs its fetch on the calling thread if no
	 * pool thread has started it and the store allows it and is fast, or else hands it to the executor now if the
	 * dispatcher has not yet.
	 */
	void runQueued(Segment spent) {
		Fetch fetch = spent.fetch;
		if (fetch == null) {
			return;
		}
		// Not before the key's first answer (-1): nothing is known of the store's speed yet.
		if (callersMayRun(this.lastFetchDurationNanos) && fetch.claim()) {
			fetch.attempt(false);
		}
		else {
			fetch.dispatch();
		}
	}

	private void submit(Fetch fetch) {
		try {
			this.context.executor().execute(fetch);
		}
		catch (RuntimeException ex) {
			// Rejected, or any failure of an application's executor: retried like a failed store call. Thrown on, it
			// would reach the caller or the dispatcher's poll, and leave the fetch marked as handed over but never run.
			fetch.failed(ex);
		}
	}

	/**
	 * Returns why the store's latest answer was refused, while it stays below the key's high mark.
	 * @return the refusal, or null while the store's answers are accepted
	 */
	@Nullable StoreRegressionException regression() {
		return this.regression;
	}

	/**
	 * Returns why the key issues no more numbers, once the store has none left of it.
	 * @return the store's refusal, or null while the key has numbers left
	 */
	@Nullable SegmentKeyExhaustedException usedUp() {
		return this.usedUp;
	}

	int step() {
		return this.step;
	}

	int configuredStep() {
		return this.configuredStep;
	}

	long lastFetchMillis() {
		return this.lastFetchMillis;
	}

	long lastFetchDurationNanos() {
		return this.lastFetchDurationNanos;
	}

	int failuresInRow() {
		return this.failuresInRow;
	}

	@Nullable Throwable lastError() {
		return this.lastError;
	}

	long lastErrorMillis() {
		return this.lastErrorMillis;
	}

	/** Returns the mark plus the margin, at most {@link Long#MAX_VALUE}. */
	static long healFloor(long mark, long margin) {
		return (mark > Long.MAX_VALUE - margin) ? Long.MAX_VALUE : mark + margin;
	}

	/**
	 * Returns the delay before retry number {@code failures}: 10 ms doubling up to the maximum, then a random point in
	 * its upper half, so that nodes that failed together spread their retries.
	 */
	static long retryDelayNanos(int failures, long maxWaitNanos) {
		long max = Math.max(RETRY_DELAY_MIN_NANOS, Math.min(RETRY_DELAY_MAX_NANOS, maxWaitNanos / 4));
		int shift = Math.min(failures - 1, 30);
		long delay = Math.min(RETRY_DELAY_MIN_NANOS << shift, max);
		return delay / 2 + ThreadLocalRandom.current().nextLong(delay / 2 + 1);
	}

	/**
	 * A range the store gave, with the step asked for and when the store call started and ended (monotonic time).
	 */
	private record Pending(SegmentAllocation allocation, int step, long callStart, long callEnd) {
	}

	/**
	 * Fetches the successor of one segment, retrying with a growing delay until it succeeds or the buffer retires.
	 * Runs on the prefetch executor, or on a waiting caller that claimed a queued attempt first.
	 */
	final class Fetch implements Runnable {

		private final Segment predecessor;

		/** Set when an attempt starts, by a CAS; cleared when a retry is queued after its delay. */
		private final AtomicBoolean claimed = new AtomicBoolean();

		/** Set by the first hand-over of the first attempt to the executor; retries are submitted by their timer. */
		private final AtomicBoolean dispatched = new AtomicBoolean();

		/** A range the store gave whose mark could not be written yet; only the attempt that holds the claim uses it. */
		private @Nullable Pending pending;

		/** The fetch's slack when it was requested (slackNanos); -1 if unknown. */
		private final long slackNanos;

		Fetch(Segment predecessor, long slackNanos) {
			this.predecessor = predecessor;
			this.slackNanos = slackNanos;
		}

		/** Returns whether the caller may run the queued attempt; true for exactly one caller per attempt. */
		boolean claim() {
			return !this.claimed.get() && this.claimed.compareAndSet(false, true);
		}

		/** Hands the first attempt to the executor unless it was handed over or started already. */
		void dispatch() {
			if (!this.claimed.get() && !this.dispatched.get() && this.dispatched.compareAndSet(false, true)) {
				submit(this);
			}
		}

		@Override
		public void run() {
			if (claim()) {
				attempt(true);
			}
		}

		/**
		 * Runs one attempt; the claim is held.
		 * @param onPool whether it runs on the prefetch executor, not on a waiting caller
		 */
		void attempt(boolean onPool) {
			SegmentFetcher fetcher = SegmentFetcher.this;
			if (!fetcher.buffer.isActive()) {
				giveUp();
				return;
			}
			Segment successor;
			try {
				successor = fetch();
			}
			catch (StoreRegressionException ex) {
				regressed(ex);
				return;
			}
			catch (SegmentKeyExhaustedException ex) {
				usedUp(ex);
				return;
			}
			catch (UnknownKeyException ex) {
				fetcher.lastError = ex;
				fetcher.lastErrorMillis = fetcher.context.time().currentTimeMillis();
				logger.warn("Segment key '{}' is no longer in the store; it issues no more IDs", fetcher.key);
				fetcher.buffer.keyRemoved();
				giveUp();
				return;
			}
			catch (RuntimeException | Error ex) {
				failed(ex);
				if (ex instanceof VirtualMachineError) {
					throw ex;
				}
				return;
			}
			this.predecessor.next = successor;
			if (this.predecessor.casState(Segment.FETCHING, Segment.READY)) {
				this.predecessor.successor.complete(successor);
			}
			// Ranges that outlast a fetch by far, fetched on the pool (so not at full speed): the poll can find the
			// next prefetch point itself. Otherwise callers request, at once where the poll's delay could hurt; so do
			// the callers of keys too slow for the request to matter, which the poll would scan for nothing.
			if (onPool && this.slackNanos >= HAND_OVER_NOW_SLACK_NANOS && this.slackNanos <= WATCH_MAX_SLACK_NANOS) {
				fetcher.context.dispatcher().watch(fetcher.buffer);
			}
			else if (fetcher.buffer.isWatched()) {
				fetcher.context.dispatcher().unwatch(fetcher.buffer);
			}
		}

		private Segment fetch() {
			SegmentFetcher fetcher = SegmentFetcher.this;
			Pending given = this.pending;
			if (given == null) {
				given = allocate();
				this.pending = given;
			}
			// Durable before any number of the range can be served: a restarted node must not go below it either.
			fetcher.context.marks().raise(fetcher.key, given.allocation.end());
			this.pending = null;
			SegmentAllocation allocation = given.allocation;
			fetcher.lastFetchToReadyNanos = fetcher.context.time().nanoTime() - given.callStart;
			fetcher.step = given.step;
			fetcher.configuredStep = allocation.configuredStep();
			fetcher.lastFetchNanos = given.callEnd;
			fetcher.lastFetchMillis = fetcher.context.time().currentTimeMillis();
			fetcher.lastFetchDurationNanos = given.callEnd - given.callStart;
			if (fetcher.failuresInRow > 0) {
				logger.info("Fetch of key '{}' succeeded again after {} failed attempts", fetcher.key,
						fetcher.failuresInRow);
			}
			fetcher.failuresInRow = 0;
			fetcher.lastError = null;
			if (fetcher.regression != null) {
				logger.warn("Segment store is above this node's high mark of key '{}' again, at [{}, {}); serving",
						fetcher.key, allocation.start(), allocation.end());
				fetcher.regression = null;
			}
			return new Segment(allocation.start(), allocation.end(), fetcher.context.options().prefetchThreshold(),
					this.predecessor);
		}

		/** Asks the store for the next range, of the dynamic step or, near the key's end, of what is left. */
		private Pending allocate() {
			SegmentFetcher fetcher = SegmentFetcher.this;
			int currentStep = fetcher.step;
			boolean first = (currentStep == 0);
			long callStart = fetcher.context.time().nanoTime();
			int requested = first ? 0
					: fetcher.context.options().dynamicStep().nextStep(currentStep, fetcher.configuredStep,
							callStart - fetcher.lastFetchNanos);
			boolean success = false;
			SegmentAllocation allocation;
			try {
				allocation = allocateWithin(requested);
				checkAllocation(allocation);
				success = true;
			}
			finally {
				long nanos = fetcher.context.time().nanoTime() - callStart;
				fetcher.context.listener().storeCall(fetcher.key, "allocate", nanos, success);
			}
			// The size the store gave, which the dynamic step grows from: a store may give its own step (a database
			// sequence's INCREMENT BY) whatever was asked, or what is left of the key.
			int step = (int) Math.min(allocation.end() - allocation.start(), Integer.MAX_VALUE);
			return new Pending(allocation, step, callStart, fetcher.context.time().nanoTime());
		}

		/**
		 * Allocates a range of {@code size} numbers (0: the key's configured step), or of what is left of the key
		 * when that is less.
		 * @throws SegmentKeyExhaustedException if nothing is left
		 */
		private SegmentAllocation allocateWithin(int size) {
			SegmentStore store = SegmentFetcher.this.context.store();
			String key = SegmentFetcher.this.key;
			int wanted = size;
			// Each round either succeeds or asks for less: at most 64 halvings of a step below 2^31.
			for (int round = 0;; round++) {
				try {
					return (wanted == 0) ? store.allocate(key) : store.allocate(key, wanted);
				}
				catch (SegmentKeyExhaustedException ex) {
					long left = ex.remaining();
					if (round >= 64 || left == 0 || wanted == 1 || (wanted == 0 && left < 0)) {
						throw ex;
					}
					int smaller = (left > 0) ? (int) Math.min(left, Integer.MAX_VALUE) : wanted / 2;
					if (wanted != 0 && smaller >= wanted) {
						throw ex;
					}
					logger.info("Segment key '{}' has {} numbers left; asking for {} instead of {}", key,
							(left >= 0) ? left : "fewer than " + wanted, smaller,
							(wanted != 0) ? wanted : "the configured step");
					wanted = smaller;
				}
			}
		}

		private void checkAllocation(SegmentAllocation allocation) {
			String key = SegmentFetcher.this.key;
			if (!allocation.key().equals(key)) {
				throw new SegmentStoreException("Segment store returned a range of key '" + allocation.key()
						+ "' when asked for key '" + key + "'; the store adapter is broken");
			}
			long known = Math.max(this.predecessor.end, SegmentFetcher.this.context.marks().highMark(key));
			if (allocation.start() < known) {
				throw new StoreRegressionException("segment key '" + key + "'", known, allocation.start(),
						regressionMessage(allocation, known));
			}
		}

		/**
		 * Says what the node can tell about a range below its mark. Refused on the first range after a start, against
		 * a mark from the marks file, the store may be a different one than the file was written against (a new or
		 * recreated database: an embedded test database starts empty on every run) rather than one that lost writes;
		 * the two call for opposite actions, and only the operator can tell them apart.
		 */
		private String regressionMessage(SegmentAllocation allocation, long known) {
			SegmentFetcher fetcher = SegmentFetcher.this;
			String refused = String.format(Locale.ROOT,
					"Segment store returned [%d, %d) for key '%s', below the end %d of the highest range this node "
							+ "was given (%s)",
					allocation.start(), allocation.end(), fetcher.key, known, markSource());
			String retry = "; this node refuses numbers that may repeat and retries every "
					+ TimeUnit.NANOSECONDS.toSeconds(fetcher.regressionRetryNanos()) + " s";
			boolean firstRangeSinceStart = this.predecessor.isSentinel();
			if (!firstRangeSinceStart || fetcher.context.marks().file().isEmpty()) {
				return refused + ": the store lost writes while this node ran (restarted without persistence, failed "
						+ "over to a replica that missed them, restored from an old backup, or the key's row was deleted "
						+ "and created again). Raise the key's max_id in the store to at least the highest such mark of "
						+ "every node (this node: " + known + ")" + retry;
			}
			return refused + ", kept from an earlier run. Either the store is not the one the marks file was written "
					+ "against: a new or recreated database (an embedded test database starts empty on every run) "
					+ "beside an old marks file; then the file belongs to the old store: delete it, or give each "
					+ "database its own id-worker.segment.marks-file (test slices keep marks in memory unless "
					+ "id-worker.testing.node-files-in-slices is set). Or the store lost writes since (restarted without persistence, "
					+ "failed over to a replica that missed them, restored from an old backup); then keep the file and "
					+ "raise the key's max_id in the store to at least the highest such mark of every node (this node: "
					+ known + "). Find out which before acting: deleting the file of a store that lost writes lets "
					+ "IDs repeat" + retry;
		}

		private String markSource() {
			return SegmentFetcher.this.context.marks().file().map((file) -> "kept in " + file).orElse("kept in memory");
		}

		/** Refuses the store's answer: waiters fail now, and the next attempt waits a key refresh interval. */
		private void regressed(StoreRegressionException ex) {
			SegmentFetcher fetcher = SegmentFetcher.this;
			boolean firstInRow = (fetcher.regression == null);
			fetcher.regression = ex;
			fetcher.lastError = ex;
			fetcher.lastErrorMillis = fetcher.context.time().currentTimeMillis();
			fetcher.failuresInRow++;
			fetcher.context.listener().segmentRefused(fetcher.key, ex.knownMark(), ex.storeMark());
			if (firstInRow) {
				logger.error(ex.getMessage());
			}
			else {
				logger.debug(ex.getMessage());
			}
			// A fresh future for the retry, then wake those parked on the old one.
			CompletableFuture<Segment> parked = this.predecessor.successor;
			this.predecessor.successor = new CompletableFuture<>();
			parked.completeExceptionally(ex);
			if (!fetcher.buffer.isActive() || this.predecessor.state != Segment.FETCHING) {
				giveUp();
				this.predecessor.successor.completeExceptionally(fetcher.buffer.retiredException());
				return;
			}
			long retryNanos = healForward(ex) ? RETRY_DELAY_MIN_NANOS : fetcher.regressionRetryNanos();
			try {
				fetcher.context.scheduler().schedule(this::retry, retryNanos, TimeUnit.NANOSECONDS);
			}
			catch (RejectedExecutionException rejected) {
				giveUp();
			}
		}

		/** The key has no numbers left: waiters fail now and for good, and nothing is retried. */
		private void usedUp(SegmentKeyExhaustedException ex) {
			SegmentFetcher fetcher = SegmentFetcher.this;
			fetcher.lastError = ex;
			fetcher.lastErrorMillis = fetcher.context.time().currentTimeMillis();
			fetcher.usedUp = ex;
			logger.warn("Segment key '{}' is used up and issues no more IDs: {}", fetcher.key, ex.getMessage());
			if (this.predecessor.casState(Segment.FETCHING, Segment.FAILED)) {
				this.predecessor.successor.completeExceptionally(ex);
			}
		}

		/**
		 * Raises the store's max_id of the key to this node's high mark, if the options and the store allow it.
		 * @return whether the store is now at or above the mark
		 */
		private boolean healForward(StoreRegressionException ex) {
			SegmentFetcher fetcher = SegmentFetcher.this;
			SegmentOptions options = fetcher.context.options();
			if (!options.healForward() || !(fetcher.context.store() instanceof SegmentKeyAdmin admin)) {
				return false;
			}
			long floor = healFloor(ex.knownMark(), options.healMargin());
			try {
				boolean raised = admin.raiseMaxId(fetcher.key, floor);
				logger.warn("Segment store answered key '{}' from {}, below this node's high mark {}; {} the key's "
						+ "max_id to {} (heal forward, margin {}). Numbers other nodes were given above {} in the lost "
						+ "window are safe only if the margin covers them", fetcher.key, ex.storeMark(),
						ex.knownMark(), raised ? "raised" : "another node already raised", floor, options.healMargin(),
						ex.knownMark());
				return true;
			}
			catch (UnsupportedOperationException unsupported) {
				return false;
			}
			catch (RuntimeException failure) {
				logger.warn("Could not raise the max_id of key '{}' to this node's high mark {}; the key stays "
						+ "refused and is tried again in {} s", fetcher.key, ex.knownMark(),
						TimeUnit.NANOSECONDS.toSeconds(fetcher.regressionRetryNanos()), failure);
				return false;
			}
		}

		void failed(Throwable ex) {
			SegmentFetcher fetcher = SegmentFetcher.this;
			int failures = fetcher.failuresInRow + 1;
			fetcher.failuresInRow = failures;
			fetcher.lastError = ex;
			fetcher.lastErrorMillis = fetcher.context.time().currentTimeMillis();
			Pending given = this.pending;
			if (failures == 1 && ex instanceof SegmentMarksException && given != null) {
				logger.warn("{}. Key '{}' keeps the range [{}, {}) the store gave and serves it once the mark is "
						+ "written; only the write is retried", ex.getMessage(), fetcher.key, given.allocation.start(),
						given.allocation.end());
			}
			else if (failures == 1) {
				logger.warn("Segment store call for key '{}' failed; retrying until it answers", fetcher.key, ex);
			}
			else {
				logger.debug("Fetch of key '{}' failed ({} in a row)", fetcher.key, failures, ex);
			}
			if (!fetcher.buffer.isActive()) {
				giveUp();
				return;
			}
			try {
				fetcher.context.scheduler().schedule(this::retry, retryDelayNanos(failures, fetcher.maxWaitNanos()),
						TimeUnit.NANOSECONDS);
			}
			catch (RejectedExecutionException rejected) {
				giveUp();
			}
		}

		private void retry() {
			this.claimed.set(false);
			submit(this);
		}

		private void giveUp() {
			if (this.predecessor.casState(Segment.FETCHING, Segment.FAILED)) {
				this.predecessor.successor.completeExceptionally(SegmentFetcher.this.buffer.retiredException());
			}
		}

	}

}
