package io.idstarter.autoconfigure;

import org.jspecify.annotations.Nullable;

/**
 * How an application gets its IDs; chosen with {@link EnableIdWorker#mode()}.
 *
 * @since 0.1.0
 */
public enum IdWorkerMode {

	/**
	 * Leaf-style segments: number ranges per key from a store ({@code id-worker.segment.store}, the relational
	 * database by default), served from memory.
	 */
	SEGMENT(null),

	/**
	 * Snowflake IDs with the worker ID leased from the relational database.
	 */
	DB(IdWorkerStore.JDBC),

	/**
	 * Snowflake IDs with the worker ID leased from Redis.
	 */
	REDIS(IdWorkerStore.REDIS),

	/**
	 * Snowflake IDs with the worker ID leased from MongoDB.
	 */
	MONGO(IdWorkerStore.MONGO),

	/**
	 * Snowflake IDs with the worker ID held by a ZooKeeper session (ephemeral node), through Apache Curator.
	 */
	ZOOKEEPER(IdWorkerStore.ZOOKEEPER),

	/**
	 * Snowflake IDs with the worker ID held by an etcd lease, through jetcd.
	 */
	ETCD(IdWorkerStore.ETCD),

	/**
	 * Snowflake IDs with the worker ID leased from the ID servers over HTTP ({@code id-worker.http.*}).
	 */
	HTTP(IdWorkerStore.HTTP);

	private final @Nullable IdWorkerStore leaseStore;

	IdWorkerMode(@Nullable IdWorkerStore leaseStore) {
		this.leaseStore = leaseStore;
	}

	/**
	 * Returns whether this mode issues Snowflake IDs.
	 * @return {@code true} for every mode but {@link #SEGMENT}
	 */
	public boolean isSnowflake() {
		return this.leaseStore != null;
	}

	/**
	 * Returns the store the worker ID is leased from.
	 * @return the store, or {@code null} for {@link #SEGMENT}
	 */
	public @Nullable IdWorkerStore leaseStore() {
		return this.leaseStore;
	}

}
