package io.idstarter.segment;

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
	 */

	/** Delay of the next poll after one that found fetches. */
	static final long POLL_MIN_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

	/** Longest delay between polls while not idle: how long a requested fetch may wait in the queue. */
	static final long POLL_MAX_NANOS = TimeUnit.MILLISECONDS.toNanos(4);

	/** Time without a requested fetch after which the poll stops until the next request. */
	static final long IDLE_AFTER_NANOS = TimeUnit.SECONDS.toNanos(1);

	private final ScheduledExecutorService scheduler;

	private final long idleAfterNanos;

	/**
	 * Hand-overs of the fetches requested since the latest poll (Fetch::dispatch, which does nothing for a fetch a
	 * waiting caller claimed meanwhile).
	 */
	private final ConcurrentLinkedQueue<Runnable> queued = new ConcurrentLinkedQueue<>();

	/** True while no poll is scheduled; the poll is started by whoever turns it false. */
	private final AtomicBoolean idle = new AtomicBoolean(true);

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
		boolean found = drain();
		if (found) {
			this.delayNanos = POLL_MIN_NANOS;
			this.quietNanos = 0;
		}
		else {
			this.quietNanos += this.delayNanos;
			if (this.quietNanos >= this.idleAfterNanos) {
				this.idle.set(true);
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

	private void schedule(Runnable poll, long delayNanos) {
		try {
			this.scheduler.schedule(poll, delayNanos, TimeUnit.NANOSECONDS);
		}
		catch (RejectedExecutionException ex) {
			// The generator closed: its buffers retired, and waiting callers no longer wait for the pool.
		}
	}

}
