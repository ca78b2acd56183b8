package io.idstarter.autoconfigure;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.idstarter.InvalidSettingException;
import io.idstarter.lease.LeaseSettings;
import io.idstarter.lease.WorkerIdRanges;
import io.idstarter.segment.ResetPeriod;
import io.idstarter.snowflake.SnowflakeIdGenerator;
import io.idstarter.snowflake.SnowflakeLayout;
import io.idstarter.snowflake.SnowflakePresets;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.InitializingBean;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Settings every mode shares, under {@code id-worker}: the Snowflake layout, the worker-ID lease, the segments and the
 * test switches. Checked when bound with core's rules: a value out of range, or values that do not fit together, fail
 * the start with the property, its value, core's reason and where it was set. Each store's settings are bound by its
 * own class ({@code id-worker.jdbc} by {@code JdbcStoreProperties}, and so on), only when the store is selected.
 *
 * @since 0.1.0
 */
@ConfigurationProperties("id-worker")
public class IdWorkerProperties implements InitializingBean {

	private final Snowflake snowflake = new Snowflake();

	private final Lease lease = new Lease();

	private final Segment segment = new Segment();

	private final Testing testing = new Testing();

	public Snowflake getSnowflake() {
		return this.snowflake;
	}

	public Lease getLease() {
		return this.lease;
	}

	public Segment getSegment() {
		return this.segment;
	}

