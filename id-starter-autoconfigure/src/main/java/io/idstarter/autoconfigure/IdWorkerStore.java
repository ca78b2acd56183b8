package io.idstarter.autoconfigure;

/**
 * Where worker-ID leases and segments are kept; each store works through a bean the application already has.
 *
 * @since 0.1.0
 */
public enum IdWorkerStore {

	/**
	 * Relational database (MySQL/MariaDB, PostgreSQL, H2) through the application's {@code DataSource}.
	 */
	JDBC("the relational database", "javax.sql.DataSource", "org.springframework.boot.jdbc.EmbeddedDatabaseConnection",
			"spring-boot-starter-jdbc (or spring-boot-starter-data-jpa) and a JDBC driver", "spring.datasource.url"),

	/**
	 * Redis through the application's {@code RedisConnectionFactory}.
	 */
	REDIS("Redis", "org.springframework.data.redis.connection.RedisConnectionFactory",
			"org.springframework.data.redis.connection.RedisConnectionFactory", "spring-boot-starter-data-redis",
			"spring.data.redis.host or spring.data.redis.url"),

	/**
	 * MongoDB through the application's {@code MongoOperations} (a {@code MongoTemplate}).
	 */
	MONGO("MongoDB", "org.springframework.data.mongodb.core.MongoOperations",
			"org.springframework.data.mongodb.core.MongoOperations", "spring-boot-starter-data-mongodb",
			"spring.mongodb.uri"),

	/**
	 * The ID servers (id-starter-sample's fleet API) over HTTP, through Spring's {@code RestClient}; the servers keep
	 * the segments and leases in their own shared store.
	 */
	HTTP("the ID servers over HTTP", "org.springframework.web.client.RestClient",
			"org.springframework.web.client.RestClient", "spring-boot-starter-restclient (or spring-web)",
			"id-worker.http.servers"),

	/**
	 * A ZooKeeper ensemble through the application's Curator {@code CuratorFramework}, or one built from
	 * {@code id-worker.zookeeper.*}; worker-ID leases only.
	 */
	ZOOKEEPER("ZooKeeper", "org.apache.curator.framework.CuratorFramework",
			"org.apache.curator.framework.CuratorFramework", "org.apache.curator:curator-framework",
			"id-worker.zookeeper.connect-string"),

	/**
	 * An etcd cluster through the application's jetcd {@code Client}, or one built from {@code id-worker.etcd.*};
	 * worker-ID leases only.
	 */
	ETCD("etcd", "io.etcd.jetcd.Client", "io.etcd.jetcd.Client", "io.etcd:jetcd-core", "id-worker.etcd.endpoints");

	private final String description;

	private final String beanType;

	private final String requiredClass;

	private final String dependency;

	private final String connectionProperty;

	IdWorkerStore(String description, String beanType, String requiredClass, String dependency,
			String connectionProperty) {
		this.description = description;
		this.beanType = beanType;
		this.requiredClass = requiredClass;
		this.dependency = dependency;
		this.connectionProperty = connectionProperty;
	}

	/**
	 * Returns the store for people, as in "leased from Redis".
	 * @return a short description
	 */
	public String description() {
		return this.description;
	}

	/**
	 * Returns whether segments can be allocated from this store ({@code id-worker.segment.store}).
	 * @return {@code false} for the coordination services, which hold worker-ID leases only
	 */
	public boolean holdsSegments() {
		return this != ZOOKEEPER && this != ETCD;
	}

	/**
	 * Returns the type of the application bean the store works through.
	 * @return a fully qualified class name
	 */
	public String beanType() {
		return this.beanType;
	}

	/**
	 * Returns a class that is on the class path when the store's libraries are.
	 * @return a fully qualified class name
	 */
	String requiredClass() {
		return this.requiredClass;
	}

	/**
	 * Returns the dependencies an application adds to use the store. Spring Boot manages the versions of the
	 * starters; the clients Spring Boot does not manage come with the version id-starter-bom manages.
	 * @return the artifact names, for messages
	 */
	String dependency() {
		return switch (this) {
			case ZOOKEEPER -> managedByOurBom(BuiltVersions.get("curator.version"));
			case ETCD -> managedByOurBom(BuiltVersions.get("jetcd.version"));
			default -> this.dependency;
		};
	}

	private String managedByOurBom(String version) {
		return this.dependency + ":" + version + " (the version id-starter was tested with; importing"
				+ " io.idstarter:id-starter-bom manages it)";
	}

	/**
	 * Returns the property that points Spring Boot at the server.
	 * @return a property name, for messages
	 */
	String connectionProperty() {
		return this.connectionProperty;
	}

}
