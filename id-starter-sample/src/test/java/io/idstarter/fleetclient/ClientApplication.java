package io.idstarter.fleetclient;

import java.util.LinkedHashMap;
import java.util.Map;

import io.idstarter.autoconfigure.EnableIdWorker;
import io.idstarter.autoconfigure.IdWorkerMode;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;

/**
 * A client-mode application: segment and Snowflake IDs from the ID servers, with nothing but the three
 * {@code id-worker.http}/{@code segment.store} properties and credentials. No web server, no store of its own.
 */
@Configuration(proxyBeanMethods = false)
@EnableAutoConfiguration(excludeName = {
		"org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration",
		"org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration",
		"org.springframework.boot.data.redis.autoconfigure.DataRedisReactiveAutoConfiguration",
		"org.springframework.boot.data.redis.autoconfigure.DataRedisRepositoriesAutoConfiguration",
		"org.springframework.boot.data.redis.autoconfigure.health.DataRedisHealthContributorAutoConfiguration",
		"org.springframework.boot.data.redis.autoconfigure.health.DataRedisReactiveHealthContributorAutoConfiguration",
		"org.springframework.boot.data.redis.autoconfigure.observation.LettuceObservationAutoConfiguration",
		"org.springframework.boot.mongodb.autoconfigure.MongoAutoConfiguration",
		"org.springframework.boot.mongodb.autoconfigure.MongoReactiveAutoConfiguration",
		"org.springframework.boot.mongodb.autoconfigure.health.MongoHealthContributorAutoConfiguration",
		"org.springframework.boot.mongodb.autoconfigure.health.MongoReactiveHealthContributorAutoConfiguration",
		"org.springframework.boot.mongodb.autoconfigure.metrics.MongoMetricsAutoConfiguration",
		"org.springframework.boot.data.mongodb.autoconfigure.DataMongoAutoConfiguration",
		"org.springframework.boot.data.mongodb.autoconfigure.DataMongoReactiveAutoConfiguration",
		"org.springframework.boot.data.mongodb.autoconfigure.DataMongoReactiveRepositoriesAutoConfiguration",
		"org.springframework.boot.data.mongodb.autoconfigure.DataMongoRepositoriesAutoConfiguration" })
@EnableIdWorker(mode = { IdWorkerMode.SEGMENT, IdWorkerMode.HTTP })
public class ClientApplication {

	/**
	 * Starts a client application.
	 * @param servers comma-separated base URLs of the ID servers
	 * @param properties further properties (credentials, timeouts), name then value
	 * @return the running context
	 */
	public static ConfigurableApplicationContext start(String servers, String... properties) {
		return start(new Class<?>[0], servers, properties);
	}

	/**
	 * Starts a client application with configuration classes of its own beside it (a {@code DataSource} for a store
	 * in the application, for instance).
	 * @param sources the further configuration classes
	 * @param servers comma-separated base URLs of the ID servers
	 * @param properties further properties (credentials, timeouts), name then value
	 * @return the running context
	 */
	public static ConfigurableApplicationContext start(Class<?>[] sources, String servers, String... properties) {
		Map<String, Object> defaults = new LinkedHashMap<>();
		// Not the server's application.yml, which is on the same class path.
		defaults.put("spring.config.name", "id-client");
		defaults.put("spring.application.name", "fleet-client");
		defaults.put("id-worker.segment.store", "http");
		defaults.put("id-worker.http.servers", servers);
		defaults.put("id-worker.http.connect-timeout", "500ms");
		defaults.put("id-worker.http.read-timeout", "2s");
		defaults.put("management.endpoint.health.show-details", "always");
		defaults.put("management.endpoints.web.exposure.include", "health,idworker");
		defaults.put("management.endpoints.jmx.exposure.include", "health,idworker");
		for (int i = 0; i < properties.length; i += 2) {
			defaults.put(properties[i], properties[i + 1]);
		}
		return new SpringApplicationBuilder(ClientApplication.class).sources(sources)
			.web(WebApplicationType.NONE)
			.properties(defaults)
			.logStartupInfo(false)
			.run();
	}

}