	public Testing getTesting() {
		return this.testing;
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
	 * Settings for tests: stores that need no server, and the node's local files in test slices.
	 */
	public static class Testing {

		/**
		 * Whether the generators use id-starter's in-memory reference stores instead of their mode's store, so that a
		 * test runs without the database, Redis, ZooKeeper, etcd or ID servers the mode needs. For tests only: IDs are
		 * unique within one JVM, and nothing survives a restart. Declared segment keys (id-worker.segment.keys) are
		 * created in the in-memory store.
		 */
		private boolean inMemoryStores;

		/**
		 * Whether test slices (@DataJpaTest, @JdbcTest) use this node's local files, id-worker.lease.cache-file and
		 * id-worker.segment.marks-file. Off by default: a slice's embedded database starts empty on every run while
		 * the files remain, and the next run would refuse the new database as a store that lost writes.
		 */
		private boolean nodeFilesInSlices;

		public boolean isInMemoryStores() {
			return this.inMemoryStores;
		}

		public void setInMemoryStores(boolean inMemoryStores) {
			this.inMemoryStores = inMemoryStores;
		}

		public boolean isNodeFilesInSlices() {
			return this.nodeFilesInSlices;
		}

		public void setNodeFilesInSlices(boolean nodeFilesInSlices) {
			this.nodeFilesInSlices = nodeFilesInSlices;
		}

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
		 * Layout taken whole instead of epoch and bit counts, so that IDs continue above the ones an existing fleet
		 * issued: 'twitter' (MyBatis-Plus's and Hutool's default), 'leaf' (Meituan Leaf) or 'shardingsphere' (needs
		 * preset-zone).
		 */
		private @Nullable LayoutPreset preset;

		/**
		 * Default time zone of the JVMs of the ShardingSphere fleet being taken over, whose epoch is 2016-11-01 00:00
		 * in that zone. Required with the 'shardingsphere' preset; a fixed offset such as +08:00, or a region that
		 * does not observe daylight saving time.
		 */
		private @Nullable ZoneId presetZone;

		/**
		 * Whether IDs must stay below 2^53, the largest integer a JavaScript number holds exactly: the bits then sum
		 * to at most 53 instead of exactly 63. With the bit widths left at their defaults, the layout is 41
		 * timestamp, 6 worker-ID and 6 sequence bits (64 workers, 64 IDs per millisecond each).
		 */
		private boolean javascriptSafe;

		private final ClockBackwards clockBackwards = new ClockBackwards();

		private final Takeover takeover = new Takeover();

		private final LayoutChange layoutChange = new LayoutChange();

		/**
		 * How long before the layout's timestamps run out the start-up log line is a WARN and the idWorker health
		 * contributor warns (detail layoutWarning, status UP); in the last day it is DOWN. The gauge
		 * idworker.snowflake.layout.remaining gives the time left.
		 */
		private Duration layoutWarning = SnowflakeIdGenerator.DEFAULT_LAYOUT_WARNING;

		public @Nullable LayoutPreset getPreset() {
			return this.preset;
		}

		public void setPreset(@Nullable LayoutPreset preset) {
			this.preset = preset;
		}

		public @Nullable ZoneId getPresetZone() {
			return this.presetZone;
		}

		public void setPresetZone(@Nullable ZoneId presetZone) {
			this.presetZone = presetZone;
		}

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

		public Takeover getTakeover() {
			return this.takeover;
		}

		public LayoutChange getLayoutChange() {
			return this.layoutChange;
		}

		public Duration getLayoutWarning() {
			return this.layoutWarning;
		}

		public void setLayoutWarning(Duration layoutWarning) {
			this.layoutWarning = layoutWarning;
		}

		/**
		 * Returns the preset's layout.
		 * @param now the current time, to check the preset's zone
		 * @return the layout, or {@code null} without a preset
		 * @throws io.idstarter.InvalidSettingException naming {@code presetZone} when the ShardingSphere preset has
		 * no zone or one core refuses
		 */
		@Nullable SnowflakeLayout presetLayout(Instant now) {
			return (this.preset != null) ? presetLayout(this.preset, now) : null;
		}

		/**
		 * Returns a preset's layout, with this group's preset-zone for the ShardingSphere preset.
		 */
		SnowflakeLayout presetLayout(LayoutPreset preset, Instant now) {
			return switch (preset) {
				case TWITTER -> SnowflakePresets.twitter();
				case LEAF -> SnowflakePresets.leaf();
				case SHARDINGSPHERE -> {
					if (this.presetZone == null) {
						throw new InvalidSettingException("presetZone", "the 'shardingsphere' preset's epoch is "
								+ "2016-11-01 00:00 in the old fleet's JVM time zone; set id-worker.snowflake."
								+ "preset-zone to that zone, such as +08:00 or Asia/Shanghai");
					}
					yield SnowflakePresets.shardingSphere(this.presetZone, now);
				}
			};
		}

		/**
		 * Returns the layout these settings describe, without a preset: a JavaScript-safe layout whose widths were
		 * left at their 63-bit defaults takes core's default JavaScript-safe widths.
		 * @return the layout
		 * @throws io.idstarter.InvalidSettingException naming the setting core refuses
		 */
		SnowflakeLayout layout() {
			if (!this.javascriptSafe) {
				return SnowflakeLayout.of(this.epoch, this.timestampBits, this.workerIdBits, this.sequenceBits);
			}
			Snowflake defaults = new Snowflake();
			boolean widthsLeftAtDefaults = this.timestampBits == defaults.timestampBits
					&& this.workerIdBits == defaults.workerIdBits && this.sequenceBits == defaults.sequenceBits;
			return widthsLeftAtDefaults ? SnowflakeLayout.javaScriptSafe(this.epoch)
					: SnowflakeLayout.javaScriptSafe(this.epoch, this.timestampBits, this.workerIdBits,
							this.sequenceBits);
		}

	}

	/**
	 * A planned change of the layout recorded for the lease namespace.
	 */
	public static class LayoutChange {

		/**
		 * Layout recorded for the namespace that this instance's layout replaces, exactly as the start-up failure
		 * names it (epoch=...;timestamp-bits=...;worker-id-bits=...;sequence-bits=...). The change is made only when
		 * no instance of the old layout holds a worker ID and every ID of this instance sorts above the old layout's;
		 * otherwise the start fails and the record stays. Remove it once the change is made.
		 */
		private @Nullable String from;

		public @Nullable String getFrom() {
			return this.from;
		}

		public void setFrom(@Nullable String from) {
			this.from = from;
		}

	}

	/**
	 * Tables and ID columns an older Snowflake generator filled, checked at start so that new IDs sort above theirs.
	 */
	public static class Takeover {

		/**
		 * Columns the old generator filled, as table.column or schema.table.column; at start the largest ID of each
		 * is read through the application's DataSource, and the start waits (up to id-worker.lease.max-startup-wait)
		 * or fails until this instance's IDs sort above all of them.
		 */
		private List<String> columns = new ArrayList<>();

		/**
		 * Layout of the old generator, to date its IDs in the report; defaults to this instance's layout.
		 */
		private @Nullable LayoutPreset preset;

		public List<String> getColumns() {
			return this.columns;
		}

		public void setColumns(List<String> columns) {
			this.columns = columns;
		}

		public @Nullable LayoutPreset getPreset() {
			return this.preset;
		}

		public void setPreset(@Nullable LayoutPreset preset) {
			this.preset = preset;
		}

	}

	/**
	 * Snowflake layouts of other ID generators.
	 */
	public enum LayoutPreset {

		/**
		 * Meituan Leaf's Snowflake: epoch 1288834974657 ms (2010-11-04T01:42:54.657Z), 41 timestamp bits, 10
		 * worker-ID bits, 12 sequence bits.
		 */
		LEAF,

		/**
		 * Twitter's Snowflake, the default of MyBatis-Plus (IdWorker, DefaultIdentifierGenerator) and Hutool
		 * (Snowflake): epoch 1288834974657 ms, 41 timestamp bits, 5 datacenter and 5 worker bits read as one 10-bit
		 * worker ID, 12 sequence bits.
		 */
		TWITTER,

		/**
		 * ShardingSphere's SNOWFLAKE key generator: epoch 2016-11-01 00:00 in the zone set by preset-zone, 41
		 * timestamp bits, 10 worker-ID bits, 12 sequence bits.
		 */
		SHARDINGSPHERE

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
		 * File that remembers the last worker ID of this instance, so a restart asks for the same slot first; put it
		 * on a disk that survives restarts, one file per instance. When not set, a restart takes a worker ID never
		 * used in the namespace (lowest first), so worker IDs climb with every restart until all have been used, and
		 * the node-local marks are kept in memory only.
		 */
		private @Nullable Path cacheFile;

		/**
		 * Worker IDs this instance never borrows, as IDs and ranges such as 0-3,7: the ones an old Snowflake fleet
		 * still uses while it is switched over. A cache file that remembers one of them is not followed.
		 */
		private List<String> excludedWorkerIds = new ArrayList<>();

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

		public List<String> getExcludedWorkerIds() {
			return this.excludedWorkerIds;
		}

		public void setExcludedWorkerIds(List<String> excludedWorkerIds) {
			this.excludedWorkerIds = excludedWorkerIds;
		}

		/**
		 * Returns core's lease settings for these properties, but for the namespace when it is not set and the cache
		 * file, which the application's environment decides.
		 * @return a builder that checks each value as it is set
		 * @throws io.idstarter.InvalidSettingException naming the setting core refuses
		 */
		LeaseSettings.Builder settings() {
			LeaseSettings.Builder settings = LeaseSettings.builder()
				.ttl(this.ttl)
				.heartbeat(this.heartbeat)
				.safetyMargin(this.safetyMargin)
				.maxClockSkew(this.maxClockSkew.isZero() ? null : this.maxClockSkew);
			if (this.namespace != null) {
				settings.namespace(this.namespace);
			}
			if (this.maxStartupWait != null) {
				settings.maxStartupWait(this.maxStartupWait);
			}
			settings.excludedWorkerIds(WorkerIdRanges.parse(this.excludedWorkerIds));
			return settings;
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

		/**
		 * File where this node keeps, per key, the end of the highest segment it was given, so that it refuses a store
		 * that lost writes (a segment below that end) also after a restart. Written before a segment is used. Defaults
		 * to 'segment-marks' beside id-worker.lease.cache-file when that is set; otherwise the marks are kept in memory
		 * only and a restarted node starts without them.
		 */
		private @Nullable Path marksFile;

		/**
		 * Whether a store found below this node's marks (it lost writes) is moved past them: a key answered below its
		 * mark gets its max_id raised to the mark plus heal-margin, and a key missing from the store is created again
		 * there. Only ever moves a key up; the key is then served again instead of staying refused until an operator
		 * raises it. Safe with several nodes per key only if heal-margin covers what they were given in the lost
		 * window.
		 */
		private boolean healForward;

		/**
		 * Numbers past this node's mark that heal-forward moves a key to: at least what all nodes serving the key may
		 * have been given in the window the store lost (nodes x largest step x fetches in that window).
		 */
		private long healMargin;

		/**
		 * Whether a graceful shutdown gives the unused tail of each key's range (and its prefetched range) back to
		 * the store, where nobody allocated after it, so the next start leaves no gap. Numbers handed out are never
		 * given back.
		 */
		private boolean giveBackOnClose = true;

		/**
		 * Largest number of segment keys at a time whose meters carry their own 'key' tag. The events of further
		 * keys are counted under key=(other), without per-key gauges (one warning says so): thousands of keys would
		 * cost a few series each in every registry and about 1.4 KB of heap per key used. A periodic key's period
		 * deleted past its retention gives its place to the next.
		 */
		// IdWorkerMetrics.DEFAULT_MAX_KEY_TAGS, as a literal: the configuration metadata reads only literals.
		private int maxKeyTags = 1000;

		/**
		 * Keys to create in the store at start when it lacks them, by name. A key that exists is never changed, and a
		 * key this node has issued from is never created below the highest number it was given.
		 */
		private final Map<String, Key> keys = new LinkedHashMap<>();

		/**
		 * Keys whose numbers start again every day, month or year, served as formatted strings by the
		 * PeriodicNumbers bean, by name. Each period draws from its own segment key, '<name>:<stamp>', created on
		 * the period's first call.
		 */
		private final Map<String, PeriodicKey> periodicKeys = new LinkedHashMap<>();

		/**
		 * Zone whose midnight starts the periods of the periodic keys. When not set, the system zone.
		 */
		private @Nullable ZoneId periodicZone;

		private final DynamicStep dynamicStep = new DynamicStep();

		public Map<String, PeriodicKey> getPeriodicKeys() {
			return this.periodicKeys;
		}

		public @Nullable ZoneId getPeriodicZone() {
			return this.periodicZone;
		}

		public void setPeriodicZone(@Nullable ZoneId periodicZone) {
			this.periodicZone = periodicZone;
		}

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

		public boolean isHealForward() {
			return this.healForward;
		}

		public void setHealForward(boolean healForward) {
			this.healForward = healForward;
		}

		public long getHealMargin() {
			return this.healMargin;
		}

		public void setHealMargin(long healMargin) {
			this.healMargin = healMargin;
		}

		public boolean isGiveBackOnClose() {
			return this.giveBackOnClose;
		}

		public void setGiveBackOnClose(boolean giveBackOnClose) {
			this.giveBackOnClose = giveBackOnClose;
		}

		public int getMaxKeyTags() {
			return this.maxKeyTags;
		}

		public void setMaxKeyTags(int maxKeyTags) {
			this.maxKeyTags = maxKeyTags;
		}

		public int getThreadChunkSize() {
			return this.threadChunkSize;
		}

		public void setThreadChunkSize(int threadChunkSize) {
			this.threadChunkSize = threadChunkSize;
		}

		public @Nullable Path getMarksFile() {
			return this.marksFile;
		}

		public void setMarksFile(@Nullable Path marksFile) {
			this.marksFile = marksFile;
		}

		public Map<String, Key> getKeys() {
			return this.keys;
		}

		public DynamicStep getDynamicStep() {
			return this.dynamicStep;
		}

	}

	/**
	 * A key whose numbers start again every period, served as formatted strings.
	 */
	public static class PeriodicKey {

		/**
		 * How often the numbers start again.
		 */
		private ResetPeriod reset = ResetPeriod.DAILY;

		/**
		 * Pattern of the strings, such as 'INV-{yyyyMMdd}-{seq:6}': {seq:N} is the number zero-padded to N digits
		 * (refused beyond them), {seq} the number unpadded, {period} the period's stamp, {key} the key, and a date of
		 * the letters y, u, M and d the call's day. The pattern must write the period.
		 */
		private @Nullable String format;

		/**
		 * First number of each period.
		 */
		private long firstId = io.idstarter.segment.PeriodicKey.DEFAULT_FIRST_ID;

		/**
		 * Number of numbers each node fetches from a period's segment key at once.
		 */
		private int step = io.idstarter.segment.PeriodicKey.DEFAULT_STEP;

		/**
		 * How long after its period ended a period's segment key is kept in the store; the current and the previous
		 * period are always kept.
		 */
		private Duration retention = Duration.ofDays(35);

		public ResetPeriod getReset() {
			return this.reset;
		}

		public void setReset(ResetPeriod reset) {
			this.reset = reset;
		}

		public @Nullable String getFormat() {
			return this.format;
		}

		public void setFormat(@Nullable String format) {
			this.format = format;
		}

		public long getFirstId() {
			return this.firstId;
		}

		public void setFirstId(long firstId) {
			this.firstId = firstId;
		}

		public int getStep() {
			return this.step;
		}

		public void setStep(int step) {
			this.step = step;
		}

		public Duration getRetention() {
			return this.retention;
		}

		public void setRetention(Duration retention) {
			this.retention = retention;
		}

	}

	/**
	 * A segment key created at start when the store lacks it (Leaf's leaf_alloc row).
	 */
	public static class Key {

		/**
		 * First ID the key issues when it is created.
		 */
		private long firstId = 1;

		/**
		 * Number of IDs fetched from the store at once (the key's configured step); the dynamic step never goes below
		 * it.
		 */
		private int step = 1000;

		/**
		 * Free text for operators, stored with the key.
		 */
		private String description = "";

		public long getFirstId() {
			return this.firstId;
		}

		public void setFirstId(long firstId) {
			this.firstId = firstId;
		}

		public int getStep() {
			return this.step;
		}

		public void setStep(int step) {
			this.step = step;
		}

		public String getDescription() {
			return this.description;
		}

		public void setDescription(String description) {
			this.description = description;
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

		/**
		 * Returns core's dynamic step for these properties; a disabled one keeps the step stored for each key (a
		 * largest step of 1 never grows past it).
		 * @return the dynamic step
		 * @throws io.idstarter.InvalidSettingException naming the setting core refuses
		 */
		io.idstarter.segment.DynamicStep toDynamicStep() {
			return new io.idstarter.segment.DynamicStep(this.expandBelow, this.shrinkAbove,
					this.enabled ? this.maxStep : 1);
		}

	}

}
