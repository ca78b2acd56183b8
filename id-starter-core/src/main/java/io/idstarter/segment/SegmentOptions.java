package io.idstarter.segment;

import java.time.Duration;
import java.util.Locale;
import java.util.Objects;

import io.idstarter.InvalidSettingException;
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

	/** Largest thread chunk: beyond this a chunk buys no more speed and only strands more numbers per thread. */
	public static final int MAX_THREAD_CHUNK_SIZE = 65_536;

	private static final SegmentOptions DEFAULTS = builder().build();

	private final double prefetchThreshold;

	private final Duration maxWait;

	private final Duration keyRefreshInterval;

	private final @Nullable String defaultKey;

	private final DynamicStep dynamicStep;

	private final int threadChunkSize;

	private final boolean healForward;

	private final boolean giveBackOnClose;

	private final long healMargin;

	private SegmentOptions(Builder builder) {
		this.prefetchThreshold = builder.prefetchThreshold;
		this.maxWait = builder.maxWait;
		this.keyRefreshInterval = builder.keyRefreshInterval;
		this.defaultKey = builder.defaultKey;
		this.dynamicStep = builder.dynamicStep;
		this.threadChunkSize = builder.threadChunkSize;
		this.healForward = builder.healForward;
		this.giveBackOnClose = builder.giveBackOnClose;
		this.healMargin = builder.healMargin;
	}

	/**
	 * Returns the defaults: prefetch at 10%, wait at most 2 s, refresh the keys every 60 s, no default key, Leaf's
	 * dynamic step, no thread chunks (strict order per instance).
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
			.dynamicStep(this.dynamicStep)
			.threadChunkSize(this.threadChunkSize)
			.healForward(this.healForward)
			.giveBackOnClose(this.giveBackOnClose)
			.healMargin(this.healMargin);
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
	 * A caller that finds the fetch still queued runs it itself if the store allows it
	 * ({@link SegmentStore#supportsCallerThreadAllocation()}), answered its latest call within 1 ms and has not failed
	 * since; that time counts against its wait, but a store call it has started ends only when the store answers or
	 * times out.
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

	/**
	 * Returns how many numbers each platform thread takes from a key's range at a time; 0 when off.
	 * @return 0, or a size in [1, {@value #MAX_THREAD_CHUNK_SIZE}]
	 * @see Builder#threadChunkSize(int)
	 */
	public int threadChunkSize() {
		return this.threadChunkSize;
	}

	/**
	 * Returns whether a store found below this node's high mark of a key is moved up past the mark.
	 * @return {@code false} unless turned on
	 * @see Builder#healForward(boolean)
	 */
	public boolean healForward() {
		return this.healForward;
	}

	/**
	 * Returns how far past this node's high mark a store found below it is moved.
	 * @return the margin, at least 0
	 * @see Builder#healMargin(long)
	 */
	public long healMargin() {
		return this.healMargin;
	}

	/**
	 * Returns whether a graceful close gives the unused tail of each key's range back to the store.
	 * @return {@code true} by default
	 * @see Builder#giveBackOnClose(boolean)
	 */
	public boolean giveBackOnClose() {
		return this.giveBackOnClose;
	}

	@Override
	public String toString() {
		return String.format(Locale.ROOT,
				"SegmentOptions[prefetchThreshold=%s, maxWait=%s, keyRefreshInterval=%s, defaultKey=%s, dynamicStep=%s, "
						+ "threadChunkSize=%d, healForward=%s, healMargin=%d, giveBackOnClose=%s]",
				this.prefetchThreshold, this.maxWait, this.keyRefreshInterval, this.defaultKey, this.dynamicStep,
				this.threadChunkSize, this.healForward, this.healMargin, this.giveBackOnClose);
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

		private int threadChunkSize;

		private boolean healForward;

		private long healMargin;

		private boolean giveBackOnClose = true;

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
				throw new InvalidSettingException("prefetchThreshold", "prefetchThreshold must be in (0, 1): " + prefetchThreshold);
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
		 * @throws IllegalArgumentException if the key is blank or longer than {@value SegmentKeys#MAX_KEY_LENGTH}
		 * characters
		 */
		public Builder defaultKey(@Nullable String defaultKey) {
			if (defaultKey != null && (defaultKey.isBlank() || defaultKey.length() > SegmentKeys.MAX_KEY_LENGTH)) {
				throw new InvalidSettingException("defaultKey", "defaultKey must be 1 to " + SegmentKeys.MAX_KEY_LENGTH
						+ " characters and not blank: '" + defaultKey + "'");
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
		 * Lets each platform thread take {@code threadChunkSize} numbers of a key's range with one atomic add and
		 * hand them out without touching memory shared with other threads. Opt-in, for many threads drawing IDs of
		 * one key at high rates: two threads on one shared cursor lose most of its speed to cache-line contention.
		 *
		 * <p>The price: IDs stay unique and each thread's IDs still increase, but IDs are no longer in the order they
		 * were handed out across threads (a thread may still be using its chunk of an older range while others use a
		 * newer one). Numbers a thread holds but never uses (it goes idle or ends, the generator closes) are gaps: up
		 * to {@code threadChunkSize - 1} per thread and key. Virtual threads always use the shared cursor, because a
		 * chunk per short-lived virtual thread would strand most of each chunk. A chunk never reaches past the end of
		 * its range. Up to 256 platform threads per key hold a chunk at a time (slots by thread ID); a thread that finds
		 * no free slot uses the shared cursor. The slot of a thread that ended is freed at the next key refresh.
		 * @param threadChunkSize 0 to turn off (the default: strict order per instance), or a size in
		 * [1, {@value SegmentOptions#MAX_THREAD_CHUNK_SIZE}]; 64 to 1024 is plenty
		 * @return this builder
		 * @throws IllegalArgumentException if the size is negative or too large
		 */
		public Builder threadChunkSize(int threadChunkSize) {
			if (threadChunkSize < 0 || threadChunkSize > MAX_THREAD_CHUNK_SIZE) {
				throw new InvalidSettingException("threadChunkSize", String.format(Locale.ROOT,
						"threadChunkSize must be 0 (off) or in [1, %d]: %d", MAX_THREAD_CHUNK_SIZE, threadChunkSize));
			}
			this.threadChunkSize = threadChunkSize;
			return this;
		}

		/**
		 * Sets whether a store that answers a key's range below this node's high mark of the key, or no longer has a
		 * key this node used (the store lost writes), is moved past the mark: one conditional update that only ever
		 * raises the key's max_id, to the mark plus {@link #healMargin(long) healMargin}
		 * ({@link SegmentKeyAdmin#raiseMaxId}, or {@link SegmentKeyAdmin#createKey} for a missing key), after which the
		 * key is served again instead of staying refused until an operator raises it. The refusal is still logged and
		 * counted. Stores that are not a {@link SegmentKeyAdmin} stay refused.
		 *
		 * <p>Off by default, because this node knows only its own mark: when several nodes served the key, the
		 * numbers other nodes were given above this node's mark in the lost window are handed out again unless the
		 * margin covers them. The Redis failover drill without {@code WAIT} repeated 4,000 numbers (one range of
		 * another node) with a margin of 0.
		 * @param healForward {@code true} to move the store forward, {@code false} (the default) to only refuse
		 * @return this builder
		 */
		public Builder healForward(boolean healForward) {
			this.healForward = healForward;
			return this;
		}

		/**
		 * Sets how far past this node's high mark heal forward moves a key: at least what every node serving the key
		 * may have been given in the window the store lost (nodes x the largest step x fetches in that window).
		 * @param healMargin numbers, at least 0
		 * @return this builder
		 * @throws IllegalArgumentException if the margin is negative
		 */
		public Builder healMargin(long healMargin) {
			if (healMargin < 0) {
				throw new InvalidSettingException("healMargin", "healMargin must be at least 0: " + healMargin);
			}
			this.healMargin = healMargin;
			return this;
		}

		/**
		 * Sets whether {@link SegmentIdGenerator#close()} gives back what was not issued: the unused tail of each key's
		 * current range, and its prefetched range, each by one compare-and-set in the store
		 * ({@link SegmentStore#giveBack}) that succeeds only where nobody allocated after it. The next range (of this
		 * or any node) then starts where this node stopped, so a restart leaves no gap. Numbers handed out before the
		 * close are never given back, including those in a thread's chunk, and none is handed out after. A store
		 * that cannot give back leaves the gap, as with {@code false}.
		 * @param giveBackOnClose {@code true} (the default) to give back, {@code false} to leave the gaps
		 * @return this builder
		 */
		public Builder giveBackOnClose(boolean giveBackOnClose) {
			this.giveBackOnClose = giveBackOnClose;
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
				throw new InvalidSettingException(option, option + " must be positive: " + value);
			}
			return value;
		}

	}

}
