package io.idstarter.autoconfigure.redis;

import java.lang.reflect.Method;
import java.time.Duration;

import io.idstarter.store.redis.RedisDurability;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.core.env.Environment;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;

/**
 * The {@link RedisDurability} the auto-configured Redis stores demand, from {@code id-worker.redis.*}: an append-only
 * file unless {@code allow-volatile}, and {@code wait.replicas} acknowledgements per write.
 */
final class RedisStoreDurability {

	private static final Logger logger = LoggerFactory.getLogger(RedisStoreDurability.class);

	private RedisStoreDurability() {
	}

	static RedisDurability of(RedisStoreProperties redis, RedisConnectionFactory factory, Environment environment,
			String store) {
		int replicas = redis.getWait().getReplicas();
		Duration waitTimeout = redis.getWait().getTimeout();
		Duration commandTimeout = Binder.get(environment)
			.bind("spring.data.redis.timeout", Duration.class)
			.orElse(null);
		if (replicas > 0 && commandTimeout != null && !commandTimeout.isZero()
				&& waitTimeout.compareTo(commandTimeout) >= 0) {
			// The client would give up on WAIT first and report a timeout instead of the missing acknowledgements.
			throw new InvalidConfigurationPropertyValueException("id-worker.redis.wait.timeout", waitTimeout,
					"must be less than spring.data.redis.timeout (" + commandTimeout + "), the client's command "
							+ "timeout, which WAIT must not outlast");
		}
		if (replicas > 0 && isCluster(factory) && !isLettuce(factory)) {
			throw new InvalidConfigurationPropertyValueException("id-worker.redis.wait.replicas", replicas,
					"replica acknowledgement (WAIT) on Redis Cluster needs the Lettuce client, which sends it to the "
							+ "shard of the write; with " + factory.getClass().getSimpleName() + " use a standalone or "
							+ "Sentinel-managed Redis for IDs, or set it to 0 and accept that a failover may lose the "
							+ "last writes (docs/redis.md)");
		}
		if (redis.isAllowVolatile()) {
			logger.warn("id-worker.redis.allow-volatile=true: the Redis {} is accepted without an append-only file; a "
					+ "restart of Redis then loses worker-ID leases and segment marks, and IDs may repeat", store);
			return new RedisDurability(replicas, waitTimeout, false);
		}
		return RedisDurability.persistent(replicas, waitTimeout);
	}

	private static boolean isLettuce(RedisConnectionFactory factory) {
		String lettuce = "org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory";
		ClassLoader loader = factory.getClass().getClassLoader();
		return ClassUtils.isPresent(lettuce, loader)
				&& ClassUtils.resolveClassName(lettuce, loader).isInstance(factory);
	}

	/** Whether the factory talks to a Redis Cluster; works for Lettuce and Jedis without loading either. */
	private static boolean isCluster(RedisConnectionFactory factory) {
		Method method = ReflectionUtils.findMethod(factory.getClass(), "getClusterConfiguration");
		if (method == null) {
			return false;
		}
		try {
			ReflectionUtils.makeAccessible(method);
			return ReflectionUtils.invokeMethod(method, factory) != null;
		}
		catch (RuntimeException ex) {
			// A factory we cannot ask: the stores refuse WAIT on a cluster connection at their first call.
			return false;
		}
	}

}
