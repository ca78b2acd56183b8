package io.idstarter.autoconfigure.shardingsphere;

import io.idstarter.IdWorker;
import io.idstarter.segment.SegmentIdGenerator;
import io.idstarter.shardingsphere.ShardingSphereIdWorkers;
import io.idstarter.snowflake.SnowflakeIdGenerator;
import org.apache.shardingsphere.infra.algorithm.keygen.core.KeyGenerateAlgorithm;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * Auto-configuration that hands the application's {@link IdWorker} generators to ShardingSphere's {@code ID_STARTER}
 * key generator, when ShardingSphere is on the class path and {@code @EnableIdWorker} defines a generator.
 *
 * @since 0.2.0
 */
@AutoConfiguration(afterName = { "io.idstarter.autoconfigure.SegmentIdWorkerConfiguration",
		"io.idstarter.autoconfigure.SnowflakeIdWorkerConfiguration" })
@ConditionalOnClass(KeyGenerateAlgorithm.class)
@ConditionalOnBean(IdWorker.class)
public final class IdWorkerShardingSphereAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	ShardingSphereIdWorkers shardingSphereIdWorkers(ObjectProvider<SnowflakeIdGenerator> snowflake,
			ObjectProvider<SegmentIdGenerator> segments) {
		return new ShardingSphereIdWorkers(snowflake, segments);
	}

}
