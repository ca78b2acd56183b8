package io.idstarter.snowflake;

import java.time.Duration;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * What a {@link SnowflakeIdGenerator} does when the wall clock is behind the timestamp of its last ID. A step back of
 * up to {@link #maxWait()} is waited out (the caller is parked until the clock passes that timestamp). A larger one
 * either fails each call with a {@link ClockMovedBackwardsException} until the clock has caught up (the
 * {@linkplain #defaults() default}), or is tolerated: IDs keep coming from the last timestamp, moving on to the next
 * millisecond whenever its sequence is used up, so they stay unique and increasing while they run ahead of the clock.
 */
public final class ClockBackwardsPolicy {

	/**
	 * Longest step back that is waited out by default: 5 ms. Steps of a few milliseconds come from corrections of
	 * virtual-machine clocks and from reading the clock on different cores; waiting them out costs a caller less than
	 * a failure and stays within a request's latency budget. Larger steps are deliberate: ntpd steps the clock only
	 * beyond 128 ms, a leap second is 1 s, and waiting those out would stall every caller for that long.
	 */
	public static final Duration DEFAULT_MAX_WAIT = Duration.ofMillis(5);

	/** Longest wait bound accepted: callers are parked for up to this long. */
	public static final Duration MAX_MAX_WAIT = Duration.ofMinutes(1);

	private static final ClockBackwardsPolicy DEFAULTS = new ClockBackwardsPolicy(DEFAULT_MAX_WAIT, false);

	private final Duration maxWait;

	private final boolean tolerant;

	private ClockBackwardsPolicy(Duration maxWait, boolean tolerant) {
		this.maxWait = maxWait;
		this.tolerant = tolerant;
	}

	/**
	 * Returns the default policy: wait out steps back of up to {@link #DEFAULT_MAX_WAIT}, fail on larger ones.
	 * @return the policy
	 */
	public static ClockBackwardsPolicy defaults() {
		return DEFAULTS;
	}

	/**
	 * Returns a policy that waits out steps back of up to {@code maxWait} and fails on larger ones.
	 * @param maxWait longest step waited out, 0 to {@link #MAX_MAX_WAIT}
	 * @return the policy
	 * @throws IllegalArgumentException if {@code maxWait} is out of range
	 */
	public static ClockBackwardsPolicy failAfter(Duration maxWait) {
		return new ClockBackwardsPolicy(validate(maxWait), false);
	}

	/**
	 * Returns a policy that waits out steps back of up to {@code maxWait} and keeps issuing IDs from the last
	 * timestamp through larger ones. Their timestamps then run ahead of the clock until it catches up; within a
	 * worker lease they stay below the lease's ceiling, so the node stops before it could reach the next owner's
	 * range.
	 * @param maxWait longest step waited out, 0 to {@link #MAX_MAX_WAIT}
	 * @return the policy
	 * @throws IllegalArgumentException if {@code maxWait} is out of range
	 */
	public static ClockBackwardsPolicy tolerate(Duration maxWait) {
		return new ClockBackwardsPolicy(validate(maxWait), true);
	}

	private static Duration validate(Duration maxWait) {
		Objects.requireNonNull(maxWait, "maxWait");
		if (maxWait.isNegative() || maxWait.compareTo(MAX_MAX_WAIT) > 0) {
			throw new IllegalArgumentException(
					"maxWait must be in [0ms, " + MAX_MAX_WAIT.toMillis() + "ms]: " + maxWait.toMillis() + "ms");
		}
		return maxWait;
	}

	/**
	 * Returns the longest step back that is waited out.
	 * @return the wait bound
	 */
	public Duration maxWait() {
		return this.maxWait;
	}

	/**
	 * Returns whether larger steps back are tolerated (otherwise they fail).
	 * @return {@code true} if IDs keep coming from the last timestamp
	 */
	public boolean isTolerant() {
		return this.tolerant;
	}

	@Override
	public boolean equals(@Nullable Object other) {
		return (other instanceof ClockBackwardsPolicy that) && this.maxWait.equals(that.maxWait)
				&& this.tolerant == that.tolerant;
	}

	@Override
	public int hashCode() {
		return Objects.hash(this.maxWait, this.tolerant);
	}

	@Override
	public String toString() {
		return "wait up to " + this.maxWait.toMillis() + "ms, then "
				+ (this.tolerant ? "issue from the last timestamp" : "fail");
	}

}
