package io.idstarter.time;

/**
 * Wall-clock and monotonic time, injectable so tests can move the clock. Wall-clock time stamps the IDs; monotonic
 * time measures leases, timeouts and durations, which must not jump when the wall clock is adjusted.
 */
public interface TimeSource {

	/**
	 * Returns the wall-clock time.
	 * @return milliseconds since the Unix epoch
	 */
	long currentTimeMillis();

	/**
	 * Returns a monotonic time for measuring elapsed time only.
	 * @return nanoseconds from an arbitrary origin
	 */
	long nanoTime();

	/**
	 * Returns the system clock.
	 * @return a source backed by {@link System#currentTimeMillis()} and {@link System#nanoTime()}
	 */
	static TimeSource system() {
		return SystemTimeSource.INSTANCE;
	}

}
