package io.idstarter.testsupport;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import java.util.stream.IntStream;

import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.backend.memory.MemoryBackend;
import org.jspecify.annotations.Nullable;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.mariadb.MariaDBContainer;
import org.testcontainers.mongodb.MongoDBContainer;
import org.testcontainers.postgresql.PostgreSQLContainer;

/**
 * Finds the real servers integration tests run against, in this order: an environment variable naming the server;
 * the server on its standard localhost port; a Testcontainers container when Docker is available. A backend that
 * cannot be found fails the test with a message saying how to provide it: it is never skipped.
 *
 * <p>MongoDB has one more fallback, the in-JVM wire-protocol server {@code mongo-java-server}, because no
 * {@code mongod} can be installed on the CI machines; {@link MongoBackend#inJvm()} tells a test when it runs on it.
 *
 * <p>The localhost defaults (user and password {@code idstarter}, database {@code idstarter}) are what
 * {@code scripts/ensure-test-services.sh} creates.
 */
public final class TestBackends {

	/** Environment variable with a JDBC URL of a PostgreSQL database (user and password in the URL). */
	public static final String POSTGRES_URL = "IDSTARTER_POSTGRES_URL";

	/** Environment variable with a JDBC URL of a MariaDB or MySQL database (user and password in the URL). */
	public static final String MARIADB_URL = "IDSTARTER_MARIADB_URL";

	/** Environment variable with a {@code redis://host:port} URL. */
	public static final String REDIS_URL = "IDSTARTER_REDIS_URL";

	/** Environment variable with the nodes of a Redis Cluster: {@code host:port,host:port,...}. */
	public static final String REDIS_CLUSTER_NODES = "IDSTARTER_REDIS_CLUSTER_NODES";

	/** First port of the local Redis Cluster that {@code scripts/ensure-test-services.sh} forms (three nodes). */
	private static final int LOCAL_CLUSTER_PORT = 7001;

	/** Environment variable with a {@code mongodb://} connection string. */
	public static final String MONGO_URI = "IDSTARTER_MONGO_URI";

	/** Environment variable with a ZooKeeper connect string: {@code host:port,host:port,...}. */
	public static final String ZOOKEEPER_CONNECT = "IDSTARTER_ZOOKEEPER_CONNECT";

	/** First client port of the local ZooKeeper ensemble that {@code scripts/ensure-test-services.sh} forms. */
	private static final int LOCAL_ZOOKEEPER_PORT = 12181;

	/** Environment variable with etcd endpoints: {@code http://host:port,http://host:port,...}. */
	public static final String ETCD_ENDPOINTS = "IDSTARTER_ETCD_ENDPOINTS";

	/** First client port of the local etcd cluster that {@code scripts/ensure-test-services.sh} forms. */
	private static final int LOCAL_ETCD_PORT = 12401;

	private static final String LOCAL_USER = "idstarter";

	private static final String LOCAL_DATABASE = "idstarter";

	private static final String HINT = "set %s, start the server on 127.0.0.1:%d (scripts/ensure-test-services.sh "
			+ "installs and starts it on Debian), or make Docker available for Testcontainers";

	private static final Map<String, Object> backends = new ConcurrentHashMap<>();

	private TestBackends() {
	}

	/**
	 * Returns a PostgreSQL database.
	 * @return the database's connection details
	 */
	public static JdbcBackend postgres() {
		return cached("postgres", () -> {
			String url = System.getenv(POSTGRES_URL);
			if (url != null) {
				return new JdbcBackend("postgresql", url, null, null, "environment variable " + POSTGRES_URL);
			}
			if (answers(5432)) {
				return new JdbcBackend("postgresql", "jdbc:postgresql://127.0.0.1:5432/" + LOCAL_DATABASE, LOCAL_USER,
						LOCAL_USER, "localhost:5432");
			}
			requireDocker("PostgreSQL", POSTGRES_URL, 5432);
			PostgreSQLContainer container = new PostgreSQLContainer("postgres:16-alpine");
			container.start();
			return new JdbcBackend("postgresql", container.getJdbcUrl(), container.getUsername(),
					container.getPassword(), "Testcontainers " + container.getDockerImageName());
		});
	}

