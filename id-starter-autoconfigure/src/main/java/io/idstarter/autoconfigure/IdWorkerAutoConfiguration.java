package io.idstarter.autoconfigure;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

/**
 * Auto-configuration of the {@code id-worker.*} properties, so that they are bound and checked at start-up in every
 * application that has id-starter, and available to the actuator integration. The generators themselves are turned on
 * by {@link EnableIdWorker @EnableIdWorker}. Keys under {@code id-worker.*} that no property has are reported at start
 * with the nearest valid one.
 *
 * @since 0.1.0
 */
@AutoConfiguration
@EnableConfigurationProperties(IdWorkerProperties.class)
public final class IdWorkerAutoConfiguration {

	@Bean
	static UnknownPropertiesReporter idWorkerUnknownPropertiesReporter(Environment environment) {
		return new UnknownPropertiesReporter(environment);
	}

}
