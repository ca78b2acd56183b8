package io.idstarter.segment;

import java.util.ArrayDeque;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Validate;
import org.junit.jupiter.api.Test;

/**
 * {@link PrefetchDispatcher}'s idle protocol under model checking: offers race the poll that goes idle (after finding
 * nothing once), and the poll runs only when an operation runs what was scheduled. After every execution, running
 * what is still scheduled must run every hand-over offered: an offer that slipped in between the poll's "idle" and
 * its last look at the queue, with nobody scheduled to take it, would be left behind for good.
 */
public class PrefetchDispatcherLincheckTests {

	private final ManualScheduler scheduler = new ManualScheduler();

	private final PrefetchDispatcher dispatcher = new PrefetchDispatcher(this.scheduler, /* idleAfterNanos= */ 1);

	private final AtomicInteger offered = new AtomicInteger();

	private final AtomicInteger handedOver = new AtomicInteger();

	@Operation
	public void offer() {
		this.offered.incrementAndGet();
		this.dispatcher.offer(this.handedOver::incrementAndGet);
	}

	@Operation
	public void poll() {
		this.scheduler.runOne();
	}

	@Validate
	public void everyOfferIsHandedOver() {
		// The poll goes idle after one empty round here, so this ends.
		this.scheduler.runUntilIdle();
		if (this.handedOver.get() != this.offered.get()) {
			throw new IllegalStateException(this.offered.get() + " offered, " + this.handedOver.get()
					+ " handed over: an offer was left in the queue with no poll scheduled");
		}
	}

	@Test
	void noOfferIsLeftBehindWhenThePollGoesIdle() {
		new ModelCheckingOptions().threads(3)
			.actorsPerThread(2)
			.actorsBefore(1)
			.actorsAfter(1)
			.iterations(10)
			.invocationsPerIteration(200)
			.check(PrefetchDispatcherLincheckTests.class);
	}

	/** Keeps scheduled tasks until an operation runs them, one at a time, regardless of their delay. */
	static final class ManualScheduler extends ScheduledThreadPoolExecutor {

		private final ArrayDeque<Runnable> scheduled = new ArrayDeque<>();

		ManualScheduler() {
			super(1);
		}

		@Override
		public ScheduledFuture<?> schedule(Runnable command, long delay, TimeUnit unit) {
			synchronized (this.scheduled) {
				this.scheduled.add(command);
			}
			return null;
		}

		/** Runs what is scheduled, and what that schedules, until nothing is; fails if the poll never goes idle. */
		void runUntilIdle() {
			for (int rounds = 0; runOne(); rounds++) {
				if (rounds > 1000) {
					throw new IllegalStateException("the poll never went idle");
				}
			}
		}

		boolean runOne() {
			Runnable task;
			synchronized (this.scheduled) {
				task = this.scheduled.poll();
			}
			if (task == null) {
				return false;
			}
			task.run();
			return true;
		}

	}

}