	/**
	 * Returns a MariaDB (or MySQL) database.
	 * @return the database's connection details
	 */
	public static JdbcBackend mariadb() {
		return cached("mariadb", () -> {
			String url = System.getenv(MARIADB_URL);
			if (url != null) {
				return new JdbcBackend("mariadb", url, null, null, "environment variable " + MARIADB_URL);
			}
			if (answers(3306)) {
				return new JdbcBackend("mariadb", "jdbc:mariadb://127.0.0.1:3306/" + LOCAL_DATABASE, LOCAL_USER,
						LOCAL_USER, "localhost:3306");
			}
			requireDocker("MariaDB", MARIADB_URL, 3306);
			MariaDBContainer container = new MariaDBContainer("mariadb:11");
			container.start();
			return new JdbcBackend("mariadb", container.getJdbcUrl(), container.getUsername(),
					container.getPassword(), "Testcontainers " + container.getDockerImageName());
		});
	}

	/**
	 * Returns a Redis server.
	 * @return the server's address
	 */
	public static RedisBackend redis() {
		return cached("redis", () -> {
			String url = System.getenv(REDIS_URL);
			if (url != null) {
				java.net.URI uri = java.net.URI.create(url);
				return new RedisBackend(uri.getHost(), (uri.getPort() != -1) ? uri.getPort() : 6379,
						"environment variable " + REDIS_URL);
			}
			if (answers(6379)) {
				return new RedisBackend("127.0.0.1", 6379, "localhost:6379");
			}
			requireDocker("Redis", REDIS_URL, 6379);
			GenericContainer<?> container = new GenericContainer<>("redis:7-alpine").withExposedPorts(6379);
			container.start();
			return new RedisBackend(container.getHost(), container.getMappedPort(6379),
					"Testcontainers redis:7-alpine");
		});
	}

	/**
	 * Returns a Redis Cluster. There is no Testcontainers fallback: a cluster's nodes tell clients their own addresses,
	 * which are not reachable from outside a container network.
	 * @return the cluster's nodes
	 */
	public static RedisClusterBackend redisCluster() {
		return cached("redis-cluster", () -> {
			String nodes = System.getenv(REDIS_CLUSTER_NODES);
			if (nodes != null) {
				return new RedisClusterBackend(Arrays.stream(nodes.split(",")).map(String::trim).toList(),
						"environment variable " + REDIS_CLUSTER_NODES);
			}
			if (answers(LOCAL_CLUSTER_PORT)) {
				List<String> local = IntStream.range(LOCAL_CLUSTER_PORT, LOCAL_CLUSTER_PORT + 3)
					.mapToObj((port) -> "127.0.0.1:" + port)
					.toList();
				return new RedisClusterBackend(local, "localhost:" + LOCAL_CLUSTER_PORT + "-" + (LOCAL_CLUSTER_PORT + 2));
			}
			throw new IllegalStateException("A Redis Cluster is required by this test and was not found: set "
					+ REDIS_CLUSTER_NODES + " (host:port,host:port,...) or form one on 127.0.0.1:" + LOCAL_CLUSTER_PORT
					+ "-" + (LOCAL_CLUSTER_PORT + 2) + " (scripts/ensure-test-services.sh does that on Debian)");
		});
	}

	/**
	 * Returns a MongoDB server: a real one when one can be found, otherwise the in-JVM {@code mongo-java-server}.
	 * @return the server's connection string
	 */
	public static MongoBackend mongo() {
		return cached("mongo", () -> {
			String uri = System.getenv(MONGO_URI);
			if (uri != null) {
				return new MongoBackend(uri, false, "environment variable " + MONGO_URI);
			}
			if (answers(27017)) {
				return new MongoBackend("mongodb://127.0.0.1:27017/idstarter", false, "localhost:27017");
			}
			if (dockerAvailable()) {
				MongoDBContainer container = new MongoDBContainer("mongo:7");
				container.start();
				return new MongoBackend(container.getReplicaSetUrl("idstarter"), false, "Testcontainers mongo:7");
			}
			MongoServer server = new MongoServer(new MemoryBackend());
			server.bind("127.0.0.1", 0);
			InetSocketAddress address = server.getLocalAddress();
			Runtime.getRuntime().addShutdownHook(new Thread(server::shutdownNow, "mongo-java-server-shutdown"));
			return new MongoBackend("mongodb://127.0.0.1:" + address.getPort() + "/idstarter", true,
					"in-JVM mongo-java-server (no mongod and no Docker here)");
		});
	}

