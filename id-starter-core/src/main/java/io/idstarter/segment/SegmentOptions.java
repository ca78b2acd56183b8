package io.idstarter.segment;

import java.time.Duration;
import java.util.Locale;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * Settings of a {@link SegmentIdGenerator}; immutable, built with {@link #builder()}.
 */
public final class SegmentOptions {

	/** Leaf's prefetch point: the next range is fetched once 10% of the current one is used. */
	public static final double DEFAULT_PREFETCH_THRESHOLD = 0.1;

	/**
	 * How long a caller waits for a range that is still being fetched. A fetch normally takes milliseconds and starts
	 * when 10% of the current range is used, so callers only wait on a key's first call or when the store is slow or
	 * down. Two seconds ride out a cold first connection, a pool hiccup, a GC pause or the first moments of a database
	 * fail-over, with several retries of the store inside the wait, and still fail well inside common client timeouts
	 * (5 to 30 s), so the caller gets an error that names the cause instead of a client-side timeout.
	 */
	public static final Duration DEFAULT_MAX_WAIT = Duration.ofSeconds(2);

	/** Leaf's key refresh: the key list is re-read from the store every minute. */
	public static final Duration DEFAULT_KEY_REFRESH_INTERVAL = Duration.ofSeconds(60);

	private static final SegmentOptions DEFAULTS = builder().build();

	private final double prefetchThreshold;

	private final Duration maxWait;

	private final Duration keyRefreshInterval;

	private final @Nullable String defaultKey;

	private final DynamicStep dynamicStep;

	private SegmentOptions(Builder builder) {
		this.prefetchThreshold = builder.prefetchThreshold;
		this.maxWait = builder.maxWait;
		this.keyRefreshInterval = builder.keyRefreshInterval;
		this.defaultKey = builder.defaultKey;
		this.dynamicStep = builder.dynamicStep;
	}

	/**
	 * Returns the defaults: prefetch at 10%, wait at most 2 s, refresh the keys every 60 s, no default key, Leaf's
	 * dynamic step.
	 * @return the default options
	 */
	public static SegmentOptions defaults() {
		return DEFAULTS;
	}

	/**
	 * Returns a builder that starts from the defaults.
	 * @return a new builder
	 */
	public static Builder builder() {
		return new Builder();
	}

	/**
	 * Returns a builder that starts from these options.
	 * @return a new builder
	 */
	public Builder toBuilder() {
		return new Builder().prefetchThreshold(this.prefetchThreshold)
			.maxWait(this.maxWait)
			.keyRefreshInterval(this.keyRefreshInterval)
			.defaultKey(this.defaultKey)
			.dynamicStep(this.dynamicStep);
	}

	/**
	 * Returns the share of the current range used before the next one is fetched.
	 * @return a value in (0, 1)
	 */
	public double prefetchThreshold() {
		return this.prefetchThreshold;
	}

	/**
	 * Returns how long a caller that finds both ranges of a key used up waits for the fetch in flight before it fails.
	 * @return a positive duration
	 */
	public Duration maxWait() {
		return this.maxWait;
	}

	/**
	 * Returns how often the key list is re-read from the store.
	 * @return a positive duration
	 */
	public Duration keyRefreshInterval() {
		return this.keyRefreshInterval;
	}

	/**
	 * Returns the key {@link SegmentIdGenerator#nextId()} uses.
	 * @return the key, or {@code null} if {@code nextId()} without a key is not allowed
	 */
	public @Nullable String defaultKey() {
		return this.defaultKey;
	}

	/**
	 * Returns the rule that sizes each range after a key's first.
	 * @return the rule
	 */
	public DynamicStep dynamicStep() {
		return this.dynamicStep;
	}

	@Override
	public String toString() {
		return String.format(Locale.ROOT,
				"SegmentOptions[prefetchThreshold=%s, maxWait=%s, keyRefreshInterval=%s, defaultKey=%s, dynamicStep=%s]",
				this.prefetchThreshold, this.maxWait, this.keyRefreshInterval, this.defaultKey, this.dynamicStep);
	}

	/**
	 * Builds {@link SegmentOptions}; each setter rejects a bad value at once with a message that names the option, the
	 * allowed range and the value.
	 */
	public static final class Builder {

		private double prefetchThreshold = DEFAULT_PREFETCH_THRESHOLD;

		private Duration maxWait = DEFAULT_MAX_WAIT;

		private Duration keyRefreshInterval = DEFAULT_KEY_REFRESH_INTERVAL;

		private @Nullable String defaultKey;

		private DynamicStep dynamicStep = DynamicStep.defaults();

		private Builder() {
		}

		/**
		 * Sets the share of the current range used before the next one is fetched (Leaf: 0.1).
		 * @param prefetchThreshold a value in (0, 1)
		 * @return this builder
		 * @throws IllegalArgumentException if the value is outside (0, 1)
		 */
		public Builder prefetchThreshold(double prefetchThreshold) {
			if (!(prefetchThreshold > 0 && prefetchThreshold < 1)) {
				throw new IllegalArgumentException("prefetchThreshold must be in (0, 1): " + prefetchThreshold);
			}
			this.prefetchThreshold = prefetchThreshold;
			return this;
		}

		/**
		 * Sets how long a caller that finds both ranges of a key used up waits for the fetch in flight.
		 * @param maxWait a positive duration
		 * @return this builder
		 * @throws IllegalArgumentException if the duration is zero or negative
		 */
		public Builder maxWait(Duration maxWait) {
			this.maxWait = requirePositive("maxWait", maxWait);
			return this;
		}

		/**
		 * Sets how often the key list is re-read from the store.
		 * @param keyRefreshInterval a positive duration
		 * @return this builder
		 * @throws IllegalArgumentException if the duration is zero or negative
		 */
		public Builder keyRefreshInterval(Duration keyRefreshInterval) {
			this.keyRefreshInterval = requirePositive("keyRefreshInterval", keyRefreshInterval);
			return this;
		}

		/**
		 * Sets the key {@link SegmentIdGenerator#nextId()} uses.
		 * @param defaultKey the key, or {@code null} for none
		 * @return this builder
		 * @throws IllegalArgumentException if the key is empty or blank
		 */
		public Builder defaultKey(@Nullable String defaultKey) {
			if (defaultKey != null && defaultKey.isBlank()) {
				throw new IllegalArgumentException("defaultKey must not be blank: '" + defaultKey + "'");
			}
			this.defaultKey = defaultKey;
			return this;
		}

		/**
		 * Sets the rule that sizes each range after a key's first.
		 * @param dynamicStep the rule
		 * @return this builder
		 */
		public Builder dynamicStep(DynamicStep dynamicStep) {
			this.dynamicStep = Objects.requireNonNull(dynamicStep, "dynamicStep");
			return this;
		}

		/**
		 * Builds the options.
		 * @return the options
		 */
		public SegmentOptions build() {
			return new SegmentOptions(this);
		}

		private static Duration requirePositive(String option, Duration value) {
			Objects.requireNonNull(value, option);
			if (value.isNegative() || value.isZero()) {
				throw new IllegalArgumentException(option + " must be positive: " + value);
			}
			return value;
		}

	}

}
