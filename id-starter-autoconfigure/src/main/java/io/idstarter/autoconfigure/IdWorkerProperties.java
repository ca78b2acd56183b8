package io.idstarter.autoconfigure;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;

import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.InitializingBean;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Settings of id-starter, under {@code id-worker}. Checked when bound: a value out of range, or values that do not
 * fit together, fail the start with the property, its value, the allowed range and where it was set.
 *
 * @since 0.1.0
 */
@ConfigurationProperties("id-worker")
public class IdWorkerProperties implements InitializingBean {

	private final Snowflake snowflake = new Snowflake();

	private final Lease lease = new Lease();

	private final Segment segment = new Segment();

	private final Jdbc jdbc = new Jdbc();

	private final Redis redis = new Redis();

	private final Mongo mongo = new Mongo();

	public Snowflake getSnowflake() {
		return this.snowflake;
	}

	public Lease getLease() {
		return this.lease;
	}

	public Segment getSegment() {
		return this.segment;
	}

	public Jdbc getJdbc() {
		return this.jdbc;
	}

	public Redis getRedis() {
		return this.redis;
	}

	public Mongo getMongo() {
		return this.mongo;
	}

	@Override
	public void afterPropertiesSet() {
		validate();
	}

	/**
	 * Checks every value and the rules that tie values together.
	 * @throws org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException naming
	 * the first property that breaks a rule
	 */
	public void validate() {
		IdWorkerPropertiesValidator.validate(this, Instant.now());
	}

	/**
	 * Snowflake settings: the bit layout of an ID and what to do when the clock moves backwards.
	 */
	public static class Snowflake {

		/**
		 * Instant that timestamp zero stands for. Must not be in the future; never change it once IDs were issued.
		 */
		private Instant epoch = Instant.parse("2020-01-01T00:00:00Z");

		/**
		 * Number of bits for the milliseconds since the epoch. With 41 bits, IDs last 69 years from the epoch.
		 */
		private int timestampBits = 41;

		/**
		 * Number of bits for the worker ID; the lease store has 2^bits slots, one per running instance.
		 */
		private int workerIdBits = 10;

		/**
		 * Number of bits for the sequence within one millisecond; one instance issues up to 2^bits IDs per
		 * millisecond.
		 */
		private int sequenceBits = 12;

		/**
		 * Whether IDs must stay below 2^53, the largest integer a JavaScript number holds exactly: the bits then sum
		 * to at most 53 instead of exactly 63. With the bit widths left at their defaults, the layout is 41
		 * timestamp, 6 worker-ID and 6 sequence bits (64 workers, 64 IDs per millisecond each).
		 */
		private boolean javascriptSafe;

		private final ClockBackwards clockBackwards = new ClockBackwards();

		public Instant getEpoch() {
			return this.epoch;
		}

		public void setEpoch(Instant epoch) {
			this.epoch = epoch;
		}

		public int getTimestampBits() {
			return this.timestampBits;
		}

		public void setTimestampBits(int timestampBits) {
			this.timestampBits = timestampBits;
		}

		public int getWorkerIdBits() {
			return this.workerIdBits;
		}

		public void setWorkerIdBits(int workerIdBits) {
			this.workerIdBits = workerIdBits;
		}

		public int getSequenceBits() {
			return this.sequenceBits;
		}

		public void setSequenceBits(int sequenceBits) {
			this.sequenceBits = sequenceBits;
		}

		public boolean isJavascriptSafe() {
			return this.javascriptSafe;
		}

		public void setJavascriptSafe(boolean javascriptSafe) {
			this.javascriptSafe = javascriptSafe;
		}

		public ClockBackwards getClockBackwards() {
			return this.clockBackwards;
		}

	}

	/**
	 * What a Snowflake generator does when the wall clock is behind the timestamp of its last ID.
	 */
	public static class ClockBackwards {

		/**
		 * Action when the clock is behind.
		 */
		private ClockBackwardsAction policy = ClockBackwardsAction.FAIL;

		/**
		 * Largest step back of the clock that is waited out, under both policies; beyond it, ID requests fail until
		 * the clock catches up (policy 'fail') or are served from the last timestamp (policy 'tolerate').
		 */
		private Duration maxWait = Duration.ofMillis(5);

		public ClockBackwardsAction getPolicy() {
			return this.policy;
		}

		public void setPolicy(ClockBackwardsAction policy) {
			this.policy = policy;
		}

