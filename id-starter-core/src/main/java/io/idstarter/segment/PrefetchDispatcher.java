package io.idstarter.segment;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Hands requested fetches to the prefetch pool without the requesting caller waking a thread: the caller only queues
 * the fetch; a poll on the generator's scheduler thread, every few milliseconds while fetches are being requested,
 * passes it to the pool. Waking a parked thread costs its waker tens of microseconds on a virtual machine, as much as
 * thousands of IDs; paid by the caller whose ID crosses the prefetch threshold, it was the slowest call of every range.
 * While it runs, the poll also watches buffers whose ranges outlast a fetch by far: it finds their claimed prefetch
 * points itself, so that their callers do not even queue the request (a few dozen microseconds whenever that rarely
 * run code is not compiled).
 */
final class PrefetchDispatcher {

	/*
	 * Protocol. `offer` appends to `queued` and, only if the poll has gone idle, wakes it (the one caller after a quiet
	 * second pays the wake-up). The poll drains `queued`, runs each hand-over (Fetch.dispatch, which skips a fetch a
	 * waiting caller already runs or handed over itself), and reschedules itself: POLL_MIN_NANOS after finding work,
	 * doubling to POLL_MAX_NANOS while it finds none, and idle after idleAfterNanos (IDLE_AFTER_NANOS) without work.
	 * Going idle sets `idle` and then looks at the queue once more, and `offer` adds before it reads `idle`, so a fetch
	 * queued meanwhile is either seen by that last look or wakes the poll: none is left behind. A fetch waits in the
	 * queue at most POLL_MAX_NANOS (plus the scheduler's delay); a caller that needs its range before then hands it
	 * over itself (SegmentFetcher.runQueued). Runs of the poll never overlap: each schedules the next, and a wake-up
	 * only schedules one after winning the CAS of `idle` from true to false. PrefetchDispatcherLincheckTests
	 * model-checks the hand-off to idle.
	 *
	 * Watching. `watch` adds a buffer to `watched` and sets its flag, then reads `idle`; going idle sets `idle` and then
	 * stops watching every buffer in `watched`: one of the two always sees the other, so no buffer stays flagged while
	 * no poll runs. Stopping to watch clears the buffer's flag and then looks at its prefetch point once more
	 * (Watched.requestIfClaimed), which its callers read after their claims: a claimed prefetch point is requested by
	 * the caller or by that last look. Each poll asks every watched buffer whether its prefetch point was claimed, and
	 * forgets buffers that retired. At most MAX_WATCHED buffers are watched (a few more when watches race), so that a
	 * poll's work stays bounded however many keys are busy: the callers of others request as unwatched ones do.
	 */

	/** Delay of the next poll after one that found fetches. */
	static final long POLL_MIN_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

	/** Longest delay between polls while not idle: how long a requested fetch may wait in the queue. */
	static final long POLL_MAX_NANOS = TimeUnit.MILLISECONDS.toNanos(4);

	/** Time without a requested fetch after which the poll stops until the next request. */
	static final long IDLE_AFTER_NANOS = TimeUnit.SECONDS.toNanos(1);

	/** Most buffers watched at once. */
	static final int MAX_WATCHED = 256;

	private final ScheduledExecutorService scheduler;

	private final long idleAfterNanos;

	/**
	 * Hand-overs of the fetches requested since the latest poll (Fetch::dispatch, which does nothing for a fetch a
	 * waiting caller claimed meanwhile).
	 */
	private final ConcurrentLinkedQueue<Runnable> queued = new ConcurrentLinkedQueue<>();

	/** True while no poll is scheduled; the poll is started by whoever turns it false. */
	private final AtomicBoolean idle = new AtomicBoolean(true);

	/** Buffers whose prefetch points the poll watches; each one's flag is set while it is here. */
	private final Set<Watched> watched = ConcurrentHashMap.newKeySet();

	// Confined to the poll (runs never overlap).

	private long delayNanos = POLL_MIN_NANOS;

	private long quietNanos;

	PrefetchDispatcher(ScheduledExecutorService scheduler) {
		this(scheduler, IDLE_AFTER_NANOS);
	}

