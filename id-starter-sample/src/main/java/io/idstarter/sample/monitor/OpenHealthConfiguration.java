package io.idstarter.sample.monitor;

import java.util.LinkedHashMap;
import java.util.Map;

import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.health.application.DiskSpaceHealthIndicator;
import org.springframework.boot.health.autoconfigure.application.DiskSpaceHealthIndicatorProperties;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * The server's health is open (load balancers read it), so its details are what anyone may see: Spring Boot's disk
 * space check without the path of the data directory. The starter's part shows store errors as codes already.
 */
@Configuration(proxyBeanMethods = false)
public class OpenHealthConfiguration {

	/** The disk space check, by the name Spring Boot's own backs off for, with the same settings. */
	@Bean
	HealthIndicator diskSpaceHealthIndicator(Environment environment) {
		DiskSpaceHealthIndicatorProperties properties = Binder.get(environment)
			.bind("management.health.diskspace", DiskSpaceHealthIndicatorProperties.class)
			.orElseGet(DiskSpaceHealthIndicatorProperties::new);
		DiskSpaceHealthIndicator check = new DiskSpaceHealthIndicator(properties.getPath(), properties.getThreshold());
		return () -> {
			Health health = check.health(true);
			Map<String, Object> details = new LinkedHashMap<>(health.getDetails());
			details.remove("path");
			return Health.status(health.getStatus()).withDetails(details).build();
		};
	}

}
