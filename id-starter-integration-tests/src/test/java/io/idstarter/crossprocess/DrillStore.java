package io.idstarter.crossprocess;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import com.mongodb.ConnectionString;
import com.mongodb.MongoClientSettings;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.connection.ClusterConnectionMode;
import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.options.DeleteOption;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.idstarter.lease.ISequenceManager;
import io.idstarter.segment.SegmentKeyAdmin;
import io.idstarter.segment.SegmentStore;
import io.idstarter.store.etcd.EtcdLeaseStore;
import io.idstarter.store.kubernetes.KubernetesLeaseStore;
import io.idstarter.testsupport.KubernetesBackend;
import io.idstarter.store.jdbc.JdbcSchema;
import io.idstarter.store.jdbc.JdbcSegmentStore;
import io.idstarter.store.jdbc.JdbcLeaseStore;
import io.idstarter.store.mongo.MongoSegmentStore;
import io.idstarter.store.mongo.MongoLeaseStore;
import io.idstarter.store.redis.RedisDurability;
import io.idstarter.store.redis.RedisSegmentStore;
import io.idstarter.store.redis.RedisLeaseStore;
import io.idstarter.store.zookeeper.ZooKeeperLeaseStore;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.Delay;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryNTimes;

import org.springframework.data.mongodb.core.MongoTemplate;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.Cursor;
import org.springframework.data.redis.core.ScanOptions;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * The segment store and lease store of one drill run on a real server, over connections with short timeouts so that
 * an outage shows within about a second. Used alike by the test JVM and by {@link IdDrillProcess} children.
 */
abstract sealed class DrillStore implements AutoCloseable {

	/** Timeouts for drills that expect the store to answer: generous, for a busy 2-core machine. */
	static final Timeouts RELAXED = new Timeouts(Duration.ofSeconds(5), Duration.ofSeconds(5));

	/** Timeouts for outage drills, so that a store cut off shows within about a second. */
	static final Timeouts SHORT = new Timeouts(Duration.ofSeconds(1), Duration.ofSeconds(2));

	/**
	 * Opens connections to a store with {@link #RELAXED} timeouts.
	 * @param spec where the store is
	 * @return the stores, to close after use
	 */
	static DrillStore open(StoreSpec spec) {
		return open(spec, RELAXED);
	}

	/**
	 * Opens connections to a store.
	 * @param spec where the store is
	 * @param timeouts how long the driver waits
	 * @return the stores, to close after use
	 */
	static DrillStore open(StoreSpec spec, Timeouts timeouts) {
		return switch (spec.kind()) {
			case MARIADB, POSTGRESQL -> new Jdbc(spec, timeouts);
			case REDIS -> new Redis(spec, timeouts);
			case MONGO -> new Mongo(spec, timeouts);
			case ZOOKEEPER -> new ZooKeeper(spec, timeouts);
			case ETCD -> new Etcd(spec, timeouts);
			case KUBERNETES -> new Kubernetes(spec, timeouts);
		};
	}

	/** The segment store of this run; set once by the subclass's constructor. */
	private SegmentStore segments;

	/** The lease store of this run; set once by the subclass's constructor. */
	private ISequenceManager leases;

	/** Called by each subclass's constructor once its stores exist. */
	final void use(SegmentStore segments, ISequenceManager leases) {
		this.segments = segments;
		this.leases = leases;
	}

	/** Called by the ensembles' constructors: they lease worker IDs only. */
	final void use(ISequenceManager leases) {
		this.leases = leases;
	}

	/**
	 * Returns the segment store of this run.
	 * @return the store
	 */
	final SegmentStore segmentStore() {
		return this.segments;
	}

	/**
	 * Returns the key administration of {@link #segmentStore()}.
	 * @return the same store
	 */
	final SegmentKeyAdmin keyAdmin() {
		return (SegmentKeyAdmin) segmentStore();
	}

	/**
	 * Returns the lease store of this run.
	 * @return the store
	 */
	final ISequenceManager sequenceManager() {
		return this.leases;
	}

	/**
	 * Creates this run's tables (JDBC); the other stores need nothing.
	 */
	void createSchema() {
	}

	/**
	 * Deletes everything this run wrote: its tables, keys or collections, and nothing else.
	 */
	abstract void dropAll();

