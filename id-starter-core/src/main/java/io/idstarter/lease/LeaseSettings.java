package io.idstarter.lease;

import java.net.InetAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.Objects;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;

import io.idstarter.InvalidSettingException;
import io.idstarter.snowflake.RecordedLayout;
import org.jspecify.annotations.Nullable;

/**
 * How a {@link WorkerLeaseKeeper} holds its worker ID; immutable, validated when built. Single values are checked by
 * the builder's setters, combinations by {@link Builder#build()}.
 */
public final class LeaseSettings {

	/** Namespace used when none is set. */
	public static final String DEFAULT_NAMESPACE = "default";

	/** Lease duration without renewal, by the store's clock. */
	public static final Duration DEFAULT_TTL = Duration.ofSeconds(30);

	/** Time between renewals. */
	public static final Duration DEFAULT_HEARTBEAT = Duration.ofSeconds(10);

	/**
	 * How much earlier than the lease's TTL this node stops issuing when renewals fail: covers the store call's own
	 * latency and drift between this node's and the store's clock rates.
	 */
	public static final Duration DEFAULT_SAFETY_MARGIN = Duration.ofSeconds(5);

	/**
	 * Largest difference between this node's clock and the store's before Snowflake IDs are refused. NTP keeps
	 * servers within milliseconds; a node seconds off stamps IDs out of order with its peers, a sign to fix its clock.
	 */
	public static final Duration DEFAULT_MAX_CLOCK_SKEW = Duration.ofSeconds(2);

	/** Shortest TTL a store must accept (see {@link LeaseRequest}). */
	public static final Duration MIN_TTL = Duration.ofSeconds(1);

	private final String namespace;

	private final Duration ttl;

	private final Duration heartbeat;

	private final Duration safetyMargin;

	/** Who holds the lease; null for this process's default, looked up only when asked for. */
	private final @Nullable String instance;

	private final @Nullable Path cacheFile;

	private final Duration maxStartupWait;

	private final @Nullable Duration maxClockSkew;

	private final SortedSet<Integer> excludedWorkerIds;

	private final @Nullable String layoutPreset;

	private final @Nullable RecordedLayout replacedLayout;

	private final @Nullable Instant issueFrom;

	private LeaseSettings(Builder builder) {
		this.namespace = builder.namespace;
		this.ttl = builder.ttl;
		this.heartbeat = builder.heartbeat;
		this.safetyMargin = builder.safetyMargin;
		this.instance = builder.instance;
		this.cacheFile = builder.cacheFile;
		this.maxStartupWait = (builder.maxStartupWait != null) ? builder.maxStartupWait : builder.ttl;
		this.maxClockSkew = builder.maxClockSkew;
		this.excludedWorkerIds = Collections.unmodifiableSortedSet(new TreeSet<>(builder.excludedWorkerIds));
		this.layoutPreset = builder.layoutPreset;
		this.replacedLayout = builder.replacedLayout;
		this.issueFrom = builder.issueFrom;
	}

	/**
	 * Returns the defaults: namespace {@value #DEFAULT_NAMESPACE}, TTL 30 s, heartbeat 10 s, safety margin 5 s,
	 * instance host name and process ID, no cache file, startup wait up to the TTL, clock skew up to 2 s.
	 * @return the default settings
	 */
	public static LeaseSettings defaults() {
		return builder().build();
	}

	public static Builder builder() {
		return new Builder();
	}

	/**
	 * Returns the slot space shared by the instances that must not collide.
	 * @return the namespace
	 */
	public String namespace() {
		return this.namespace;
	}

	/**
	 * Returns how long a lease lasts without renewal, by the store's clock.
	 * @return the TTL
	 */
	public Duration ttl() {
		return this.ttl;
	}

	/**
	 * Returns the time between renewals.
	 * @return the heartbeat
	 */
	public Duration heartbeat() {
		return this.heartbeat;
	}

	/**
	 * Returns how much before the TTL, counted from when a renewal was sent, this node stops issuing.
	 * @return the safety margin
	 */
	public Duration safetyMargin() {
		return this.safetyMargin;
	}

	/**
	 * Returns who holds the lease, for operators.
	 * @return the instance name
	 */
	public String instance() {
		return (this.instance != null) ? this.instance : DefaultInstance.NAME;
	}

