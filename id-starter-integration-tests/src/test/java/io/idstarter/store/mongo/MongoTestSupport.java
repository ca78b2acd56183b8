package io.idstarter.store.mongo;

import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import com.mongodb.ConnectionString;
import com.mongodb.MongoClientSettings;
import com.mongodb.ServerAddress;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.connection.ClusterConnectionMode;
import io.idstarter.testsupport.TcpProxy;
import io.idstarter.testsupport.TestBackends;
import io.idstarter.testsupport.TestBackends.MongoBackend;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.data.mongodb.core.MongoTemplate;

/**
 * Connections to the MongoDB server of {@link TestBackends#mongo()}, with short timeouts so an outage fails fast, and
 * through a {@link TcpProxy} for outage tests.
 */
final class MongoTestSupport implements AutoCloseable {

	private static final Logger logger = LoggerFactory.getLogger(MongoTestSupport.class);

	private final MongoClient client;

	private final MongoTemplate template;

	private final TcpProxy proxy;

	private MongoTestSupport(MongoClient client, MongoTemplate template, TcpProxy proxy) {
		this.client = client;
		this.template = template;
		this.proxy = proxy;
	}

	/**
	 * Connects to the test backend, logging where it was found.
	 * @param testClass the test class, for the log line
	 * @return the connection
	 */
	static MongoTestSupport connect(Class<?> testClass) {
		MongoBackend backend = TestBackends.mongo();
		logger.info("{} runs on MongoDB from {} (in-JVM mongo-java-server: {})", testClass.getSimpleName(),
				backend.origin(), backend.inJvm());
		ConnectionString connection = new ConnectionString(backend.connectionString());
		MongoClient client = MongoClients.create(settings(connection, null));
		ServerAddress server = new ServerAddress(connection.getHosts().get(0));
		return new MongoTestSupport(client, new MongoTemplate(client, database(connection)),
				TcpProxy.start(server.getHost(), server.getPort()));
	}

	/**
	 * Returns a template on the backend's database.
	 * @return the template
	 */
	MongoTemplate template() {
		return this.template;
	}

	/**
	 * Opens a client that connects through this connection's proxy, which {@link #cut()} takes down.
	 * @return a new client, to close after use
	 */
	MongoClient proxiedClient() {
		ConnectionString connection = new ConnectionString(TestBackends.mongo().connectionString());
		return MongoClients.create(settings(connection, new ServerAddress("127.0.0.1", this.proxy.port())));
	}

	/**
	 * Returns a template for a client of {@link #proxiedClient()}.
	 * @param client the client
	 * @return the template
	 */
	static MongoTemplate template(MongoClient client) {
		return new MongoTemplate(client, database(new ConnectionString(TestBackends.mongo().connectionString())));
	}

	/** Closes the proxy's connections and refuses new ones. */
	void cut() {
		this.proxy.cut();
	}

	/** Lets the proxy's connections through again. */
	void restore() {
		this.proxy.restore();
	}

	/**
	 * Returns a name no other test uses.
	 * @param prefix what the name is for
	 * @return the prefix and a random suffix
	 */
	static String unique(String prefix) {
		return prefix + "_" + UUID.randomUUID().toString().substring(0, 8);
	}

	/**
	 * Drops a collection a test made, if it exists.
	 * @param collection its name
	 */
	void drop(String collection) {
		if (template().collectionExists(collection)) {
			template().dropCollection(collection);
		}
	}

	@Override
	public void close() {
		this.proxy.close();
		this.client.close();
	}

	private static MongoClientSettings settings(ConnectionString connection, ServerAddress proxied) {
		MongoClientSettings.Builder builder = MongoClientSettings.builder()
			.applyConnectionString(connection)
			.applyToClusterSettings((cluster) -> cluster.serverSelectionTimeout(2, TimeUnit.SECONDS))
			.applyToSocketSettings((socket) -> socket.connectTimeout(1, TimeUnit.SECONDS)
				.readTimeout(5, TimeUnit.SECONDS));
		if (proxied != null) {
			builder.applyToClusterSettings((cluster) -> cluster.hosts(List.of(proxied))
				.mode(ClusterConnectionMode.SINGLE)
				.requiredReplicaSetName(null));
		}
		return builder.build();
	}

	private static String database(ConnectionString connection) {
		return (connection.getDatabase() != null) ? connection.getDatabase() : "idstarter";
	}

}
