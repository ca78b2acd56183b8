package io.idstarter.lease;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Measures the offset between this node's clock and the lease store's from each store call (the store stamps its
 * answer with its own clock), and tells the lease keeper when it is beyond {@link LeaseSettings#maxClockSkew()}. Only
 * the part of the offset that the call's round trip cannot explain counts: the store read its clock somewhere within
 * the call, so the midpoint estimate may be off by half the round trip either way. Not thread-safe: the keeper calls
 * it under its lock.
 */
final class ClockOffsetGuard {

	private static final Logger logger = LoggerFactory.getLogger(WorkerLeaseKeeper.class);

	/** An offset between this node's clock and the store's beyond this is logged as a warning. */
	static final Duration WARNING = Duration.ofSeconds(1);

	private final @Nullable Duration bound;

	// The last measurement: offset and round trip are written together by measure(), read by the other methods.

	/** The store's clock minus this node's at the midpoint of the last successful call; null before the first. */
	private @Nullable Duration offset;

	/** How long the call that measured {@link #offset} took, in milliseconds. */
	private long roundTripMillis;

	/** Whether the current run of large offsets has been warned about; reset once the offset is small again. */
	private boolean warned;

	/**
	 * @param bound the largest offset allowed, or {@code null} for no check
	 */
	ClockOffsetGuard(@Nullable Duration bound) {
		this.bound = bound;
	}

	/**
	 * Records the offset seen by a store call that started at {@code wallBefore} / {@code nanosBefore} and answered
	 * with the store's time.
	 * @param prefix log prefix naming the namespace and slot
	 */
	void measure(String prefix, long storeTimeMillis, long wallBefore, long nanosBefore, long nanosAfter) {
		long elapsedMillis = TimeUnit.NANOSECONDS.toMillis(nanosAfter - nanosBefore);
		this.roundTripMillis = elapsedMillis;
		Duration measured = Duration.ofMillis(storeTimeMillis - (wallBefore + elapsedMillis / 2));
		this.offset = measured;
		boolean large = certainOffsetMillis() > WARNING.toMillis();
		if (large && !this.warned) {
			logger.warn("{}this node's clock is {} ms {} the lease store's (measured over a {} ms round trip); check "
					+ "clock synchronisation", prefix, measured.abs().toMillis(),
					measured.isNegative() ? "ahead of" : "behind", elapsedMillis);
		}
		this.warned = large;
	}

	/**
	 * Returns the last measured offset.
	 * @return the store's clock minus this node's, or {@code null} before the first measurement
	 */
	@Nullable Duration offset() {
		return this.offset;
	}

	private long certainOffsetMillis() {
		Duration measured = this.offset;
		return (measured != null) ? Math.max(0, measured.abs().toMillis() - this.roundTripMillis / 2) : 0;
	}

	/**
	 * Returns why this node's clock is too far from the store's, or {@code null} when it is within the bound, nothing
	 * was measured yet, or the guard is off.
	 * @param prefix message prefix naming the namespace and slot
	 */
	@Nullable ClockSkewException check(String prefix) {
		Duration max = this.bound;
		Duration measured = this.offset;
		if (max == null || measured == null || certainOffsetMillis() <= max.toMillis()) {
			return null;
		}
		return new ClockSkewException(prefix + "this node's clock is " + measured.abs().toMillis() + " ms "
				+ (measured.isNegative() ? "ahead of" : "behind") + " the lease store's (measured over a "
				+ this.roundTripMillis + " ms round trip), more than maxClockSkew (" + LeaseSettings.format(max)
				+ "); fix clock synchronisation (NTP) on this node, or raise the bound", measured.toMillis());
	}

}