	@Override
	public abstract void close();

	/**
	 * How long the drivers wait.
	 *
	 * @param connect to connect (and a pool, for a connection; MongoDB, to select a server)
	 * @param command for a reply
	 */
	record Timeouts(Duration connect, Duration command) {
	}

	/**
	 * MariaDB or PostgreSQL through HikariCP.
	 */
	static final class Jdbc extends DrillStore {

		private final StoreSpec spec;

		private final HikariDataSource dataSource;

		Jdbc(StoreSpec spec, Timeouts timeouts) {
			this.spec = spec;
			HikariConfig config = new HikariConfig();
			config.setJdbcUrl(withTimeouts(spec, timeouts));
			if (spec.user() != null) {
				config.setUsername(spec.user());
				config.setPassword(spec.password());
			}
			config.setPoolName("drill-" + spec.name());
			config.setMaximumPoolSize(4);
			config.setMinimumIdle(0);
			config.setConnectionTimeout(timeouts.connect().toMillis());
			config.setValidationTimeout(500);
			// Start without a connection, so that a pool can be made while the server is cut off.
			config.setInitializationFailTimeout(-1);
			this.dataSource = new HikariDataSource(config);
			use(new JdbcSegmentStore(this.dataSource, segmentTable()),
					new JdbcLeaseStore(this.dataSource, leaseTable()));
		}

		private static String withTimeouts(StoreSpec spec, Timeouts timeouts) {
			String separator = spec.url().contains("?") ? "&" : "?";
			long connect = timeouts.connect().toMillis();
			long socket = timeouts.command().toMillis();
			return switch (spec.kind()) {
				case MARIADB -> spec.url() + separator + "connectTimeout=" + connect + "&socketTimeout=" + socket;
				// PostgreSQL's driver counts these in seconds; its login (startup and authentication) has a timeout
				// of its own, unbounded by default.
				case POSTGRESQL -> spec.url() + separator + "connectTimeout=" + Math.max(1, connect / 1000)
						+ "&socketTimeout=" + Math.max(1, socket / 1000) + "&loginTimeout=" + Math.max(1, socket / 1000);
				default -> throw new IllegalArgumentException("not a JDBC store: " + spec.kind());
			};
		}

		String segmentTable() {
			return this.spec.name() + "_alloc";
		}

		String leaseTable() {
			return this.spec.name() + "_lease";
		}

		@Override
		void createSchema() {
			JdbcSchema.initialize(this.dataSource, segmentTable(), leaseTable());
		}

		@Override
		void dropAll() {
			try (Connection connection = this.dataSource.getConnection();
					Statement statement = connection.createStatement()) {
				statement.execute("DROP TABLE IF EXISTS " + segmentTable());
				statement.execute("DROP TABLE IF EXISTS " + leaseTable());
			}
			catch (SQLException ex) {
				throw new IllegalStateException("cannot drop the tables of run " + this.spec.name(), ex);
			}
		}

		@Override
		public void close() {
			this.dataSource.close();
		}

	}

	/**
	 * Redis through Lettuce; commands fail at once while the connection is down rather than queue.
	 */
	static final class Redis extends DrillStore {

		private final String prefix;

		private final ClientResources resources;

		private final LettuceConnectionFactory factory;

		Redis(StoreSpec spec, Timeouts timeouts) {
			this.prefix = "idstarter-" + spec.name() + ":";
			this.resources = ClientResources.builder().reconnectDelay(Delay.constant(Duration.ofMillis(100))).build();
			LettuceClientConfiguration client = LettuceClientConfiguration.builder()
				.clientResources(this.resources)
				.clientOptions(ClientOptions.builder()
					.socketOptions(SocketOptions.builder().connectTimeout(timeouts.connect()).build())
					.disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
					.build())
				.commandTimeout(timeouts.command())
				.shutdownQuietPeriod(Duration.ZERO)
				.build();
			this.factory = new LettuceConnectionFactory(new RedisStandaloneConfiguration(spec.host(), spec.port()),
					client);
			this.factory.afterPropertiesSet();
			this.factory.start();
			RedisDurability durability = durability(spec.url());
			use(new RedisSegmentStore(this.factory, this.prefix, durability),
					new RedisLeaseStore(this.factory, this.prefix, durability));
		}

