package io.idstarter.autoconfigure.redis;

import java.time.Duration;

import io.idstarter.autoconfigure.PropertyRules;
import io.idstarter.store.redis.RedisDurability;
import io.idstarter.store.redis.RedisKeyPrefix;

import org.springframework.beans.factory.InitializingBean;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Redis store settings, under {@code id-worker.redis}; bound, and checked, only when a mode or
 * {@code id-worker.segment.store} selects Redis.
 *
 * @since 0.1.0
 */
@ConfigurationProperties(prefix = "id-worker.redis", ignoreUnknownFields = false)
public class RedisStoreProperties implements InitializingBean {

	/**
	 * Prefix of every Redis key the stores write.
	 */
	private String keyPrefix = "id-starter:";

	/**
	 * Whether to accept a Redis that keeps no append-only file (only RDB snapshots, or nothing). Unsafe: a
	 * restart of such a Redis loses worker-ID leases and segment marks, and IDs may then repeat.
	 */
	private boolean allowVolatile;

	private final Wait wait = new Wait();

	public String getKeyPrefix() {
		return this.keyPrefix;
	}

	public void setKeyPrefix(String keyPrefix) {
		this.keyPrefix = keyPrefix;
	}

	public boolean isAllowVolatile() {
		return this.allowVolatile;
	}

	public void setAllowVolatile(boolean allowVolatile) {
		this.allowVolatile = allowVolatile;
	}

	public Wait getWait() {
		return this.wait;
	}

	/**
	 * Replica acknowledgement of each lease and segment write (Redis WAIT).
	 */
	public static class Wait {

		/**
		 * Replicas that must acknowledge each lease and segment write before it counts; 0 for none. A write
		 * acknowledged by fewer within the timeout fails as a store failure. Set it when Redis may fail over to
		 * a replica (Sentinel, a managed service).
		 */
		private int replicas;

		/**
		 * How long a write waits for the replicas' acknowledgements. Keep it below the client's command timeout
		 * and well below the lease heartbeat.
		 */
		private Duration timeout = Duration.ofSeconds(1);

		public int getReplicas() {
			return this.replicas;
		}

		public void setReplicas(int replicas) {
			this.replicas = replicas;
		}

		public Duration getTimeout() {
			return this.timeout;
		}

		public void setTimeout(Duration timeout) {
			this.timeout = timeout;
		}

	}

	@Override
	public void afterPropertiesSet() {
		PropertyRules.check("id-worker.redis.key-prefix", this.keyPrefix, () -> RedisKeyPrefix.check(this.keyPrefix));
		PropertyRules.check("id-worker.redis.wait.replicas", this.wait.getReplicas(),
				() -> new RedisDurability(this.wait.getReplicas(), RedisDurability.DEFAULT_WAIT_TIMEOUT, false));
		PropertyRules.check("id-worker.redis.wait.timeout", PropertyRules.format(this.wait.getTimeout()),
				() -> new RedisDurability(0, this.wait.getTimeout(), false));
	}

}