	/**
	 * Returns a three-member ZooKeeper ensemble. There is no Testcontainers fallback: the ensemble comes from
	 * {@code scripts/ensure-test-services.sh} (Debian's {@code zookeeper} package) or the environment.
	 * @return the ensemble's connect string
	 */
	public static EnsembleBackend zookeeper() {
		return cached("zookeeper", () -> ensemble("ZooKeeper ensemble", ZOOKEEPER_CONNECT, LOCAL_ZOOKEEPER_PORT, ""));
	}

	/**
	 * Returns a three-member etcd cluster. There is no Testcontainers fallback: the cluster comes from
	 * {@code scripts/ensure-test-services.sh} (Debian's {@code etcd-server} package) or the environment.
	 * @return the cluster's client endpoints
	 */
	public static EnsembleBackend etcd() {
		return cached("etcd", () -> ensemble("etcd cluster", ETCD_ENDPOINTS, LOCAL_ETCD_PORT, "http://"));
	}

	private static EnsembleBackend ensemble(String what, String variable, int firstPort, String scheme) {
		String configured = System.getenv(variable);
		if (configured != null) {
			return new EnsembleBackend(Arrays.stream(configured.split(",")).map(String::trim).toList(),
					"environment variable " + variable);
		}
		List<Integer> ports = IntStream.range(firstPort, firstPort + 3).boxed().toList();
		if (ports.stream().allMatch(TestBackends::answers)) {
			return new EnsembleBackend(ports.stream().map((port) -> scheme + "127.0.0.1:" + port).toList(),
					"localhost:" + firstPort + "-" + (firstPort + 2));
		}
		throw new IllegalStateException("A three-member " + what + " is required by this test and was not found: set "
				+ variable + " (" + scheme + "host:port,...) or run scripts/ensure-test-services.sh, which installs "
				+ "Debian's packages and starts one on 127.0.0.1:" + firstPort + "-" + (firstPort + 2));
	}

	@SuppressWarnings("unchecked")
	private static <T> T cached(String name, Supplier<T> locator) {
		return (T) backends.computeIfAbsent(name, (key) -> locator.get());
	}

	private static boolean answers(int port) {
		try (Socket socket = new Socket()) {
			socket.connect(new InetSocketAddress("127.0.0.1", port), 500);
			return true;
		}
		catch (IOException ex) {
			return false;
		}
	}

	private static void requireDocker(String server, String variable, int port) {
		if (!dockerAvailable()) {
			throw new IllegalStateException(
					server + " is required by this test and was not found: " + String.format(HINT, variable, port));
		}
	}

	private static boolean dockerAvailable() {
		try {
			return DockerClientFactory.instance().isDockerAvailable();
		}
		catch (RuntimeException ex) {
			return false;
		}
	}

	/**
	 * A relational database reachable over JDBC.
	 *
	 * @param database {@code postgresql} or {@code mariadb}
	 * @param jdbcUrl the JDBC URL
	 * @param username the user, or {@code null} when the URL carries it
	 * @param password the password, or {@code null} when the URL carries it
	 * @param origin where it was found, for test output
	 */
	public record JdbcBackend(String database, String jdbcUrl, @Nullable String username, @Nullable String password,
			String origin) {
	}

	/**
	 * A Redis server.
	 *
	 * @param host the host
	 * @param port the port
	 * @param origin where it was found, for test output
	 */
	public record RedisBackend(String host, int port, String origin) {
	}

	/**
	 * A Redis Cluster.
	 *
	 * @param nodes some or all of its nodes, as {@code host:port}
	 * @param origin where it was found, for test output
	 */
	public record RedisClusterBackend(List<String> nodes, String origin) {
	}

	/**
	 * A ZooKeeper ensemble or an etcd cluster.
	 *
	 * @param members the members' client addresses ({@code host:port} for ZooKeeper, {@code http://host:port} for
	 * etcd)
	 * @param origin where it was found, for test output
	 */
	public record EnsembleBackend(List<String> members, String origin) {

		/**
		 * Returns the members joined by commas: a ZooKeeper connect string or an etcd endpoint list.
		 * @return the members
		 */
		public String connectString() {
			return String.join(",", this.members);
		}

	}

	/**
	 * A MongoDB server.
	 *
	 * @param connectionString the {@code mongodb://} connection string, with the database name
	 * @param inJvm whether it is the in-JVM {@code mongo-java-server} rather than a real {@code mongod}
	 * @param origin where it was found, for test output
	 */
	public record MongoBackend(String connectionString, boolean inJvm, String origin) {
	}

}