	PrefetchDispatcher(ScheduledExecutorService scheduler, long idleAfterNanos) {
		this.scheduler = scheduler;
		this.idleAfterNanos = idleAfterNanos;
	}

	/**
	 * Queues the hand-over of a requested fetch to the pool; wakes the poll only if it is idle.
	 * @param handOver passes the fetch to the executor unless it was started or handed over already
	 */
	void offer(Runnable handOver) {
		this.queued.offer(handOver);
		if (this.idle.get() && this.idle.compareAndSet(true, false)) {
			schedule(this::wake, 0);
		}
	}

	/**
	 * Watches a buffer's prefetch points from now on, while the poll runs: its callers leave the requests to the poll.
	 * Call it where requests may wait for the poll's delay (ranges that outlast a fetch by far).
	 * @param buffer the buffer
	 */
	void watch(Watched buffer) {
		if (this.watched.size() >= MAX_WATCHED && !this.watched.contains(buffer)) {
			return;
		}
		if (this.watched.add(buffer)) {
			buffer.watched(true);
		}
		if (this.idle.get()) {
			unwatch(buffer);
		}
	}

	/**
	 * Stops watching a buffer: its callers request their fetches themselves again, and a prefetch point claimed while
	 * it was watched is requested now.
	 * @param buffer the buffer
	 */
	void unwatch(Watched buffer) {
		this.watched.remove(buffer);
		buffer.watched(false);
		buffer.requestIfClaimed();
	}

	private void wake() {
		this.delayNanos = POLL_MIN_NANOS;
		this.quietNanos = 0;
		poll();
	}

	/**
	 * Runs every queued hand-over.
	 * @return whether any was queued
	 */
	boolean drain() {
		boolean found = false;
		Runnable handOver;
		while ((handOver = this.queued.poll()) != null) {
			found = true;
			handOver.run();
		}
		return found;
	}

	private void poll() {
		boolean found = requestClaimed();
		found |= drain();
		if (found) {
			this.delayNanos = POLL_MIN_NANOS;
			this.quietNanos = 0;
		}
		else {
			this.quietNanos += this.delayNanos;
			if (this.quietNanos >= this.idleAfterNanos) {
				this.idle.set(true);
				for (Watched buffer : this.watched) {
					unwatch(buffer);
				}
				// A fetch offered before `idle` was set did not wake the poll: take it now.
				if (this.queued.isEmpty() || !this.idle.compareAndSet(true, false)) {
					return;
				}
				this.quietNanos = 0;
			}
			this.delayNanos = Math.min(this.delayNanos * 2, POLL_MAX_NANOS);
		}
		schedule(this::poll, this.delayNanos);
	}

	/**
	 * Requests the fetches of the watched buffers whose prefetch points were claimed, and forgets retired buffers.
	 * @return whether any was requested
	 */
	private boolean requestClaimed() {
		boolean requested = false;
		for (Watched buffer : this.watched) {
			if (!buffer.isActive()) {
				this.watched.remove(buffer);
			}
			else if (buffer.requestIfClaimed()) {
				requested = true;
			}
		}
		return requested;
	}

	private void schedule(Runnable poll, long delayNanos) {
		try {
			this.scheduler.schedule(poll, delayNanos, TimeUnit.NANOSECONDS);
		}
		catch (RejectedExecutionException ex) {
			// The generator closed: its buffers retired, and waiting callers no longer wait for the pool.
		}
	}

	/** A buffer whose prefetch points the poll can watch. */
	interface Watched {

		/**
		 * Sets the flag the buffer's callers read after claiming a prefetch point: while set, they leave the request
		 * to the poll.
		 * @param watched whether the poll watches the buffer
		 */
		void watched(boolean watched);

		/**
		 * Requests the fetch of the current segment's successor if its prefetch point was claimed and it was not
		 * requested yet.
		 * @return whether it was requested now
		 */
		boolean requestIfClaimed();

		/**
		 * Returns whether the buffer is still in use.
		 * @return false once it retired
		 */
		boolean isActive();

	}

}
