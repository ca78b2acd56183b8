package io.idstarter.lease;

import java.time.Duration;

import io.idstarter.IdGenerationException;
import io.idstarter.time.TimeSource;

/**
 * The time one start (or borrow after a lost lease) may spend waiting: for the clock to pass a floor, or for a lost
 * layout record to be recorded again. Every wait of the start draws on one budget, maxStartupWait, so that the waits
 * together never take longer than it.
 */
final class StartupWait {

	/** Longest sleep between two looks at the clock or the store. */
	static final long POLL_MILLIS = 50;

	private final TimeSource time;

	private final Duration budget;

	/** This node's monotonic time at which the budget is spent. */
	private final long deadlineNanos;

	StartupWait(TimeSource time, Duration budget) {
		this.time = time;
		this.budget = budget;
		this.deadlineNanos = time.nanoTime() + budget.toNanos();
	}

	Duration budget() {
		return this.budget;
	}

	/**
	 * Returns what is left of the budget.
	 * @return milliseconds, not negative
	 */
	long remainingMillis() {
		return Math.max(0, (this.deadlineNanos - this.time.nanoTime()) / 1_000_000);
	}

	/**
	 * Waits until this node's clock is past {@code millis}.
	 * @param millis a timestamp, milliseconds since the Unix epoch
	 * @param waitingFor what is waited for, for the message if the thread is interrupted
	 * @return whether the clock passed it before the budget was spent
	 */
	boolean untilClockPast(long millis, String waitingFor) {
		for (;;) {
			long now = this.time.currentTimeMillis();
			if (now > millis) {
				return true;
			}
			if (this.deadlineNanos - this.time.nanoTime() <= 0) {
				return false;
			}
			sleep(Math.min(millis - now + 1, POLL_MILLIS), waitingFor);
		}
	}

	/**
	 * Sleeps for {@code millis}, or what is left of the budget if less.
	 * @param millis how long
	 * @param waitingFor what is waited for, for the message if the thread is interrupted
	 * @return {@code false} if the budget was spent already
	 */
	boolean pause(long millis, String waitingFor) {
		long left = remainingMillis();
		if (left <= 0) {
			return false;
		}
		sleep(Math.min(left, millis), waitingFor);
		return true;
	}

	private static void sleep(long millis, String waitingFor) {
		try {
			Thread.sleep(Math.max(1, millis));
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IdGenerationException("interrupted while waiting for " + waitingFor, ex);
		}
	}

}
