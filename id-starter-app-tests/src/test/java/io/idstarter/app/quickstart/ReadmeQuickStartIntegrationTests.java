package io.idstarter.app.quickstart;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import io.idstarter.IdWorker;
import io.idstarter.autoconfigure.EnableIdWorker;
import io.idstarter.autoconfigure.IdWorkerMode;
import io.idstarter.segment.SegmentKeyAdmin;
import io.idstarter.testsupport.TestBackends;
import io.idstarter.testsupport.TestBackends.JdbcBackend;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.EnumerablePropertySource;
import org.springframework.core.env.PropertySource;
import org.springframework.core.io.ByteArrayResource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The README's quick start, mode by mode: the {@code application.yml} documents of its "One application.yml per mode"
 * section, read from {@code README.md} itself, with the README's application class and service. Only what points at
 * the README's servers ({@code db}, {@code cache}, {@code mongo}) is replaced by the test servers, and names the
 * shared servers need to keep tests apart (tables, key prefix, cache file) are made unique.
 */
class ReadmeQuickStartIntegrationTests {

	private static final Path README = Path.of("..", "README.md");

	private final String suffix = UUID.randomUUID().toString().replace("-", "").substring(0, 12);

	@TempDir
	Path cacheDirectory;

	@ParameterizedTest
	@ValueSource(strings = { "SEGMENT on PostgreSQL", "SEGMENT on Redis", "DB", "REDIS", "MONGO" })
	void modeOfTheReadmeIssuesIds(String heading) throws IOException {
		Map<String, Object> readme = readmeDocument(heading);
		Map<String, Object> properties = new LinkedHashMap<>(readme);
		Class<?> application = switch (heading) {
			case "DB" -> DbApplication.class;
			case "REDIS" -> RedisApplication.class;
			case "MONGO" -> MongoApplication.class;
			default -> SegmentApplication.class;
		};
		pointAtTestServers(heading, properties);
		if (heading.startsWith("SEGMENT") && !readme.containsKey("id-worker.segment.keys.order.first-id")) {
			// The README's block declares no key: an operator creates it before the service takes traffic.
			try (ConfigurableApplicationContext setup = start(application, properties)) {
				setup.getBean(SegmentKeyAdmin.class).createKey("order", 1, 1000, "README quick start");
			}
		}
		try (ConfigurableApplicationContext context = start(application, properties)) {
			OrderService orders = context.getBean(OrderService.class);
			Set<Long> ids = new HashSet<>();
			for (int i = 0; i < 2000; i++) {
				assertThat(ids.add(orders.newOrderId())).isTrue();
			}
			assertThat(ids).allMatch((id) -> id > 0);
			System.out.printf("README %s: %d IDs, 0 duplicates%n", heading, ids.size());
		}
	}

	private static ConfigurableApplicationContext start(Class<?> application, Map<String, Object> properties) {
		return new SpringApplicationBuilder(application).web(WebApplicationType.NONE).properties(properties).run();
	}

	private void pointAtTestServers(String heading, Map<String, Object> properties) {
		properties.put("id-worker.jdbc.segment-table", "qs_alloc_" + this.suffix);
		properties.put("id-worker.jdbc.lease-table", "qs_lease_" + this.suffix);
		properties.put("id-worker.redis.key-prefix", "{qs-" + this.suffix + "}:");
		properties.put("id-worker.lease.cache-file", this.cacheDirectory.resolve("worker-id").toString());
		if (properties.containsKey("id-worker.segment.marks-file")) {
			properties.put("id-worker.segment.marks-file", this.cacheDirectory.resolve("segment-marks").toString());
		}
		if (properties.containsKey("spring.datasource.url")) {
			JdbcBackend database = heading.equals("DB") ? TestBackends.mariadb() : TestBackends.postgres();
			properties.put("spring.datasource.url", database.jdbcUrl());
			if (database.username() != null) {
				properties.put("spring.datasource.username", database.username());
				properties.put("spring.datasource.password", database.password());
			}
		}
		TestBackends.RedisBackend redis = TestBackends.redis();
		if (properties.containsKey("spring.data.redis.url")) {
			properties.put("spring.data.redis.url", "redis://" + redis.host() + ":" + redis.port());
		}
		if (properties.containsKey("spring.data.redis.host")) {
			properties.put("spring.data.redis.host", redis.host());
			properties.put("spring.data.redis.port", redis.port());
		}
		if (properties.containsKey("spring.mongodb.uri")) {
			properties.put("spring.mongodb.uri", TestBackends.mongo().connectionString());
			properties.put("id-worker.mongo.lease-collection", "qs_leases_" + this.suffix);
		}
	}

	/**
	 * Returns the properties of the YAML document of the README whose first comment line starts with the heading.
	 */
	private static Map<String, Object> readmeDocument(String heading) throws IOException {
		String text = Files.readString(README, StandardCharsets.UTF_8);
		int section = text.indexOf("### One `application.yml` per mode");
		assertThat(section).as("README section").isNotNegative();
		int start = text.indexOf("```yaml", section) + "```yaml".length();
		String yaml = text.substring(start, text.indexOf("```", start));
		List<String> matching = new ArrayList<>();
		for (String document : yaml.split("(?m)^---$")) {
			if (document.strip().startsWith("# " + heading)) {
				matching.add(document);
			}
		}
		assertThat(matching).as("README document for " + heading).hasSize(1);
		List<PropertySource<?>> sources = new YamlPropertySourceLoader().load("README " + heading,
				new ByteArrayResource(matching.get(0).getBytes(StandardCharsets.UTF_8)));
		Map<String, Object> properties = new LinkedHashMap<>();
		EnumerablePropertySource<?> source = (EnumerablePropertySource<?>) sources.get(0);
		for (String name : source.getPropertyNames()) {
			properties.put(name, String.valueOf(source.getProperty(name)));
		}
		return properties;
	}

	/**
	 * The README's service.
	 */
	static class OrderService {

		private final IdWorker idWorker;

		OrderService(IdWorker idWorker) {
			this.idWorker = idWorker;
		}

		long newOrderId() {
			return this.idWorker.nextId("order");
		}

	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	@EnableIdWorker(mode = IdWorkerMode.SEGMENT)
	static class SegmentApplication {

		@Bean
		OrderService orderService(IdWorker idWorker) {
			return new OrderService(idWorker);
		}

	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	@EnableIdWorker(mode = IdWorkerMode.DB)
	static class DbApplication {

		@Bean
		OrderService orderService(IdWorker idWorker) {
			return new OrderService(idWorker);
		}

	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	@EnableIdWorker(mode = IdWorkerMode.REDIS)
	static class RedisApplication {

		@Bean
		OrderService orderService(IdWorker idWorker) {
			return new OrderService(idWorker);
		}

	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	@EnableIdWorker(mode = IdWorkerMode.MONGO)
	static class MongoApplication {

		@Bean
		OrderService orderService(IdWorker idWorker) {
			return new OrderService(idWorker);
		}

	}

}
