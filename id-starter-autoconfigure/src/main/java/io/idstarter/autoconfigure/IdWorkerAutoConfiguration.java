package io.idstarter.autoconfigure;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.context.properties.EnableConfigurationProperties;

/**
 * Auto-configuration of the {@code id-worker.*} properties, so that they are bound and checked at start-up in every
 * application that has id-starter, and available to the actuator integration. The generators themselves are turned on
 * by {@link EnableIdWorker @EnableIdWorker}.
 *
 * @since 0.1.0
 */
@AutoConfiguration
@EnableConfigurationProperties(IdWorkerProperties.class)
public final class IdWorkerAutoConfiguration {

}