		public Duration getMaxWait() {
			return this.maxWait;
		}

		public void setMaxWait(Duration maxWait) {
			this.maxWait = maxWait;
		}

	}

	/**
	 * Clock-moved-backwards actions.
	 */
	public enum ClockBackwardsAction {

		/**
		 * Wait up to the max wait for the clock to catch up, then fail the request.
		 */
		FAIL,

		/**
		 * Wait out a step back up to the max wait; through a larger one, keep issuing from the last timestamp (IDs
		 * run ahead of the clock until it catches up, within the lease's ceiling).
		 */
		TOLERATE

	}

	/**
	 * Worker-ID lease settings for the Snowflake modes.
	 */
	public static class Lease {

		/**
		 * Slot space shared by the instances that issue IDs together. Defaults to spring.application.name, or
		 * 'default' when that is not set.
		 */
		private @Nullable String namespace;

		/**
		 * How long a lease lasts without renewal, by the store's clock.
		 */
		private Duration ttl = Duration.ofSeconds(30);

		/**
		 * Time between lease renewals.
		 */
		private Duration heartbeat = Duration.ofSeconds(10);

		/**
		 * Time before the lease expires at which an instance that could not renew stops issuing IDs.
		 */
		private Duration safetyMargin = Duration.ofSeconds(5);

		/**
		 * Longest time start-up waits for this instance's clock to pass the last timestamp a previous holder of its
		 * worker ID may have issued. Defaults to the ttl.
		 */
		private @Nullable Duration maxStartupWait;

		/**
		 * Largest difference between this instance's clock and the store's before Snowflake IDs are refused, at
		 * start-up and at every renewal. Set to 0 to turn the check off.
		 */
		private Duration maxClockSkew = Duration.ofSeconds(2);

		/**
		 * File that remembers the last worker ID of this instance, so a restart asks for the same slot first. Not
		 * used when not set.
		 */
		private @Nullable Path cacheFile;

		public @Nullable String getNamespace() {
			return this.namespace;
		}

		public void setNamespace(@Nullable String namespace) {
			this.namespace = namespace;
		}

		public Duration getTtl() {
			return this.ttl;
		}

		public void setTtl(Duration ttl) {
			this.ttl = ttl;
		}

		public Duration getHeartbeat() {
			return this.heartbeat;
		}

		public void setHeartbeat(Duration heartbeat) {
			this.heartbeat = heartbeat;
		}

		public Duration getSafetyMargin() {
			return this.safetyMargin;
		}

		public void setSafetyMargin(Duration safetyMargin) {
			this.safetyMargin = safetyMargin;
		}

		public @Nullable Duration getMaxStartupWait() {
			return this.maxStartupWait;
		}

		public void setMaxStartupWait(@Nullable Duration maxStartupWait) {
			this.maxStartupWait = maxStartupWait;
		}

		public Duration getMaxClockSkew() {
			return this.maxClockSkew;
		}

		public void setMaxClockSkew(Duration maxClockSkew) {
			this.maxClockSkew = maxClockSkew;
		}

		public @Nullable Path getCacheFile() {
			return this.cacheFile;
		}

		public void setCacheFile(@Nullable Path cacheFile) {
			this.cacheFile = cacheFile;
		}

	}

	/**
	 * Segment mode settings.
	 */
	public static class Segment {

		/**
		 * Store the segments are allocated from.
		 */
		private IdWorkerStore store = IdWorkerStore.JDBC;

		/**
		 * Fraction of the current segment used before the next one is fetched in the background, between 0 and 1
		 * exclusive.
		 */
		private double prefetchThreshold = 0.1;

		/**
		 * Longest time a request waits for the next segment when both segments of a key are spent, and for the first
		 * segment of a key.
		 */
		private Duration maxWait = Duration.ofSeconds(2);

		/**
		 * Time between reloads of the key list from the store.
		 */
		private Duration keyRefreshInterval = Duration.ofSeconds(60);

		/**
		 * Key that IdWorker.nextId() without a key draws from. When not set, segment IDs need a key.
		 */
		private @Nullable String defaultKey;

		/**
		 * Number of IDs each platform thread takes from a key's segment at a time, so that busy keys see less
		 * contention; IDs then increase per thread, not across threads. 0 turns it off.
		 */
		private int threadChunkSize;

		private final DynamicStep dynamicStep = new DynamicStep();

		public IdWorkerStore getStore() {
			return this.store;
		}

		public void setStore(IdWorkerStore store) {
			this.store = store;
		}

