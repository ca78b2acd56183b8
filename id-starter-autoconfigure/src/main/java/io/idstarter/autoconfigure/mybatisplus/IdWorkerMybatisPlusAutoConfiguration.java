package io.idstarter.autoconfigure.mybatisplus;

import com.baomidou.mybatisplus.core.incrementer.IdentifierGenerator;
import io.idstarter.IdWorker;
import io.idstarter.mybatisplus.IdWorkerIdentifierGenerator;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * Auto-configuration of MyBatis-Plus' {@link IdentifierGenerator} from the application's {@link IdWorker}, when
 * MyBatis-Plus is on the class path and {@code @EnableIdWorker} defines a generator. MyBatis-Plus' Spring Boot
 * starter hands the bean to its {@code GlobalConfig}; without the starter, set it there yourself.
 *
 * @since 0.1.0
 */
@AutoConfiguration(afterName = { "io.idstarter.autoconfigure.SegmentIdWorkerConfiguration",
		"io.idstarter.autoconfigure.SnowflakeIdWorkerConfiguration" },
		beforeName = "com.baomidou.mybatisplus.autoconfigure.MybatisPlusAutoConfiguration")
@ConditionalOnClass(IdentifierGenerator.class)
@ConditionalOnBean(IdWorker.class)
public final class IdWorkerMybatisPlusAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean(IdentifierGenerator.class)
	IdWorkerIdentifierGenerator idWorkerIdentifierGenerator(IdWorker idWorker) {
		return new IdWorkerIdentifierGenerator(idWorker);
	}

}