		/**
		 * Reads what the stores demand of the server from the URL's query: {@code wait} replicas that must
		 * acknowledge each write, {@code wait-timeout} in ms, {@code require-aof=true}. None: nothing demanded.
		 */
		static RedisDurability durability(String url) {
			int query = url.indexOf('?');
			if (query < 0) {
				return RedisDurability.unchecked();
			}
			int replicas = 0;
			Duration timeout = RedisDurability.DEFAULT_WAIT_TIMEOUT;
			boolean requireAof = false;
			for (String parameter : url.substring(query + 1).split("&")) {
				String[] pair = parameter.split("=", 2);
				switch (pair[0]) {
					case "wait" -> replicas = Integer.parseInt(pair[1]);
					case "wait-timeout" -> timeout = Duration.ofMillis(Long.parseLong(pair[1]));
					case "require-aof" -> requireAof = Boolean.parseBoolean(pair[1]);
					default -> throw new IllegalArgumentException("unknown Redis drill parameter '" + pair[0] + "'");
				}
			}
			return new RedisDurability(replicas, timeout, requireAof);
		}

		@Override
		void dropAll() {
			StringRedisTemplate redis = new StringRedisTemplate(this.factory);
			List<String> keys = new ArrayList<>();
			try (Cursor<String> cursor = redis.scan(ScanOptions.scanOptions().match(this.prefix + "*").count(1000)
				.build())) {
				cursor.forEachRemaining(keys::add);
			}
			if (!keys.isEmpty()) {
				redis.delete(keys);
			}
		}

		@Override
		public void close() {
			this.factory.destroy();
			this.resources.shutdown(0, 1, TimeUnit.SECONDS);
		}

	}

	/**
	 * MongoDB through the sync driver, to a single server (directly, so a proxy in front of it is not bypassed).
	 */
	static final class Mongo extends DrillStore {

		private final StoreSpec spec;

		private final MongoClient client;

		private final MongoTemplate template;

		Mongo(StoreSpec spec, Timeouts timeouts) {
			this.spec = spec;
			ConnectionString connection = new ConnectionString(spec.url());
			MongoClientSettings.Builder settings = MongoClientSettings.builder()
				.applyConnectionString(connection)
				.applyToClusterSettings((cluster) -> cluster.serverSelectionTimeout(timeouts.connect().toMillis(),
						TimeUnit.MILLISECONDS))
				.applyToServerSettings((server) -> server.heartbeatFrequency(500, TimeUnit.MILLISECONDS)
					.minHeartbeatFrequency(100, TimeUnit.MILLISECONDS))
				.applyToSocketSettings((socket) -> socket
					.connectTimeout((int) timeouts.connect().toMillis(), TimeUnit.MILLISECONDS)
					.readTimeout((int) timeouts.command().toMillis(), TimeUnit.MILLISECONDS));
			if (connection.getHosts().size() == 1) {
				settings.applyToClusterSettings(
						(cluster) -> cluster.mode(ClusterConnectionMode.SINGLE).requiredReplicaSetName(null));
			}
			this.client = MongoClients.create(settings.build());
			String database = (connection.getDatabase() != null) ? connection.getDatabase() : "idstarter";
			this.template = new MongoTemplate(this.client, database);
			use(new MongoSegmentStore(this.template, spec.name() + "_segments"),
					new MongoLeaseStore(this.template, spec.name() + "_leases"));
		}

		@Override
		void dropAll() {
			this.template.dropCollection(this.spec.name() + "_segments");
			this.template.dropCollection(this.spec.name() + "_leases");
		}

		@Override
		public void close() {
			this.client.close();
		}

	}

	/**
	 * A ZooKeeper ensemble through Curator, slots under {@code /idstarter-drill/<name>}.
	 */
	static final class ZooKeeper extends DrillStore {

		/** Session timeout: the drills' lease TTL, the shortest a ZooKeeper lease of that TTL accepts. */
		private static final Duration SESSION_TIMEOUT = Duration.ofSeconds(3);

		private final String rootPath;

		private final CuratorFramework client;

