package io.idstarter.sample;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Consumer;

import com.jayway.jsonpath.DocumentContext;
import com.jayway.jsonpath.JsonPath;
import io.idstarter.testsupport.TestBackends;

import org.junit.jupiter.api.Test;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.data.mongodb.core.MongoOperations;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.jdbc.core.JdbcTemplate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Each store profile ({@code mariadb}, {@code postgresql}, {@code redis}, {@code mongo}) against its real server: the
 * server starts, serves segment and Snowflake IDs with a worker ID leased from that store, and after a restart
 * issues only IDs above the earlier ones. Every run uses its own tables, key prefix or collections and removes them.
 */
class StoreProfilesIntegrationTests {

	private final String suffix = UUID.randomUUID().toString().replace("-", "").substring(0, 10);

	@Test
	void mariadbProfileKeepsSegmentsAndLeasesInMariaDb() {
		TestBackends.JdbcBackend db = TestBackends.mariadb();
		runTwice("mariadb", jdbc(db), this::dropTables);
	}

	@Test
	void postgresqlProfileKeepsSegmentsAndLeasesInPostgreSql() {
		TestBackends.JdbcBackend db = TestBackends.postgres();
		runTwice("postgresql", jdbc(db), this::dropTables);
	}

	@Test
	void redisProfileKeepsSegmentsAndLeasesInRedis() {
		TestBackends.RedisBackend redis = TestBackends.redis();
		Map<String, String> properties = new LinkedHashMap<>();
		properties.put("spring.data.redis.host", redis.host());
		properties.put("spring.data.redis.port", Integer.toString(redis.port()));
		properties.put("id-worker.redis.key-prefix", prefix());
		runTwice("redis", properties, (context) -> {
			StringRedisTemplate redisTemplate = new StringRedisTemplate(context.getBean(RedisConnectionFactory.class));
			Set<String> keys = redisTemplate.keys(prefix() + "*");
			assertThat(keys).as("keys written under the prefix").isNotEmpty();
			redisTemplate.delete(keys);
		});
	}

	@Test
	void mongoProfileKeepsSegmentsAndLeasesInMongoDb() {
		// Without a mongod here, TestBackends falls back to the in-JVM mongo-java-server.
		TestBackends.MongoBackend mongo = TestBackends.mongo();
		Map<String, String> properties = new LinkedHashMap<>();
		properties.put("spring.mongodb.uri", mongo.connectionString());
		properties.put("id-worker.mongo.segment-collection", "segments_" + this.suffix);
		properties.put("id-worker.mongo.lease-collection", "leases_" + this.suffix);
		runTwice("mongo", properties, (context) -> {
			MongoOperations operations = context.getBean(MongoOperations.class);
			assertThat(operations.collectionExists("segments_" + this.suffix)).isTrue();
			operations.dropCollection("segments_" + this.suffix);
			operations.dropCollection("leases_" + this.suffix);
		});
	}

	private Map<String, String> jdbc(TestBackends.JdbcBackend db) {
		Map<String, String> properties = new LinkedHashMap<>();
		properties.put("spring.datasource.url", db.jdbcUrl());
		if (db.username() != null) {
			properties.put("spring.datasource.username", db.username());
		}
		if (db.password() != null) {
			properties.put("spring.datasource.password", db.password());
		}
		properties.put("id-worker.jdbc.segment-table", "leaf_alloc_" + this.suffix);
		properties.put("id-worker.jdbc.lease-table", "id_worker_lease_" + this.suffix);
		return properties;
	}

	private void dropTables(ConfigurableApplicationContext context) {
		JdbcTemplate jdbc = context.getBean(JdbcTemplate.class);
		// The three declared keys and the settings record of the periodic key 'invoice' (its periods are made on use).
		assertThat(jdbc.queryForList("SELECT biz_tag FROM leaf_alloc_" + this.suffix, String.class))
			.containsExactlyInAnyOrder("leaf-segment-test", "order", "user", "invoice:settings");
		jdbc.execute("DROP TABLE leaf_alloc_" + this.suffix);
		jdbc.execute("DROP TABLE id_worker_lease_" + this.suffix);
	}

	private String prefix() {
		return "id-server-test-" + this.suffix + ":";
	}

	private void runTwice(String profile, Map<String, String> storeProperties,
			Consumer<ConfigurableApplicationContext> cleanup) {
		String namespace = "id-server-test-" + this.suffix;
		List<String> properties = new ArrayList<>();
		storeProperties.forEach((name, value) -> properties.add("--" + name + "=" + value));
		properties.add("--server.port=0");
		properties.add("--id-server.data-dir=" + TestDataDirs.create(profile));
		properties.add("--id-worker.lease.namespace=" + namespace);
		List<Long> segmentBefore;
		List<Long> snowflakeBefore;
		try (ConfigurableApplicationContext first = start(profile, properties)) {
			HttpTestClient http = client(first);
			DocumentContext monitor = HttpTestClient.json(http.get("/api/monitor"));
			assertThat(monitor.read("$.snowflake.lease.state", String.class)).isEqualTo("ACTIVE");
			assertThat(monitor.read("$.snowflake.lease.namespace", String.class)).isEqualTo(namespace);
			assertThat(monitor.read("$.segmentKeys[*].key", List.class)).contains("leaf-segment-test", "order", "user");
			segmentBefore = ids(http, "/api/segment/batch/order?count=2500&format=string");
			snowflakeBefore = ids(http, "/api/snowflake/batch/any?count=2500&format=string");
		}
		ConfigurableApplicationContext second = start(profile, properties);
		try {
			HttpTestClient http = client(second);
			List<Long> segmentAfter = ids(http, "/api/segment/batch/order?count=2500&format=string");
			List<Long> snowflakeAfter = ids(http, "/api/snowflake/batch/any?count=2500&format=string");
			assertThat(Collections.min(segmentAfter)).isGreaterThan(Collections.max(segmentBefore));
			assertThat(Collections.min(snowflakeAfter)).isGreaterThan(Collections.max(snowflakeBefore));
		}
		finally {
			try {
				cleanup.accept(second);
			}
			finally {
				second.close();
			}
		}
	}

	private static ConfigurableApplicationContext start(String profile, List<String> properties) {
		return new SpringApplicationBuilder(IdServerApplication.class).profiles(profile)
			.run(properties.toArray(String[]::new));
	}

	private static HttpTestClient client(ConfigurableApplicationContext context) {
		return new HttpTestClient(Integer.parseInt(context.getEnvironment().getRequiredProperty("local.server.port")));
	}

	private static List<Long> ids(HttpTestClient http, String path) {
		String body = http.get(path).body();
		List<String> strings = JsonPath.parse(body).read("$");
		List<Long> ids = strings.stream().map(Long::parseLong).toList();
		assertThat(new HashSet<>(ids)).hasSameSizeAs(ids);
		return ids;
	}

}
