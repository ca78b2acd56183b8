package io.idstarter.autoconfigure;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

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

	private final Http http = new Http();

	private final ZooKeeper zookeeper = new ZooKeeper();

	private final Etcd etcd = new Etcd();

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

	public Jdbc getJdbc() {
		return this.jdbc;
	}

	public Redis getRedis() {
		return this.redis;
	}

	public Mongo getMongo() {
		return this.mongo;
	}

	public Http getHttp() {
		return this.http;
	}

	public ZooKeeper getZookeeper() {
		return this.zookeeper;
	}

	public Etcd getEtcd() {
		return this.etcd;
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
		 * Layout taken whole instead of epoch and bit counts: "leaf" is Meituan Leaf's Snowflake (epoch
		 * 1288834974657 ms, 41 timestamp, 10 worker-ID and 12 sequence bits), so that IDs continue above a Leaf
		 * deployment's.
		 */
		private @Nullable LayoutPreset preset;

		/**
		 * Whether IDs must stay below 2^53, the largest integer a JavaScript number holds exactly: the bits then sum
		 * to at most 53 instead of exactly 63. With the bit widths left at their defaults, the layout is 41
		 * timestamp, 6 worker-ID and 6 sequence bits (64 workers, 64 IDs per millisecond each).
		 */
		private boolean javascriptSafe;

		private final ClockBackwards clockBackwards = new ClockBackwards();

		public @Nullable LayoutPreset getPreset() {
			return this.preset;
		}

		public void setPreset(@Nullable LayoutPreset preset) {
			this.preset = preset;
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

	}

	/**
	 * Snowflake layouts of other ID generators.
	 */
	public enum LayoutPreset {

		/**
		 * Meituan Leaf's Snowflake: epoch 1288834974657 ms (2010-11-04T01:42:54.657Z), 41 timestamp bits, 10
		 * worker-ID bits, 12 sequence bits.
		 */
		LEAF

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
		 * Keys to create in the store at start when it lacks them, by name. A key that exists is never changed, and a
		 * key this node has issued from is never created below the highest number it was given.
		 */
		private final Map<String, Key> keys = new LinkedHashMap<>();

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

		/**
		 * Whether to accept a Redis that keeps no append-only file (only RDB snapshots, or nothing). Unsafe: a
		 * restart of such a Redis loses worker-ID leases and segment marks, and IDs may then repeat.
		 */
		private boolean allowVolatile;

		private final Wait wait = new Wait();

		public String getKeyPrefix() {
			return this.keyPrefix;
		}

		public void setKeyPrefix(String keyPrefix) {
			this.keyPrefix = keyPrefix;
		}

		public boolean isAllowVolatile() {
			return this.allowVolatile;
		}

		public void setAllowVolatile(boolean allowVolatile) {
			this.allowVolatile = allowVolatile;
		}

		public Wait getWait() {
			return this.wait;
		}

		/**
		 * Replica acknowledgement of each lease and segment write (Redis WAIT).
		 */
		public static class Wait {

			/**
			 * Replicas that must acknowledge each lease and segment write before it counts; 0 for none. A write
			 * acknowledged by fewer within the timeout fails as a store failure. Set it when Redis may fail over to
			 * a replica (Sentinel, a managed service).
			 */
			private int replicas;

			/**
			 * How long a write waits for the replicas' acknowledgements. Keep it below the client's command timeout
			 * and well below the lease heartbeat.
			 */
			private Duration timeout = Duration.ofSeconds(1);

			public int getReplicas() {
				return this.replicas;
			}

			public void setReplicas(int replicas) {
				this.replicas = replicas;
			}

			public Duration getTimeout() {
				return this.timeout;
			}

			public void setTimeout(Duration timeout) {
				this.timeout = timeout;
			}

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

	/**
	 * Client mode: segment ranges and worker IDs taken from ID servers over HTTP (id-worker.segment.store=http,
	 * IdWorkerMode.HTTP).
	 */
	public static class Http {

		/**
		 * Base URLs of the ID servers, which share one store. Each instance starts on a random one and moves to the
		 * next when a call fails.
		 */
		private List<URI> servers = new ArrayList<>();

		/**
		 * Connect timeout of a call to an ID server.
		 */
		private Duration connectTimeout = Duration.ofSeconds(1);

		/**
		 * Read timeout of a call to an ID server; a server that does not answer within it counts as failed and the
		 * call moves to the next server.
		 */
		private Duration readTimeout = Duration.ofSeconds(3);

		/**
		 * Whether each instance starts on a server picked at random, spreading a fleet's calls over the servers;
		 * when false, every instance starts on the first listed and moves on only when it fails (a primary with
		 * stand-bys).
		 */
		private boolean spreadLoad = true;

		/**
		 * Bearer token of this client, as configured in the servers' id-server.clients.
		 */
		private @Nullable String token;

		/**
		 * HTTP Basic user name of this client (its name in the servers' id-server.clients); used with the password
		 * when no token is set.
		 */
		private @Nullable String username;

		/**
		 * HTTP Basic password of this client.
		 */
		private @Nullable String password;

		private final Retry retry = new Retry();

		public List<URI> getServers() {
			return this.servers;
		}

		public void setServers(List<URI> servers) {
			this.servers = servers;
		}

		public Duration getConnectTimeout() {
			return this.connectTimeout;
		}

		public void setConnectTimeout(Duration connectTimeout) {
			this.connectTimeout = connectTimeout;
		}

		public Duration getReadTimeout() {
			return this.readTimeout;
		}

		public boolean isSpreadLoad() {
			return this.spreadLoad;
		}

		public void setSpreadLoad(boolean spreadLoad) {
			this.spreadLoad = spreadLoad;
		}

		public void setReadTimeout(Duration readTimeout) {
			this.readTimeout = readTimeout;
		}

		public @Nullable String getToken() {
			return this.token;
		}

		public void setToken(@Nullable String token) {
			this.token = token;
		}

		public @Nullable String getUsername() {
			return this.username;
		}

		public void setUsername(@Nullable String username) {
			this.username = username;
		}

		public @Nullable String getPassword() {
			return this.password;
		}

		public void setPassword(@Nullable String password) {
			this.password = password;
		}

		public Retry getRetry() {
			return this.retry;
		}

		/**
		 * Retries of a call to the ID servers.
		 */
		public static class Retry {

			/**
			 * Attempts per call in all, over the servers in turn.
			 */
			private int maxAttempts = 4;

			/**
			 * Wait before going round the servers a second time; doubled each further round, with random jitter.
			 */
			private Duration initialBackoff = Duration.ofMillis(100);

			/**
			 * Longest wait between rounds.
			 */
			private Duration maxBackoff = Duration.ofSeconds(2);

			public int getMaxAttempts() {
				return this.maxAttempts;
			}

			public void setMaxAttempts(int maxAttempts) {
				this.maxAttempts = maxAttempts;
			}

			public Duration getInitialBackoff() {
				return this.initialBackoff;
			}

			public void setInitialBackoff(Duration initialBackoff) {
				this.initialBackoff = initialBackoff;
			}

			public Duration getMaxBackoff() {
				return this.maxBackoff;
			}

			public void setMaxBackoff(Duration maxBackoff) {
				this.maxBackoff = maxBackoff;
			}

		}

	}

	/**
	 * ZooKeeper lease store settings ({@code @EnableIdWorker(mode = ZOOKEEPER)}); the client is built from them unless
	 * the application defines a {@code CuratorFramework} bean.
	 */
	public static class ZooKeeper {

		/**
		 * Connect string of the ensemble, host:port pairs separated by commas, optionally followed by a chroot path.
		 */
		private @Nullable String connectString;

		/**
		 * Path under which the worker-ID slots of every lease namespace are kept.
		 */
		private String rootPath = "/id-starter/worker-ids";

		/**
		 * Curator namespace (a path prefix without the leading slash) applied to every path of the client built
		 * from these settings.
		 */
		private @Nullable String namespace;

		/**
		 * Session timeout to ask the ensemble for; the servers bound it by their minSessionTimeout and
		 * maxSessionTimeout. Must be at least id-worker.lease.ttl, which it defaults to: a node that loses its session
		 * then has stopped issuing before its worker ID can be taken.
		 */
		private @Nullable Duration sessionTimeout;

		/**
		 * How long to wait for a connection to the ensemble, at start and per attempt.
		 */
		private Duration connectionTimeout = Duration.ofSeconds(15);

		/**
		 * Digest credentials, "user:password". When set, the client authenticates with them and the nodes it
		 * creates are readable and writable only by that user (ZooKeeper's CREATOR_ALL_ACL).
		 */
		private @Nullable String authDigest;

		/**
		 * Leaf's leaf.name, when a Leaf Snowflake deployment shares the ensemble: every worker ID under
		 * /snowflake/{leaf-name}/forever is then treated as held by Leaf.
		 */
		private @Nullable String leafName;

		/**
		 * This node's ip:port as Leaf recorded it under /snowflake/{leaf-name}/forever when Leaf ran here; the node
		 * then takes over that worker ID above Leaf's last reported timestamp.
		 */
		private @Nullable String leafAddress;

		public @Nullable String getConnectString() {
			return this.connectString;
		}

		public void setConnectString(@Nullable String connectString) {
			this.connectString = connectString;
		}

		public String getRootPath() {
			return this.rootPath;
		}

		public void setRootPath(String rootPath) {
			this.rootPath = rootPath;
		}

		public @Nullable String getNamespace() {
			return this.namespace;
		}

		public void setNamespace(@Nullable String namespace) {
			this.namespace = namespace;
		}

		public @Nullable Duration getSessionTimeout() {
			return this.sessionTimeout;
		}

		public void setSessionTimeout(@Nullable Duration sessionTimeout) {
			this.sessionTimeout = sessionTimeout;
		}

		public Duration getConnectionTimeout() {
			return this.connectionTimeout;
		}

		public void setConnectionTimeout(Duration connectionTimeout) {
			this.connectionTimeout = connectionTimeout;
		}

		public @Nullable String getAuthDigest() {
			return this.authDigest;
		}

		public void setAuthDigest(@Nullable String authDigest) {
			this.authDigest = authDigest;
		}

		public @Nullable String getLeafName() {
			return this.leafName;
		}

		public void setLeafName(@Nullable String leafName) {
			this.leafName = leafName;
		}

		public @Nullable String getLeafAddress() {
			return this.leafAddress;
		}

		public void setLeafAddress(@Nullable String leafAddress) {
			this.leafAddress = leafAddress;
		}

	}

	/**
	 * etcd lease store settings ({@code @EnableIdWorker(mode = ETCD)}); the client is built from them unless the
	 * application defines a jetcd {@code Client} bean. The etcd lease lasts id-worker.lease.ttl, rounded up to whole
	 * seconds.
	 */
	public static class Etcd {

		/**
		 * Client endpoints of the cluster, such as http://10.0.0.1:2379 (https:// for TLS).
		 */
		private java.util.List<String> endpoints = new java.util.ArrayList<>();

		/**
		 * Prefix of every key the lease store writes.
		 */
		private String prefix = "/id-starter/worker-ids/";

		/**
		 * User for etcd's authentication, if enabled.
		 */
		private @Nullable String user;

		/**
		 * Password of the user.
		 */
		private @Nullable String password;

		/**
		 * Longest time one call to etcd may take before it counts as failed.
		 */
		private Duration callTimeout = Duration.ofSeconds(5);

		/**
		 * How long to wait for a first answer from the cluster at start.
		 */
		private Duration connectTimeout = Duration.ofSeconds(10);

		private final Tls tls = new Tls();

		public java.util.List<String> getEndpoints() {
			return this.endpoints;
		}

		public void setEndpoints(java.util.List<String> endpoints) {
			this.endpoints = endpoints;
		}

		public String getPrefix() {
			return this.prefix;
		}

		public void setPrefix(String prefix) {
			this.prefix = prefix;
		}

		public @Nullable String getUser() {
			return this.user;
		}

		public void setUser(@Nullable String user) {
			this.user = user;
		}

		public @Nullable String getPassword() {
			return this.password;
		}

		public void setPassword(@Nullable String password) {
			this.password = password;
		}

		public Duration getCallTimeout() {
			return this.callTimeout;
		}

		public void setCallTimeout(Duration callTimeout) {
			this.callTimeout = callTimeout;
		}

		public Duration getConnectTimeout() {
			return this.connectTimeout;
		}

		public void setConnectTimeout(Duration connectTimeout) {
			this.connectTimeout = connectTimeout;
		}

		public Tls getTls() {
			return this.tls;
		}

	}

	/**
	 * TLS files handed to jetcd's SSL context as they are (PEM).
	 */
	public static class Tls {

		/**
		 * CA certificate(s) to trust, PEM; when set, the client connects with TLS.
		 */
		private @Nullable Path trustCertificates;

		/**
		 * Client certificate chain, PEM, for mutual TLS.
		 */
		private @Nullable Path keyCertificateChain;

		/**
		 * Client private key, PKCS#8 PEM, for mutual TLS.
		 */
		private @Nullable Path key;

		/**
		 * Authority (server name) to verify the servers' certificates against, when it differs from the endpoints'
		 * host names.
		 */
		private @Nullable String authority;

		public @Nullable Path getTrustCertificates() {
			return this.trustCertificates;
		}

		public void setTrustCertificates(@Nullable Path trustCertificates) {
			this.trustCertificates = trustCertificates;
		}

		public @Nullable Path getKeyCertificateChain() {
			return this.keyCertificateChain;
		}

		public void setKeyCertificateChain(@Nullable Path keyCertificateChain) {
			this.keyCertificateChain = keyCertificateChain;
		}

		public @Nullable Path getKey() {
			return this.key;
		}

		public void setKey(@Nullable Path key) {
			this.key = key;
		}

		public @Nullable String getAuthority() {
			return this.authority;
		}

		public void setAuthority(@Nullable String authority) {
			this.authority = authority;
		}

	}

}
