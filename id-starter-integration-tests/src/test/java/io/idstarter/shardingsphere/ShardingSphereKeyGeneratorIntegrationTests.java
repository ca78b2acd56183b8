package io.idstarter.shardingsphere;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import javax.sql.DataSource;

import io.idstarter.autoconfigure.EnableIdWorker;
import io.idstarter.autoconfigure.IdWorkerMode;
import io.idstarter.autoconfigure.shardingsphere.IdWorkerShardingSphereAutoConfiguration;
import io.idstarter.snowflake.SnowflakeIdGenerator;
import io.idstarter.snowflake.SnowflakeLayout;
import io.idstarter.testsupport.TestBackends;
import io.idstarter.testsupport.TestBackends.JdbcBackend;
import org.apache.shardingsphere.driver.api.yaml.YamlShardingSphereDataSourceFactory;
import org.apache.shardingsphere.infra.algorithm.core.exception.AlgorithmInitializationException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.beans.factory.support.AbstractBeanDefinition;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;

/**
 * ShardingSphere-JDBC inserting into tables sharded over two real PostgreSQL tables, with keys from the
 * {@code ID_STARTER} key generator of a Spring Boot application with {@code @EnableIdWorker} in DB and segment mode on
 * the same database.
 */
class ShardingSphereKeyGeneratorIntegrationTests {

	/** How ShardingSphere reports an algorithm's failed initialization (its AlgorithmInitializationException). */
	private static final String INITIALIZATION_FAILED = "Algorithm 'Object.'ID_STARTER' initialization failed, reason is: ";

	/**
	 * How ShardingSphere reports an algorithm's failure while it runs: its AlgorithmExecuteException, turned into an
	 * SQLException by the driver.
	 */
	private static final String EXECUTE_FAILED = "Algorithm 'Object.ID_STARTER' execute failed, reason is: ";

	private static final int THREADS = 4;

	private static final int INSERTS = 2_000;

	private final JdbcBackend database = TestBackends.postgres();

	private final String suffix = UUID.randomUUID().toString().replace("-", "").substring(0, 12);

	/** Logic table; its shards are {@code <table>_0} and {@code <table>_1}. */
	private final String table = "it_ss_order_" + this.suffix;

	private final String leaseTable = "it_ss_lease_" + this.suffix;

	private final String segmentTable = "it_ss_alloc_" + this.suffix;

	private final String segmentKey = "ss-order-" + this.suffix;

	@TempDir
	Path files;

	private ApplicationContextRunner contextRunner() {
		ApplicationContextRunner runner = new ApplicationContextRunner()
						.withUserConfiguration(Application.class)
			.withPropertyValues("spring.datasource.url=" + this.database.jdbcUrl(),
					"spring.datasource.hikari.maximum-pool-size=2", "id-worker.jdbc.initialize-schema=always",
					"id-worker.jdbc.lease-table=" + this.leaseTable, "id-worker.jdbc.segment-table=" + this.segmentTable,
					"id-worker.lease.namespace=it-ss-" + this.suffix,
					"id-worker.lease.cache-file=" + this.files.resolve("worker-id"),
					"id-worker.segment.marks-file=" + this.files.resolve("marks"),
					"id-worker.segment.keys." + this.segmentKey + ".first-id=1000",
					"id-worker.segment.keys." + this.segmentKey + ".step=100");
		if (this.database.username() != null) {
			runner = runner.withPropertyValues("spring.datasource.username=" + this.database.username(),
					"spring.datasource.password=" + this.database.password());
		}
		return runner;
	}

	@BeforeEach
	void createShards() throws SQLException {
		try (Connection connection = connect(); Statement statement = connection.createStatement()) {
			for (int shard = 0; shard < 2; shard++) {
				statement.execute("CREATE TABLE " + this.table + "_" + shard
						+ " (id BIGINT PRIMARY KEY, item VARCHAR(20) NOT NULL)");
			}
		}
	}

