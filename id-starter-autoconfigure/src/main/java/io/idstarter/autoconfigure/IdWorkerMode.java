package io.idstarter.autoconfigure;

import java.util.Arrays;
import java.util.List;
import java.util.function.Predicate;

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
	 * @return the store, or {@code null} for {@link #SEGMENT}
	 */
	public @Nullable IdWorkerStore leaseStore() {
		return this.leaseStore;
	}

}