	/**
	 * Returns where the last worker ID is remembered so a restart asks for the same slot.
	 * @return the file, or {@code null} for none
	 */
	public @Nullable Path cacheFile() {
		return this.cacheFile;
	}

	/**
	 * Returns how long a start (or a borrow after a lost lease) may wait in all: for this node's clock to pass the
	 * first instant of {@link #issueFrom()}, the layout record's floor and the slot's timestamp floor, and for a lost
	 * layout record to be recorded again.
	 * @return the bound
	 */
	public Duration maxStartupWait() {
		return this.maxStartupWait;
	}

	/**
	 * Returns how far this node's clock may be from the store's (after allowing for the round trip) before start is
	 * refused and issuing stops.
	 * @return the bound, or {@code null} when the clock-skew guard is off
	 */
	public @Nullable Duration maxClockSkew() {
		return this.maxClockSkew;
	}

	/**
	 * Returns the worker IDs this node never borrows, such as the ones an old fleet still uses during a switch.
	 * @return the worker IDs, sorted; empty for none
	 */
	public SortedSet<Integer> excludedWorkerIds() {
		return this.excludedWorkerIds;
	}

	/**
	 * Returns the name of the preset the generator's layout was chosen by, recorded with the layout for people to read.
	 * @return the preset's name, or {@code null} for a layout set by its values
	 */
	public @Nullable String layoutPreset() {
		return this.layoutPreset;
	}

	/**
	 * Returns the layout a planned change replaces: when the namespace records this layout, this node replaces it by
	 * its own if every ID it can issue sorts above the old layout's (see docs/snowflake.md).
	 * @return the layout replaced, or {@code null} for no change
	 */
	public @Nullable RecordedLayout replacedLayout() {
		return this.replacedLayout;
	}

	/**
	 * Returns the first instant this node may issue at, such as the one from which its IDs sort above an old
	 * generator's ({@link io.idstarter.snowflake.SnowflakeTakeover#check}): start waits for it together with the
	 * layout record's floor, within {@link #maxStartupWait()} in all.
	 * @return the instant, or {@code null} for none
	 * @since 0.2.0
	 */
	public @Nullable Instant issueFrom() {
		return this.issueFrom;
	}

	/**
	 * Returns a builder initialised with these settings.
	 * @return the builder
	 */
	public Builder toBuilder() {
		Builder builder = builder().namespace(this.namespace)
			.ttl(this.ttl)
			.heartbeat(this.heartbeat)
			.safetyMargin(this.safetyMargin)
			.cacheFile(this.cacheFile)
			.maxStartupWait(this.maxStartupWait)
			.maxClockSkew(this.maxClockSkew)
			.excludedWorkerIds(this.excludedWorkerIds)
			.layoutPreset(this.layoutPreset)
			.replacedLayout((this.replacedLayout != null) ? this.replacedLayout.format() : null)
			.issueFrom(this.issueFrom);
		builder.instance = this.instance;
		return builder;
	}

	@Override
	public String toString() {
		return "LeaseSettings[namespace=" + this.namespace + ", ttl=" + format(this.ttl) + ", heartbeat="
				+ format(this.heartbeat) + ", safetyMargin=" + format(this.safetyMargin) + ", instance="
				+ instance() + ", cacheFile=" + this.cacheFile + ", maxStartupWait=" + format(this.maxStartupWait)
				+ ", maxClockSkew=" + ((this.maxClockSkew != null) ? format(this.maxClockSkew) : "off")
				+ (this.excludedWorkerIds.isEmpty() ? "" : ", excludedWorkerIds=" + WorkerIdRanges.format(this.excludedWorkerIds))
				+ "]";
	}

	/**
	 * Returns the prefix of the keeper's log lines and messages about a slot of this namespace.
	 * @param workerId the slot, or -1 for none yet
	 */
	String logPrefix(int workerId) {
		return "[" + this.namespace + "/worker " + ((workerId >= 0) ? workerId : "-") + "] ";
	}

	static String format(Duration duration) {
		long millis = duration.toMillis();
		return (millis % 1000 == 0) ? (millis / 1000) + "s" : millis + "ms";
	}

	/**
	 * This process's host name and ID, looked up once, when a lease first needs it: the host name may take a DNS
	 * query, which settings that are only checked (as at start in SEGMENT mode) should not pay.
	 */
	private static final class DefaultInstance {