		ZooKeeper(StoreSpec spec, Timeouts timeouts) {
			this.rootPath = "/idstarter-drill/" + spec.name();
			this.client = CuratorFrameworkFactory.builder()
				.connectString(spec.url().substring("zookeeper://".length()))
				.sessionTimeoutMs((int) SESSION_TIMEOUT.toMillis())
				.connectionTimeoutMs((int) timeouts.connect().toMillis())
				.retryPolicy(new RetryNTimes(3, 100))
				.build();
			this.client.start();
			// Connect before the drill starts, as the auto-configuration does: a busy machine's first connection is slow.
			try {
				if (!this.client.blockUntilConnected(30, TimeUnit.SECONDS)) {
					throw new IllegalStateException("no connection to ZooKeeper " + spec.url() + " within 30 s");
				}
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IllegalStateException(ex);
			}
			use(new ZooKeeperLeaseStore(this.client, this.rootPath, null));
		}

		@Override
		void dropAll() {
			try {
				if (this.client.checkExists().forPath(this.rootPath) != null) {
					this.client.delete().deletingChildrenIfNeeded().forPath(this.rootPath);
				}
			}
			catch (Exception ex) {
				throw new IllegalStateException("cannot delete " + this.rootPath, ex);
			}
		}

		@Override
		public void close() {
			this.client.close();
		}

	}

	/**
	 * An etcd cluster through jetcd, keys under {@code /idstarter-drill/<name>/}.
	 */
	static final class Etcd extends DrillStore {

		private final String prefix;

		private final Client client;

		Etcd(StoreSpec spec, Timeouts timeouts) {
			this.prefix = "/idstarter-drill/" + spec.name() + "/";
			String[] endpoints = Arrays.stream(spec.url().substring("etcd://".length()).split(","))
				.map((endpoint) -> "http://" + endpoint)
				.toArray(String[]::new);
			// Built as the auto-configuration builds it: a member without a leader refuses at once.
			this.client = EtcdLeaseStore.requireLeader(Client.builder()
				.endpoints(endpoints)
				.connectTimeout(timeouts.connect())).build();
			// Connect before the drill starts, as the auto-configuration does: a busy machine's first call is slow,
			// and a member cut off from the leader refuses (the next attempt goes to the next member).
			long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
			for (;;) {
				try {
					this.client.getClusterClient().listMember().get(30, TimeUnit.SECONDS);
					break;
				}
				catch (Exception ex) {
					if (!EtcdLeaseStore.refusedForWantOfALeader(ex) || System.nanoTime() - deadline > 0) {
						throw new IllegalStateException("no answer from etcd " + spec.url() + " within 30 s", ex);
					}
					LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50));
				}
			}
			use(new EtcdLeaseStore(this.client, this.prefix, timeouts.command(), String.join(",", endpoints)));
		}

		@Override
		void dropAll() {
			try {
				this.client.getKVClient()
					.delete(ByteSequence.from(this.prefix, StandardCharsets.UTF_8),
							DeleteOption.builder().isPrefix(true).build())
					.get(10, TimeUnit.SECONDS);
			}
			catch (Exception ex) {
				throw new IllegalStateException("cannot delete the keys under " + this.prefix, ex);
			}
		}

		@Override
		public void close() {
			this.client.close();
		}

	}

	/**
	 * Lease objects named {@code drill-<run name>-<worker ID>} in the namespace the tests use.
	 */
	static final class Kubernetes extends DrillStore {

		private final String name;

		private final KubernetesClient client;

		Kubernetes(StoreSpec spec, Timeouts timeouts) {
			this.name = spec.name();
			this.client = KubernetesBackend.clientFor(spec.url());
			KubernetesLeaseStore store = new KubernetesLeaseStore(this.client, this.client.getNamespace(), "drill", -1,
					timeouts.command());
			// Reach the API server before the drill starts, as the auto-configuration does.
			store.checkAccess();
			use(store);
		}

		@Override
		void dropAll() {
			this.client.leases()
				.withLabel(KubernetesLeaseStore.MANAGED_BY_LABEL)
				.list()
				.getItems()
				.stream()
				.filter((lease) -> this.name
					.equals(lease.getMetadata().getAnnotations().get(KubernetesLeaseStore.NAMESPACE_ANNOTATION)))
				.forEach((lease) -> this.client.leases().resource(lease).delete());
		}

		@Override
		public void close() {
			this.client.close();
		}

	}

}
