package io.idstarter.autoconfigure;

import java.sql.SQLException;

import io.idstarter.IdGenerationException;
import io.idstarter.lease.ISequenceManager;
import io.idstarter.lease.LeaseStoreException;
import io.idstarter.segment.SegmentStore;
import io.idstarter.segment.SegmentStoreException;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Explains a {@link LeaseStoreException} or {@link SegmentStoreException} at start-up: the store could not be reached,
 * or is not set up. The exception's message names the store and what failed; the action is that store's own: the
 * datasource settings and tables for the relational database, the connection and key prefix for Redis, the URI and
 * collections for MongoDB.
 */
class IdWorkerStoreFailureAnalyzer extends AbstractFailureAnalyzer<IdGenerationException> {

	private static final String JDBC = "Check that the database answers with the application's spring.datasource.* "
			+ "settings. If a table is missing, set id-worker.jdbc.initialize-schema=always, or create it with the "
			+ "script for your database, classpath:io/idstarter/store/jdbc/schema-{mysql,postgresql,h2}.sql (with "
			+ "Flyway, Liquibase or spring.sql.init.schema-locations).";

	private static final String REDIS = "Check that Redis answers with the application's spring.data.redis.* settings "
			+ "(host and port, url, password, or cluster.nodes). On Redis Cluster, give id-worker.redis.key-prefix a "
			+ "hash tag, such as {ids}:, so that the keys of each script share a slot.";

	private static final String MONGO = "Check that MongoDB answers with the application's spring.mongodb.* settings "
			+ "(uri, or host, port and database), and that its user may read and write the collections named by "
			+ "id-worker.mongo.*.";

	private static final String ZOOKEEPER = "Check that the ZooKeeper ensemble answers with id-worker.zookeeper.* "
			+ "(connect-string, auth-digest) or the application's CuratorFramework bean.";

	private static final String ETCD = "Check that the etcd cluster answers with id-worker.etcd.* (endpoints, user and "
			+ "password, tls) or the application's jetcd Client bean.";

	private static final String HTTP = "Check that the ID servers of id-worker.http.servers answer, and that this "
			+ "client's credentials (id-worker.http.token, or username and password) are among their id-server.clients.";

	private static final String OTHER = "Check the store behind the application's %s bean: the message above says "
			+ "what failed.";

	private final @Nullable BeanFactory beanFactory;

	IdWorkerStoreFailureAnalyzer(@Nullable BeanFactory beanFactory) {
		this.beanFactory = beanFactory;
	}

	@Override
	protected @Nullable FailureAnalysis analyze(Throwable rootFailure, IdGenerationException cause) {
		if (cause instanceof LeaseStoreException) {
			return new FailureAnalysis("The worker-ID lease store failed while the Snowflake generator started: "
					+ cause.getMessage(), action(cause, ISequenceManager.class), cause);
		}
		if (cause instanceof SegmentStoreException) {
			return new FailureAnalysis("The segment store failed while the segment generator read its keys: "
					+ cause.getMessage(), action(cause, SegmentStore.class), cause);
		}
		return null;
	}

	private String action(Throwable cause, Class<?> storeType) {
		String store = storeClassName(storeType);
		if (store == null) {
			store = hasSqlCause(cause) ? "io.idstarter.store.jdbc." : "";
		}
		if (store.startsWith("io.idstarter.store.jdbc.")) {
			return JDBC;
		}
		if (store.startsWith("io.idstarter.store.redis.")) {
			return REDIS;
		}
		if (store.startsWith("io.idstarter.store.mongo.")) {
			return MONGO;
		}
		if (store.startsWith("io.idstarter.store.zookeeper.")) {
			return ZOOKEEPER;
		}
		if (store.startsWith("io.idstarter.store.etcd.")) {
			return ETCD;
		}
		if (store.startsWith("io.idstarter.store.http.")) {
			return HTTP;
		}
		return String.format(OTHER, storeType.getSimpleName());
	}

	/**
	 * Returns the class of the single store bean of a type, read from its definition (the context failed: no bean is
	 * created here).
	 */
	private @Nullable String storeClassName(Class<?> storeType) {
		if (!(this.beanFactory instanceof ListableBeanFactory beans)) {
			return null;
		}
		String[] names = beans.getBeanNamesForType(storeType, true, false);
		if (names.length != 1) {
			return null;
		}
		Class<?> type = beans.getType(names[0], false);
		return (type != null) ? type.getName() : null;
	}

	private static boolean hasSqlCause(Throwable ex) {
		for (Throwable cause = ex; cause != null; cause = cause.getCause()) {
			if (cause instanceof SQLException) {
				return true;
			}
		}
		return false;
	}

}
