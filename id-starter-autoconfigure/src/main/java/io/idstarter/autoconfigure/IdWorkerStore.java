package io.idstarter.autoconfigure;

import java.util.Locale;

import org.jspecify.annotations.Nullable;

/**
 * The stores {@code id-worker.segment.store} can name, and the lease stores of the first Snowflake modes. Each
 * constant names its store's {@link IdWorkerStoreDescriptor}, which says everything else about it. A store that holds
 * worker-ID leases only needs no constant here: its {@link IdWorkerMode} constant names its descriptor.
 *
 * @since 0.1.0
 */
public enum IdWorkerStore {

	/**
	 * Relational database (MySQL/MariaDB, PostgreSQL, H2) through the application's {@code DataSource}.
	 */
	JDBC("jdbc.JdbcStoreDescriptor"),

	/**
	 * Redis through the application's {@code RedisConnectionFactory}.
	 */
	REDIS("redis.RedisStoreDescriptor"),

	/**
	 * MongoDB through the application's {@code MongoOperations} (a {@code MongoTemplate}).
	 */
	MONGO("mongo.MongoStoreDescriptor"),

	/**
	 * The ID servers (id-starter-sample's fleet API) over HTTP, through Spring's {@code RestClient}; the servers keep
	 * the segments and leases in their own shared store.
	 */
	HTTP("http.HttpStoreDescriptor"),

	/**
	 * The database's own sequences (PostgreSQL, MariaDB 10.3+, H2) through the application's {@code DataSource}: one
	 * sequence per key, whose {@code INCREMENT BY} is the key's step. Segments only.
	 */
	SEQUENCE("jdbc.SequenceStoreDescriptor"),

	/**
	 * A ZooKeeper ensemble; worker-ID leases only.
	 * @deprecated since 0.1.0 for removal; a lease-only store is named by its mode, {@link IdWorkerMode#ZOOKEEPER}
	 */
	@Deprecated(since = "0.1.0", forRemoval = true)
	ZOOKEEPER("zookeeper.ZooKeeperStoreDescriptor"),

	/**
	 * An etcd cluster; worker-ID leases only.
	 * @deprecated since 0.1.0 for removal; a lease-only store is named by its mode, {@link IdWorkerMode#ETCD}
	 */
	@Deprecated(since = "0.1.0", forRemoval = true)
	ETCD("etcd.EtcdStoreDescriptor");

	private final String descriptor;

	IdWorkerStore(String descriptor) {
		this.descriptor = "io.idstarter.autoconfigure." + descriptor;
	}

	/**
	 * Returns what id-starter knows about the store.
	 * @return the store's descriptor
	 */
	public IdWorkerStoreDescriptor descriptor() {
		return IdWorkerStores.load(this.descriptor);
	}

	/**
	 * Returns the store for people, as in "leased from Redis".
	 * @return a short description
	 */
	public String description() {
		return descriptor().description();
	}

	/**
	 * Returns whether segments can be allocated from this store ({@code id-worker.segment.store}).
	 * @return {@code false} for the coordination services, which hold worker-ID leases only
	 */
	public boolean holdsSegments() {
		return descriptor().segmentConfiguration() != null;
	}

	/**
	 * Returns the type of the application bean the store works through.
	 * @return a fully qualified class name
	 */
	public String beanType() {
		return descriptor().beanType();
	}

	/**
	 * Returns the constant of a store.
	 * @param store the store's descriptor
	 * @return the constant named like the store, or {@code null} when the store has none
	 */
	static @Nullable IdWorkerStore of(IdWorkerStoreDescriptor store) {
		for (IdWorkerStore constant : values()) {
			if (constant.name().toLowerCase(Locale.ROOT).equals(store.name())) {
				return constant;
			}
		}
		return null;
	}

}
