package io.idstarter.crossprocess;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

import io.idstarter.testsupport.KubernetesBackend;
import io.idstarter.testsupport.TestBackends;
import io.idstarter.testsupport.TestBackends.JdbcBackend;
import io.idstarter.testsupport.TestBackends.MongoBackend;
import io.idstarter.testsupport.TestBackends.RedisBackend;

/**
 * The real stores the drills run against, located through {@link TestBackends} (a missing one fails the test).
 */
enum StoreKind {

	/** MariaDB (or MySQL) through the JDBC stores. */
	MARIADB,

	/** PostgreSQL through the JDBC stores. */
	POSTGRESQL,

	/** Redis through the Lua-script stores. */
	REDIS,

	/** MongoDB; the in-JVM mongo-java-server of this JVM when no mongod can be found. */
	MONGO,

	/** A three-member ZooKeeper ensemble through Curator; worker-ID leases only. */
	ZOOKEEPER,

	/** A three-member etcd cluster through jetcd; worker-ID leases only. */
	ETCD,

	/**
	 * The Kubernetes API server: a real cluster named by {@code IDSTARTER_KUBERNETES_CONTEXT}, else the fabric8
	 * in-JVM API server of this (the test) JVM, which the children reach over HTTP; worker-ID leases only.
	 */
	KUBERNETES;

	/** System property that narrows a run to some stores, for example {@code -Didstarter.drill.stores=REDIS,MONGO}. */
	static final String SELECTED_PROPERTY = "idstarter.drill.stores";

	/**
	 * Returns the stores to drill: all of them, unless {@value #SELECTED_PROPERTY} names some (for local runs).
	 * @return the stores
	 */
	static List<StoreKind> selected() {
		String selected = System.getProperty(SELECTED_PROPERTY, "").strip();
		if (selected.isEmpty()) {
			return List.of(values());
		}
		return Arrays.stream(selected.split(",")).map((name) -> valueOf(name.strip().toUpperCase(Locale.ROOT)))
			.toList();
	}

	/**
	 * Returns the stores to drill that are one server reached at one address (every store but the ensembles and the
	 * Kubernetes API, whose outage and clock drills are not written yet), for drills that cut a store off with one
	 * proxy or read one server's clock.
	 * @return the stores
	 */
	static List<StoreKind> singleServers() {
		return selected().stream().filter((kind) -> kind != ZOOKEEPER && kind != ETCD && kind != KUBERNETES).toList();
	}

	/**
	 * Returns whether the store allocates segments as well as leasing worker IDs.
	 * @return {@code false} for the ensembles and Kubernetes
	 */
	boolean holdsSegments() {
		return this != ZOOKEEPER && this != ETCD && this != KUBERNETES;
	}

	/**
	 * Locates the server and names this run's tables, key prefix or collections.
	 * @param name a name no other run uses: lower-case letters, digits and underscores
	 * @return where the store is
	 */
	StoreSpec locate(String name) {
		return switch (this) {
			case MARIADB -> jdbc(TestBackends.mariadb(), name);
			case POSTGRESQL -> jdbc(TestBackends.postgres(), name);
			case REDIS -> {
				RedisBackend redis = TestBackends.redis();
				yield new StoreSpec(this, "redis://" + redis.host() + ":" + redis.port(), null, null, name);
			}
			case MONGO -> {
				MongoBackend mongo = TestBackends.mongo();
				yield new StoreSpec(this, mongo.connectionString(), null, null, name);
			}
			case ZOOKEEPER -> new StoreSpec(this, "zookeeper://" + TestBackends.zookeeper().connectString(), null,
					null, name);
			case ETCD -> new StoreSpec(this,
					"etcd://" + TestBackends.etcd().connectString().replace("http://", ""), null, null, name);
			case KUBERNETES -> new StoreSpec(this, KubernetesBackend.shared().address(), null, null, name);
		};
	}

	/**
	 * Says where the server was found, for test output.
	 * @return the origin
	 */
	String origin() {
		return switch (this) {
			case MARIADB -> TestBackends.mariadb().origin();
			case POSTGRESQL -> TestBackends.postgres().origin();
			case REDIS -> TestBackends.redis().origin();
			case MONGO -> TestBackends.mongo().origin();
			case ZOOKEEPER -> TestBackends.zookeeper().origin();
			case ETCD -> TestBackends.etcd().origin();
			case KUBERNETES -> KubernetesBackend.shared().toString();
		};
	}

	private StoreSpec jdbc(JdbcBackend backend, String name) {
		return new StoreSpec(this, backend.jdbcUrl(), backend.username(), backend.password(), name);
	}

}
