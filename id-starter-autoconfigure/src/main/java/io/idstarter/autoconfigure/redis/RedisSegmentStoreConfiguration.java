package io.idstarter.autoconfigure.redis;

import io.idstarter.segment.SegmentStore;
import io.idstarter.store.redis.RedisSegmentStore;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;
import org.springframework.data.redis.connection.RedisConnectionFactory;

/**
 * Segments from Redis (keys under {@code id-worker.redis.key-prefix}); selected by
 * {@code @EnableIdWorker(mode = SEGMENT)} with {@code id-worker.segment.store=redis}.
 *
 * @since 0.1.0
 */
@AutoConfiguration(afterName = "org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration")
@ConditionalOnClass(RedisConnectionFactory.class)
@ConditionalOnProperty(name = "id-worker.segment.store", havingValue = "redis")
@ConditionalOnSingleCandidate(RedisConnectionFactory.class)
@EnableConfigurationProperties(RedisStoreProperties.class)
public final class RedisSegmentStoreConfiguration {

	@Bean
	@ConditionalOnMissingBean(SegmentStore.class)
	RedisSegmentStore redisSegmentStore(RedisConnectionFactory connectionFactory, RedisStoreProperties properties,
			Environment environment) {
		return new RedisSegmentStore(connectionFactory, properties.getKeyPrefix(),
				RedisStoreDurability.of(properties, connectionFactory, environment, "segment store"));
	}

}
