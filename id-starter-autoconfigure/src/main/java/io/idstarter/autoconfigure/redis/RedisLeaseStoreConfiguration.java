package io.idstarter.autoconfigure.redis;

import io.idstarter.lease.ISequenceManager;
import io.idstarter.store.redis.RedisLeaseStore;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;
import org.springframework.data.redis.connection.RedisConnectionFactory;

/**
 * Worker-ID leases in Redis (keys under {@code id-worker.redis.key-prefix}); selected by
 * {@code @EnableIdWorker(mode = REDIS)}.
 *
 * @since 0.1.0
 */
@AutoConfiguration(afterName = "org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration")
@ConditionalOnClass(RedisConnectionFactory.class)
@ConditionalOnSingleCandidate(RedisConnectionFactory.class)
@EnableConfigurationProperties(RedisStoreProperties.class)
public final class RedisLeaseStoreConfiguration {

	@Bean
	@ConditionalOnMissingBean(ISequenceManager.class)
	RedisLeaseStore redisLeaseStore(RedisConnectionFactory connectionFactory, RedisStoreProperties properties,
			Environment environment) {
		return new RedisLeaseStore(connectionFactory, properties.getKeyPrefix(),
				RedisStoreDurability.of(properties, connectionFactory, environment, "lease store"));
	}

}
