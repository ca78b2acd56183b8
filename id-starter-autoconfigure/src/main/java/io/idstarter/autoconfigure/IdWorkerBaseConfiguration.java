package io.idstarter.autoconfigure;

import io.idstarter.time.TimeSource;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/**
 * Beans every mode shares; selected by {@link EnableIdWorker @EnableIdWorker}.
 *
 * @since 0.1.0
 */
@AutoConfiguration
@EnableConfigurationProperties(IdWorkerProperties.class)
public final class IdWorkerBaseConfiguration {

	@Bean
	@ConditionalOnMissingBean
	TimeSource idWorkerTimeSource() {
		return TimeSource.system();
	}

}
