package io.idstarter.autoconfigure;

import java.util.Arrays;
import java.util.List;
import java.util.function.Predicate;

import org.jspecify.annotations.Nullable;

/**
 * How an application gets its IDs; chosen with {@link EnableIdWorker#mode()}. Each Snowflake mode names the
 * {@link IdWorkerStoreDescriptor} of the store it leases worker IDs from, by class name: a new store is one constant
 * here, and everything else about it lives in its own packages.
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
	DB("io.idstarter.autoconfigure.jdbc.JdbcStoreDescriptor"),

	/**
	 * Snowflake IDs with the worker ID leased from Redis.
	 */
	REDIS("io.idstarter.autoconfigure.redis.RedisStoreDescriptor"),

	/**
	 * Snowflake IDs with the worker ID leased from MongoDB.
	 */
	MONGO("io.idstarter.autoconfigure.mongo.MongoStoreDescriptor"),

	/**
	 * Snowflake IDs with the worker ID held by a ZooKeeper session (ephemeral node), through Apache Curator.
	 */
	ZOOKEEPER("io.idstarter.autoconfigure.zookeeper.ZooKeeperStoreDescriptor"),

	/**
	 * Snowflake IDs with the worker ID held by an etcd lease, through jetcd.
	 */
	ETCD("io.idstarter.autoconfigure.etcd.EtcdStoreDescriptor"),

	/**
	 * Snowflake IDs with the worker ID leased as a Kubernetes {@code Lease} object in the pod's namespace, through the
	 * fabric8 Kubernetes client.
	 */
	KUBERNETES("io.idstarter.autoconfigure.kubernetes.KubernetesStoreDescriptor"),

	/**
	 * Snowflake IDs with the worker ID leased from the ID servers over HTTP ({@code id-worker.http.*}).
	 */
	HTTP("io.idstarter.autoconfigure.http.HttpStoreDescriptor");

	/** Class name of the lease store's descriptor; {@code null} for {@link #SEGMENT}, whose store is a property. */
	private final @Nullable String storeDescriptor;

	IdWorkerMode(@Nullable String storeDescriptor) {
		this.storeDescriptor = storeDescriptor;
	}

	/**
	 * Returns whether this mode issues Snowflake IDs.
	 * @return {@code true} for every mode but {@link #SEGMENT}
	 */
	public boolean isSnowflake() {
		return this.storeDescriptor != null;
	}

	/**
	 * Lists modes for messages and reports, in declaration order, such as {@code "DB, REDIS or HTTP"}; every list
	 * of modes a message shows is made here, so that none omits a mode added later.
	 * @param which the modes to list, such as {@code IdWorkerMode::isSnowflake}
	 * @return the names, the last two joined by "or"
	 */
	public static String names(Predicate<IdWorkerMode> which) {
		List<String> names = Arrays.stream(values()).filter(which).map(Enum::name).toList();
		if (names.size() < 2) {
			return String.join("", names);
		}
		return String.join(", ", names.subList(0, names.size() - 1)) + " or " + names.get(names.size() - 1);
	}

	/**
	 * Returns the store the worker ID is leased from.
	 * @return the store's descriptor, or {@code null} for {@link #SEGMENT}
	 */
	public @Nullable IdWorkerStoreDescriptor store() {
		return (this.storeDescriptor != null) ? IdWorkerStores.load(this.storeDescriptor) : null;
	}

	/**
	 * Returns the store the worker ID is leased from, as an {@link IdWorkerStore} constant.
	 * @return the store, or {@code null} for {@link #SEGMENT} and for a store that has no constant there
	 * @deprecated since 0.1.0 for removal; use {@link #store()}, which every store has
	 */
	@Deprecated(since = "0.1.0", forRemoval = true)
	public @Nullable IdWorkerStore leaseStore() {
		IdWorkerStoreDescriptor store = store();
		return (store != null) ? IdWorkerStore.of(store) : null;
	}

}