		public double getPrefetchThreshold() {
			return this.prefetchThreshold;
		}

		public void setPrefetchThreshold(double prefetchThreshold) {
			this.prefetchThreshold = prefetchThreshold;
		}

		public Duration getMaxWait() {
			return this.maxWait;
		}

		public void setMaxWait(Duration maxWait) {
			this.maxWait = maxWait;
		}

		public Duration getKeyRefreshInterval() {
			return this.keyRefreshInterval;
		}

		public void setKeyRefreshInterval(Duration keyRefreshInterval) {
			this.keyRefreshInterval = keyRefreshInterval;
		}

		public @Nullable String getDefaultKey() {
			return this.defaultKey;
		}

		public void setDefaultKey(@Nullable String defaultKey) {
			this.defaultKey = defaultKey;
		}

		public int getThreadChunkSize() {
			return this.threadChunkSize;
		}

		public void setThreadChunkSize(int threadChunkSize) {
			this.threadChunkSize = threadChunkSize;
		}

		public DynamicStep getDynamicStep() {
			return this.dynamicStep;
		}

	}

	/**
	 * Leaf's dynamic step: a key whose segments run out quickly gets larger segments, one that idles smaller ones,
	 * never below the step stored for the key.
	 */
	public static class DynamicStep {

		/**
		 * Whether to adapt the step to the rate of use; otherwise every segment has the step stored for its key.
		 */
		private boolean enabled = true;

		/**
		 * A segment used up in less than this is followed by one twice as big.
		 */
		private Duration expandBelow = Duration.ofMinutes(15);

		/**
		 * A segment that lasted this long or longer is followed by one half as big. Must be greater than
		 * expand-below.
		 */
		private Duration shrinkAbove = Duration.ofMinutes(30);

		/**
		 * Largest step the doubling reaches.
		 */
		private int maxStep = 1_000_000;

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public Duration getExpandBelow() {
			return this.expandBelow;
		}

		public void setExpandBelow(Duration expandBelow) {
			this.expandBelow = expandBelow;
		}

		public Duration getShrinkAbove() {
			return this.shrinkAbove;
		}

		public void setShrinkAbove(Duration shrinkAbove) {
			this.shrinkAbove = shrinkAbove;
		}

		public int getMaxStep() {
			return this.maxStep;
		}

		public void setMaxStep(int maxStep) {
			this.maxStep = maxStep;
		}

	}

	/**
	 * Relational database store settings.
	 */
	public static class Jdbc {

		/**
		 * Table of segment keys, in Leaf's leaf_alloc layout.
		 */
		private String segmentTable = "leaf_alloc";

		/**
		 * Table of worker-ID leases.
		 */
		private String leaseTable = "id_worker_lease";

		public String getSegmentTable() {
			return this.segmentTable;
		}

		public void setSegmentTable(String segmentTable) {
			this.segmentTable = segmentTable;
		}

		public String getLeaseTable() {
			return this.leaseTable;
		}

		public void setLeaseTable(String leaseTable) {
			this.leaseTable = leaseTable;
		}

	}

	/**
	 * Redis store settings.
	 */
	public static class Redis {

		/**
		 * Prefix of every Redis key the stores write.
		 */
		private String keyPrefix = "id-starter:";

		public String getKeyPrefix() {
			return this.keyPrefix;
		}

		public void setKeyPrefix(String keyPrefix) {
			this.keyPrefix = keyPrefix;
		}

	}

	/**
	 * MongoDB store settings.
	 */
	public static class Mongo {

		/**
		 * Collection of segment keys.
		 */
		private String segmentCollection = "id_segments";

		/**
		 * Collection of worker-ID leases.
		 */
		private String leaseCollection = "id_worker_leases";

		/**
		 * Collection of the sequences that fill @SequenceId fields.
		 */
		private String sequenceCollection = "id_sequences";

		public String getSegmentCollection() {
			return this.segmentCollection;
		}

		public void setSegmentCollection(String segmentCollection) {
			this.segmentCollection = segmentCollection;
		}

		public String getLeaseCollection() {
			return this.leaseCollection;
		}

		public void setLeaseCollection(String leaseCollection) {
			this.leaseCollection = leaseCollection;
		}

		public String getSequenceCollection() {
			return this.sequenceCollection;
		}

		public void setSequenceCollection(String sequenceCollection) {
			this.sequenceCollection = sequenceCollection;
		}

	}

}