		static final String NAME = lookUp();

		private static String lookUp() {
			String host;
			try {
				host = InetAddress.getLocalHost().getHostName();
			}
			catch (Exception ex) {
				host = "unknown-host";
			}
			return host + "/" + ProcessHandle.current().pid();
		}

	}

	/**
	 * Builds {@link LeaseSettings}.
	 */
	public static final class Builder {

		private String namespace = DEFAULT_NAMESPACE;

		private Duration ttl = DEFAULT_TTL;

		private Duration heartbeat = DEFAULT_HEARTBEAT;

		private Duration safetyMargin = DEFAULT_SAFETY_MARGIN;

		private @Nullable String instance;

		private @Nullable Path cacheFile;

		private @Nullable Duration maxStartupWait;

		private @Nullable Duration maxClockSkew = DEFAULT_MAX_CLOCK_SKEW;

		private SortedSet<Integer> excludedWorkerIds = new TreeSet<>();

		private @Nullable String layoutPreset;

		private @Nullable RecordedLayout replacedLayout;

		private @Nullable Instant issueFrom;

		private Builder() {
		}

		/**
		 * Sets the slot space: instances that share IDs use the same namespace.
		 * @param namespace 1 to {@value LeaseRequest#MAX_NAMESPACE_LENGTH} characters, not blank
		 * @return this builder
		 */
		public Builder namespace(String namespace) {
			Objects.requireNonNull(namespace, "namespace");
			requireArgument("namespace", !namespace.isBlank() && namespace.length() <= LeaseRequest.MAX_NAMESPACE_LENGTH,
					"namespace must be 1 to " + LeaseRequest.MAX_NAMESPACE_LENGTH + " characters, not blank: '"
							+ namespace + "'");
			this.namespace = namespace;
			return this;
		}

		/**
		 * Sets how long a lease lasts without renewal, by the store's clock.
		 * @param ttl at least {@link #MIN_TTL}
		 * @return this builder
		 */
		public Builder ttl(Duration ttl) {
			Objects.requireNonNull(ttl, "ttl");
			requireArgument("ttl", ttl.compareTo(MIN_TTL) >= 0,
					"ttl (" + format(ttl) + ") must be at least " + format(MIN_TTL));
			this.ttl = ttl;
			return this;
		}

		/**
		 * Sets the time between renewals.
		 * @param heartbeat positive, and with the safety margin less than the TTL
		 * @return this builder
		 */
		public Builder heartbeat(Duration heartbeat) {
			Objects.requireNonNull(heartbeat, "heartbeat");
			requireArgument("heartbeat", heartbeat.toMillis() > 0, "heartbeat (" + format(heartbeat) + ") must be at least 1ms");
			this.heartbeat = heartbeat;
			return this;
		}

		/**
		 * Sets how much before the TTL this node stops issuing when renewals fail.
		 * @param safetyMargin positive
		 * @return this builder
		 */
		public Builder safetyMargin(Duration safetyMargin) {
			Objects.requireNonNull(safetyMargin, "safetyMargin");
			requireArgument("safetyMargin", safetyMargin.toMillis() > 0,
					"safetyMargin (" + format(safetyMargin) + ") must be at least 1ms");
			this.safetyMargin = safetyMargin;
			return this;
		}

		/**
		 * Sets who holds the lease, for operators; defaults to host name and process ID.
		 * @param instance not blank
		 * @return this builder
		 */
		public Builder instance(String instance) {
			Objects.requireNonNull(instance, "instance");
			requireArgument("instance", !instance.isBlank(), "instance must not be blank: '" + instance + "'");
			this.instance = instance;
			return this;
		}

		/**
		 * Sets where the last worker ID is remembered, so that a restart asks for the same slot.
		 * @param cacheFile the file, or {@code null} for none
		 * @return this builder
		 */
		public Builder cacheFile(@Nullable Path cacheFile) {
			this.cacheFile = cacheFile;
			return this;
		}

		/**
		 * Sets how long start may wait for this node's clock to pass the slot's timestamp floor; defaults to the TTL.
		 * @param maxStartupWait not negative; zero fails at once when the clock is behind the floor
		 * @return this builder
		 */
		public Builder maxStartupWait(Duration maxStartupWait) {
			Objects.requireNonNull(maxStartupWait, "maxStartupWait");
			requireArgument("maxStartupWait", !maxStartupWait.isNegative(),
					"maxStartupWait (" + format(maxStartupWait) + ") must not be negative");
			this.maxStartupWait = maxStartupWait;
			return this;
		}

