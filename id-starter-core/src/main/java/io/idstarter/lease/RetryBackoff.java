package io.idstarter.lease;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.DoubleSupplier;

/**
 * How long the lease keeper waits before it retries a failed store call: a base interval (the heartbeat divided by
 * {@value #DIVISOR}, at least {@link #MIN_INTERVAL}) spread by up to {@value #JITTER} of itself either way, so that
 * the nodes of a fleet that all failed at the same moment (a store outage) do not all retry at the same moment when
 * it ends. Thread-safe and stateless apart from the random source.
 */
final class RetryBackoff {

	/** The base interval is the heartbeat divided by this. */
	static final int DIVISOR = 4;

	/** Shortest base interval, however short the heartbeat. */
	static final Duration MIN_INTERVAL = Duration.ofMillis(10);

	/** Fraction of the base interval by which a retry is moved earlier or later, uniformly. */
	static final double JITTER = 0.5;

	private final Duration base;

	/** Uniform in [0, 1). */
	private final DoubleSupplier random;

	RetryBackoff(Duration heartbeat) {
		this(heartbeat, () -> ThreadLocalRandom.current().nextDouble());
	}

	RetryBackoff(Duration heartbeat, DoubleSupplier random) {
		Duration divided = heartbeat.dividedBy(DIVISOR);
		this.base = (divided.compareTo(MIN_INTERVAL) < 0) ? MIN_INTERVAL : divided;
		this.random = Objects.requireNonNull(random, "random");
	}

	/**
	 * Returns the base interval, for messages ("retrying about every ...").
	 * @return the mean delay
	 */
	Duration base() {
		return this.base;
	}

	/**
	 * Returns the delay before the next retry.
	 * @return between {@code (1 - JITTER)} and {@code (1 + JITTER)} times the base interval
	 */
	Duration next() {
		double factor = 1 - JITTER + 2 * JITTER * this.random.getAsDouble();
		return Duration.ofNanos(Math.round(this.base.toNanos() * factor));
	}

}