	@AfterEach
	void dropTables() throws SQLException {
		try (Connection connection = connect(); Statement statement = connection.createStatement()) {
			for (String name : List.of(this.table + "_0", this.table + "_1", this.leaseTable, this.segmentTable)) {
				statement.execute("DROP TABLE IF EXISTS " + name);
			}
		}
	}

	@Test
	void concurrentInsertsWithoutAnIdGetSnowflakeIdsOfTheApplicationsLayoutInBothShards() throws Exception {
		String yaml = shardingYaml("");
		// The ShardingSphere data source is a bean of the application, created while the context starts (before the
		// generators are handed over), and not a candidate for id-starter's own DataSource.
		this.contextRunner()
			.withBean("shardingDataSource", DataSource.class, () -> ShardingConfiguration.create(yaml), (definition) -> {
				((AbstractBeanDefinition) definition).setDefaultCandidate(false);
				((AbstractBeanDefinition) definition).setDestroyMethodName("close");
			})
			.run((context) -> {
				assertThat(context).hasNotFailed();
				DataSource sharded = context.getBean("shardingDataSource", DataSource.class);
				assertThat(sharded.getClass().getName()).contains("ShardingSphere");
				List<Long> returned = insertConcurrently(sharded);
				SnowflakeIdGenerator snowflake = context.getBean(SnowflakeIdGenerator.class);
				SnowflakeLayout layout = snowflake.layout();
				int workerId = snowflake.workerId().orElseThrow();
				List<Long> stored = storedIds();
				assertThat(stored).hasSize(INSERTS).doesNotHaveDuplicates();
				assertThat(new HashSet<>(stored)).isEqualTo(new HashSet<>(returned));
				assertThat(stored)
					.allSatisfy((id) -> assertThat(layout.parse(id).workerId()).isEqualTo(workerId));
				assertThat(count(this.table + "_0")).isPositive();
				assertThat(count(this.table + "_1")).isPositive();
			});
	}

	@Test
	void concurrentInsertsWithTheSegmentGeneratorGetIdsOfTheSegmentKey() throws Exception {
		this.contextRunner().run((context) -> {
			assertThat(context).hasNotFailed();
			DataSource sharded = ShardingConfiguration
				.create(shardingYaml("generator: segment\n        segment-key: " + this.segmentKey));
			try {
				insertConcurrently(sharded);
				List<Long> stored = storedIds();
				assertThat(stored).hasSize(INSERTS).doesNotHaveDuplicates();
				// The key starts at 1000 and hands out ranges of 100: 2,000 IDs from it lie in [1000, 1000 + 2,000 +
				// one unfinished range per prefetch and node).
				assertThat(stored).allSatisfy((id) -> assertThat(id).isBetween(1000L, 1000L + INSERTS + 1_000L));
				assertThat(maxIdOfSegmentKey()).isGreaterThanOrEqualTo(stored.stream().mapToLong(Long::longValue).max()
					.getAsLong());
				assertThat(count(this.table + "_0")).isPositive();
				assertThat(count(this.table + "_1")).isPositive();
			}
			finally {
				close(sharded);
			}
		});
	}

	@Test
	void anInsertBeforeAnyApplicationContextIsReadyFailsNamingWhatIsMissing() throws Exception {
		DataSource sharded = ShardingConfiguration.create(shardingYaml(""));
		try (Connection connection = sharded.getConnection();
				PreparedStatement insert = connection.prepareStatement("INSERT INTO " + this.table + " (item) VALUES (?)")) {
			insert.setString(1, "early");
			assertThatException().isThrownBy(insert::executeUpdate)
				.satisfies((ex) -> assertThat(rootCause(ex)).isInstanceOf(SQLException.class)
					.hasMessageContaining(EXECUTE_FAILED)
					.hasMessageContaining("no Spring application context with id-starter is ready")
					.hasMessageContaining("@EnableIdWorker"));
		}
		finally {
			close(sharded);
		}
		assertThat(count(this.table + "_0") + count(this.table + "_1")).isZero();
	}