		/**
		 * Sets how far this node's clock may be from the store's before start is refused and issuing stops; the
		 * offset is measured at start and at every renewal, allowing for half the call's round trip.
		 * @param maxClockSkew positive, or {@code null} to turn the guard off
		 * @return this builder
		 */
		public Builder maxClockSkew(@Nullable Duration maxClockSkew) {
			requireArgument("maxClockSkew", maxClockSkew == null || (!maxClockSkew.isNegative() && !maxClockSkew.isZero()),
					"maxClockSkew (" + ((maxClockSkew != null) ? format(maxClockSkew) : "") + ") must be positive");
			this.maxClockSkew = maxClockSkew;
			return this;
		}

		/**
		 * Sets the worker IDs this node never borrows, such as the ones an old fleet still uses during a switch
		 * (see {@link WorkerIdRanges#parse}); a cache file that remembers one of them is ignored.
		 * @param excludedWorkerIds worker IDs, none negative
		 * @return this builder
		 */
		public Builder excludedWorkerIds(Set<Integer> excludedWorkerIds) {
			Objects.requireNonNull(excludedWorkerIds, "excludedWorkerIds");
			SortedSet<Integer> ids = new TreeSet<>(excludedWorkerIds);
			requireArgument("excludedWorkerIds", ids.isEmpty() || ids.first() >= 0,
					"excludedWorkerIds must not be negative: " + ids);
			this.excludedWorkerIds = ids;
			return this;
		}

		/**
		 * Sets the name of the preset the generator's layout was chosen by, recorded with the layout.
		 * @param layoutPreset the preset's name, or {@code null}
		 * @return this builder
		 */
		public Builder layoutPreset(@Nullable String layoutPreset) {
			try {
				this.layoutPreset = RecordedLayout.checkPreset("layoutPreset", layoutPreset);
			}
			catch (IllegalArgumentException ex) {
				throw new InvalidSettingException("layoutPreset", ex.getMessage());
			}
			return this;
		}

		/**
		 * Asks for a planned layout change: the layout recorded for the namespace that this node's replaces, in the
		 * stored form a refusal names ({@code epoch=...;timestamp-bits=...;worker-id-bits=...;sequence-bits=...}).
		 * @param replacedLayout the recorded layout, or {@code null} for no change
		 * @return this builder
		 */
		public Builder replacedLayout(@Nullable String replacedLayout) {
			if (replacedLayout == null || replacedLayout.isBlank()) {
				this.replacedLayout = null;
				return this;
			}
			try {
				this.replacedLayout = RecordedLayout.parse(replacedLayout);
			}
			catch (IllegalArgumentException ex) {
				throw new InvalidSettingException("replacedLayout", ex.getMessage() + "; copy the layout the refusal "
						+ "names, such as epoch=2010-11-04T01:42:54.657Z;timestamp-bits=41;worker-id-bits=10;"
						+ "sequence-bits=12");
			}
			return this;
		}

		/**
		 * Sets the first instant this node may issue at, such as the one from which its IDs sort above an old
		 * generator's; start waits for it within maxStartupWait, together with the layout record's floor.
		 * @param issueFrom the instant, or {@code null} for none
		 * @return this builder
		 * @since 0.2.0
		 */
		public Builder issueFrom(@Nullable Instant issueFrom) {
			this.issueFrom = issueFrom;
			return this;
		}

		/**
		 * Builds the settings.
		 * @return the settings
		 * @throws IllegalArgumentException if heartbeat plus safety margin is not less than the TTL (so neither is
		 * the heartbeat alone)
		 */
		public LeaseSettings build() {
			requireArgument("heartbeat", this.heartbeat.plus(this.safetyMargin).compareTo(this.ttl) < 0,
					"heartbeat (" + format(this.heartbeat) + ") + safetyMargin (" + format(this.safetyMargin)
							+ ") must be less than ttl (" + format(this.ttl) + "), or the lease runs out before "
							+ "the first renewal");
			return new LeaseSettings(this);
		}

		private static void requireArgument(String setting, boolean expression, String message) {
			if (!expression) {
				throw new InvalidSettingException(setting, message);
			}
		}

	}

}
