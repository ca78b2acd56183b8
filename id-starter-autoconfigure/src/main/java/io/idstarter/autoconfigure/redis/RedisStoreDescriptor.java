package io.idstarter.autoconfigure.redis;

import java.util.List;

import io.idstarter.autoconfigure.IdWorkerStoreDescriptor;
import org.jspecify.annotations.Nullable;

/**
 * The Redis store through the application's {@code RedisConnectionFactory}.
 *
 * @since 0.1.0
 */
public final class RedisStoreDescriptor implements IdWorkerStoreDescriptor {

	@Override
	public String name() {
		return "redis";
	}

	@Override
	public String description() {
		return "Redis";
	}

	@Override
	public String corePackage() {
		return "io.idstarter.store.redis";
	}

	@Override
	public String beanType() {
		return "org.springframework.data.redis.connection.RedisConnectionFactory";
	}

	@Override
	public String dependency() {
		return "spring-boot-starter-data-redis";
	}

	@Override
	public String connectionProperty() {
		return "spring.data.redis.host or spring.data.redis.url";
	}

	@Override
	public String failureAction() {
		return "Check that Redis answers with the application's spring.data.redis.* settings (host and port, url, "
				+ "password, or cluster.nodes). On Redis Cluster, give id-worker.redis.key-prefix a hash tag, such as "
				+ "{ids}:, so that the keys of each script share a slot.";
	}

	@Override
	public @Nullable String leaseConfiguration() {
		return "io.idstarter.autoconfigure.redis.RedisLeaseStoreConfiguration";
	}

	@Override
	public @Nullable String segmentConfiguration() {
		return "io.idstarter.autoconfigure.redis.RedisSegmentStoreConfiguration";
	}

	/** Lua scripts of the Redis lease and segment stores, read once per class. */
	@Override
	public List<String> resourcePatterns() {
		return List.of("io/idstarter/store/redis/*.lua");
	}

}
