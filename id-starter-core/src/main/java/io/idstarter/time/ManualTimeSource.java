package io.idstarter.time;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A {@link TimeSource} that moves only when told to, for tests. {@link #advance(Duration)} moves both clocks as time
 * passing would; {@link #stepWallClock(Duration)} and {@link #setWallClock(Instant)} move only the wall clock, as an
 * NTP step or an operator would. Thread-safe: tests may move it while other threads read it.
 */
public final class ManualTimeSource implements TimeSource {

	/** Wall-clock time in nanoseconds since the Unix epoch, so that advancing by fractions of a ms accumulates. */
	private final AtomicLong wallNanos;

	/** Monotonic time in nanoseconds from an arbitrary origin; only increases. */
	private final AtomicLong nanoTime;

	/**
	 * Creates a source whose wall clock starts at the system's current time and monotonic time at 0.
	 */
	public ManualTimeSource() {
		this(Instant.ofEpochMilli(System.currentTimeMillis()), 0);
	}

	/**
	 * Creates a source whose wall clock starts at {@code wallClock} and monotonic time at 0.
	 * @param wallClock the initial wall-clock time
	 */
	public ManualTimeSource(Instant wallClock) {
		this(wallClock, 0);
	}

	/**
	 * Creates a source whose clocks start at the given values.
	 * @param wallClock the initial wall-clock time, not before 1970-01-01T00:00:00Z
	 * @param nanoTime the initial monotonic time (any value: code under test must compare monotonic times by
	 * subtraction, and a value near {@link Long#MAX_VALUE} shows whether it does)
	 */
	public ManualTimeSource(Instant wallClock, long nanoTime) {
		this.wallNanos = new AtomicLong(toNanos(wallClock));
		this.nanoTime = new AtomicLong(nanoTime);
	}

	@Override
	public long currentTimeMillis() {
		return Math.floorDiv(this.wallNanos.get(), TimeUnit.MILLISECONDS.toNanos(1));
	}

	@Override
	public long nanoTime() {
		return this.nanoTime.get();
	}

	/**
	 * Returns the wall-clock time.
	 * @return the wall clock as an instant
	 */
	public Instant instant() {
		long nanos = this.wallNanos.get();
		return Instant.ofEpochSecond(Math.floorDiv(nanos, 1_000_000_000L), Math.floorMod(nanos, 1_000_000_000L));
	}

	/**
	 * Lets time pass: moves the wall clock and the monotonic clock forward by the same amount.
	 * @param duration how much, not negative
	 * @throws IllegalArgumentException if {@code duration} is negative
	 */
	public void advance(Duration duration) {
		Objects.requireNonNull(duration, "duration");
		if (duration.isNegative()) {
			throw new IllegalArgumentException("duration must not be negative (use stepWallClock): " + duration);
		}
		long nanos = duration.toNanos();
		this.wallNanos.addAndGet(nanos);
		this.nanoTime.addAndGet(nanos);
	}

	/**
	 * Lets {@code millis} milliseconds pass on both clocks.
	 * @param millis how many, not negative
	 * @throws IllegalArgumentException if {@code millis} is negative
	 */
	public void advanceMillis(long millis) {
		advance(Duration.ofMillis(millis));
	}

	/**
	 * Steps the wall clock forward or back, leaving monotonic time alone.
	 * @param delta how far; negative to move the wall clock back
	 */
	public void stepWallClock(Duration delta) {
		Objects.requireNonNull(delta, "delta");
		this.wallNanos.addAndGet(delta.toNanos());
	}

	/**
	 * Sets the wall clock, leaving monotonic time alone.
	 * @param wallClock the new wall-clock time, not before 1970-01-01T00:00:00Z
	 */
	public void setWallClock(Instant wallClock) {
		this.wallNanos.set(toNanos(wallClock));
	}

	private static long toNanos(Instant instant) {
		Objects.requireNonNull(instant, "instant");
		if (instant.isBefore(Instant.EPOCH)) {
			throw new IllegalArgumentException("wall clock must not be before " + Instant.EPOCH + ": " + instant);
		}
		return Math.addExact(Math.multiplyExact(instant.getEpochSecond(), 1_000_000_000L), instant.getNano());
	}

	@Override
	public String toString() {
		return "ManualTimeSource[wallClock=" + instant() + ", nanoTime=" + nanoTime() + "]";
	}

}
