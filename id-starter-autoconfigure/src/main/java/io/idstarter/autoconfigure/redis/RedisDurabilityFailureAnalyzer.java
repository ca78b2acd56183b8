package io.idstarter.autoconfigure.redis;

import io.idstarter.store.redis.RedisDurabilityException;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;

/**
 * Explains a start refused because Redis does not give the durability the ID stores demand: no append-only file, too
 * few replicas acknowledging writes, or {@code WAIT} asked for on Redis Cluster with a client that cannot send it to
 * the write's shard. Ordered before the generic store
 * analyzer, which would otherwise blame the connection.
 */
@Order(Ordered.HIGHEST_PRECEDENCE)
class RedisDurabilityFailureAnalyzer extends AbstractFailureAnalyzer<RedisDurabilityException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, RedisDurabilityException cause) {
		return switch (cause.reason()) {
			case NOT_PERSISTENT -> new FailureAnalysis("The Redis that holds the worker-ID leases or segments would "
					+ "lose them on a restart: " + cause.getMessage(),
					"Turn on Redis's append-only file: in redis.conf 'appendonly yes' and 'appendfsync always' (or "
							+ "'everysec', which may lose about a second of writes if the host crashes), or at run "
							+ "time CONFIG SET appendonly yes / CONFIG SET appendfsync always, then CONFIG REWRITE; on "
							+ "a managed Redis, enable its AOF persistence. Only if losing them is acceptable (tests, "
							+ "a throw-away Redis), set id-worker.redis.allow-volatile=true.",
					cause);
			case NOT_ACKNOWLEDGED -> new FailureAnalysis("A worker-ID lease or segment write was not acknowledged by "
					+ "enough Redis replicas: " + cause.getMessage(),
					"Check that id-worker.redis.wait.replicas replicas are connected and in sync (INFO replication on "
							+ "the master), or lower id-worker.redis.wait.replicas, or raise "
							+ "id-worker.redis.wait.timeout.",
					cause);
			case UNSUPPORTED -> new FailureAnalysis(cause.getMessage(),
					"Use the Lettuce client (Spring Boot's default) for Redis Cluster, or set "
							+ "id-worker.redis.wait.replicas=0, or point the ID stores at a standalone or "
							+ "Sentinel-managed Redis.",
					cause);
		};
	}

}