	@Test
	void anUnknownPropertyFailsTheDataSourceWithShardingSpheresInitializationError() {
		assertThatException().isThrownBy(() -> ShardingConfiguration.create(shardingYaml("generatr: segment")))
			.satisfies((ex) -> assertThat(rootCause(ex)).isInstanceOf(AlgorithmInitializationException.class)
				.hasMessageContaining(INITIALIZATION_FAILED)
				.hasMessageContaining("unknown property [generatr]")
				.hasMessageContaining("generator (snowflake or segment) and segment-key"));
	}

	@Test
	void theSegmentGeneratorWithoutASegmentKeyFailsTheDataSourceWithShardingSpheresInitializationError() {
		assertThatException().isThrownBy(() -> ShardingConfiguration.create(shardingYaml("generator: segment")))
			.satisfies((ex) -> assertThat(rootCause(ex)).isInstanceOf(AlgorithmInitializationException.class)
				.hasMessageContaining(INITIALIZATION_FAILED)
				.hasMessageContaining("generator=segment needs the property segment-key"));
	}

	@Test
	void aSegmentKeyMissingFromTheStoreFailsTheInsertNamingTheKey() throws Exception {
		this.contextRunner().run((context) -> {
			assertThat(context).hasNotFailed();
			DataSource sharded = ShardingConfiguration
				.create(shardingYaml("generator: segment\n        segment-key: no-such-key-" + this.suffix));
			try (Connection connection = sharded.getConnection();
					PreparedStatement insert = connection
						.prepareStatement("INSERT INTO " + this.table + " (item) VALUES (?)")) {
				insert.setString(1, "orphan");
				assertThatException().isThrownBy(insert::executeUpdate)
					.satisfies((ex) -> assertThat(rootCause(ex)).isInstanceOf(SQLException.class)
						.hasMessageContaining(EXECUTE_FAILED)
						.hasMessageContaining("segment-key 'no-such-key-" + this.suffix + "' is not in the segment store"));
			}
			finally {
				close(sharded);
			}
		});
	}

	private List<Long> insertConcurrently(DataSource sharded) throws Exception {
		ExecutorService executor = Executors.newFixedThreadPool(THREADS);
		try {
			List<Future<List<Long>>> futures = new ArrayList<>();
			for (int thread = 0; thread < THREADS; thread++) {
				int first = thread * (INSERTS / THREADS);
				futures.add(executor.submit(() -> insert(sharded, first, INSERTS / THREADS)));
			}
			List<Long> ids = new ArrayList<>();
			for (Future<List<Long>> future : futures) {
				ids.addAll(future.get(2, TimeUnit.MINUTES));
			}
			return ids;
		}
		finally {
			executor.shutdownNow();
		}
	}

	private List<Long> insert(DataSource sharded, int first, int count) throws SQLException {
		List<Long> ids = new ArrayList<>();
		try (Connection connection = sharded.getConnection();
				PreparedStatement insert = connection.prepareStatement(
						"INSERT INTO " + this.table + " (item) VALUES (?)", Statement.RETURN_GENERATED_KEYS)) {
			for (int i = first; i < first + count; i++) {
				insert.setString(1, "item-" + i);
				assertThat(insert.executeUpdate()).isOne();
				try (ResultSet keys = insert.getGeneratedKeys()) {
					while (keys.next()) {
						ids.add(keys.getLong(1));
					}
				}
			}
		}
		return ids;
	}

	/**
	 * ShardingSphere-JDBC's YAML: one PostgreSQL data source, the logic table split into {@code <table>_0} and
	 * {@code <table>_1} by {@code HASH_MOD} of the ID (a plain {@code MOD} would put every Snowflake ID whose sequence
	 * is 0 in one table) and its key from {@code ID_STARTER}.
	 */
	private String shardingYaml(String keyGeneratorProps) {
		String props = keyGeneratorProps.isEmpty() ? "" : "\n      props:\n        " + keyGeneratorProps;
		return """
				databaseName: it_ss_%1$s
				dataSources:
				  ds:
				    dataSourceClassName: com.zaxxer.hikari.HikariDataSource
				    driverClassName: org.postgresql.Driver
				    jdbcUrl: %2$s
				    username: %3$s
				    password: %4$s
				    maximumPoolSize: %5$d
				rules:
				- !SHARDING
				  autoTables:
				    %6$s:
				      actualDataSources: ds
				      shardingStrategy:
				        standard:
				          shardingColumn: id
				          shardingAlgorithmName: by_id
				      keyGenerateStrategy:
				        column: id
				        keyGeneratorName: id_starter
				  shardingAlgorithms:
				    by_id:
				      type: HASH_MOD
				      props:
				        sharding-count: 2
				  keyGenerators:
				    id_starter:
				      type: ID_STARTER%7$s
				""".formatted(this.suffix, this.database.jdbcUrl(), nullToEmpty(this.database.username()),
				nullToEmpty(this.database.password()), THREADS + 1, this.table, props);
	}

	private static String nullToEmpty(String value) {
		return (value != null) ? value : "";
	}

	private List<Long> storedIds() throws SQLException {
		List<Long> ids = new ArrayList<>();
		try (Connection connection = connect(); Statement statement = connection.createStatement()) {
			for (int shard = 0; shard < 2; shard++) {
				try (ResultSet rows = statement.executeQuery("SELECT id FROM " + this.table + "_" + shard)) {
					while (rows.next()) {
						ids.add(rows.getLong(1));
					}
				}
			}
		}
		return ids;
	}

	private long maxIdOfSegmentKey() throws SQLException {
		try (Connection connection = connect();
				PreparedStatement query = connection
					.prepareStatement("SELECT max_id FROM " + this.segmentTable + " WHERE biz_tag = ?")) {
			query.setString(1, this.segmentKey);
			try (ResultSet rows = query.executeQuery()) {
				assertThat(rows.next()).isTrue();
				return rows.getLong(1);
			}
		}
	}

	private long count(String name) throws SQLException {
		try (Connection connection = connect();
				Statement statement = connection.createStatement();
				ResultSet rows = statement.executeQuery("SELECT COUNT(*) FROM " + name)) {
			rows.next();
			return rows.getLong(1);
		}
	}

	private Connection connect() throws SQLException {
		return (this.database.username() != null)
				? DriverManager.getConnection(this.database.jdbcUrl(), this.database.username(),
						this.database.password())
				: DriverManager.getConnection(this.database.jdbcUrl());
	}

	private static void close(DataSource dataSource) throws Exception {
		if (dataSource instanceof AutoCloseable closeable) {
			closeable.close();
		}
	}

	private static Throwable rootCause(Throwable failure) {
		Throwable cause = failure;
		while (cause.getCause() != null) {
			cause = cause.getCause();
		}
		return cause;
	}

	/**
	 * Auto-configurations imported as an application's are: sorted with those {@code @EnableIdWorker} selects.
	 */
	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ DataSourceAutoConfiguration.class, IdWorkerShardingSphereAutoConfiguration.class })
	@EnableIdWorker(mode = { IdWorkerMode.DB, IdWorkerMode.SEGMENT })
	static class Application {

	}

	/**
	 * Creates ShardingSphere-JDBC data sources from YAML, as an application's configuration would.
	 */
	static final class ShardingConfiguration {

		static DataSource create(String yaml) {
			try {
				return YamlShardingSphereDataSourceFactory.createDataSource(yaml.getBytes(StandardCharsets.UTF_8));
			}
			catch (SQLException | IOException ex) {
				throw new IllegalStateException(ex);
			}
		}

	}

}
