package io.idstarter.shardingsphere;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Properties;
import java.util.ServiceLoader;

import io.idstarter.autoconfigure.EnableIdWorker;
import io.idstarter.autoconfigure.IdWorkerMode;
import io.idstarter.autoconfigure.shardingsphere.IdWorkerShardingSphereAutoConfiguration;
import io.idstarter.segment.InMemorySegmentStore;
import io.idstarter.snowflake.SnowflakeIdGenerator;
import org.apache.shardingsphere.infra.algorithm.core.context.AlgorithmSQLContext;
import org.apache.shardingsphere.infra.algorithm.core.exception.AlgorithmExecuteException;
import org.apache.shardingsphere.infra.algorithm.core.exception.AlgorithmInitializationException;
import org.apache.shardingsphere.infra.algorithm.keygen.core.KeyGenerateAlgorithm;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * The {@code ID_STARTER} key generate algorithm and its bridge to the application context, with id-starter's
 * in-memory stores (ShardingSphere on real sharded tables: {@code ShardingSphereKeyGeneratorIntegrationTests}).
 */
class IdWorkerKeyGenerateAlgorithmTests {

	private static final AlgorithmSQLContext INSERT = new AlgorithmSQLContext("db", "public", "t_order", "order_id");

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner().withPropertyValues(
			"id-worker.testing.in-memory-stores=true", "id-worker.segment.keys.order.first-id=1000",
			// an ensemble that does not exist: the in-memory lease store stands in for it
			"id-worker.zookeeper.connect-string=127.0.0.1:1", "id-worker.zookeeper.connection-timeout=200ms");

	@Test
	void isRegisteredForShardingSpheresServiceLoaderUnderItsType() {
		List<String> types = new ArrayList<>();
		ServiceLoader.load(KeyGenerateAlgorithm.class).forEach((algorithm) -> types.add(algorithm.getType()));
		assertThat(types).contains("ID_STARTER");
	}

	@Test
	void snowflakeKeysComeFromTheApplicationsGeneratorInOneIncreasingBatch() {
		IdWorkerKeyGenerateAlgorithm algorithm = algorithm(new Properties());
		this.contextRunner.withUserConfiguration(SegmentAndSnowflake.class).run((context) -> {
			assertThat(context).hasNotFailed();
			SnowflakeIdGenerator snowflake = context.getBean(SnowflakeIdGenerator.class);
			List<Long> keys = longs(algorithm.generateKeys(INSERT, 5));
			assertThat(keys).hasSize(5).isSorted().doesNotHaveDuplicates();
			int workerId = snowflake.workerId().orElseThrow();
			assertThat(keys).allSatisfy((key) -> assertThat(snowflake.layout().parse(key).workerId()).isEqualTo(workerId));
			assertThat(snowflake.nextId()).isGreaterThan(keys.get(4));
		});
	}

	@Test
	void segmentKeysComeFromTheNamedKey() {
		IdWorkerKeyGenerateAlgorithm algorithm = algorithm(props("generator", "segment", "segment-key", "order"));
		this.contextRunner.withUserConfiguration(SegmentAndSnowflake.class).run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(longs(algorithm.generateKeys(INSERT, 3))).containsExactly(1000L, 1001L, 1002L);
		});
	}

	@Test
	void keysAskedForBeforeAnyContextIsReadyOrAfterItClosedAreRefused() {
		IdWorkerKeyGenerateAlgorithm algorithm = algorithm(new Properties());
		assertThatExceptionOfType(AlgorithmExecuteException.class).isThrownBy(() -> algorithm.generateKeys(INSERT, 1))
			.withMessageContaining("Algorithm 'Object.ID_STARTER' execute failed")
			.withMessageContaining("no Spring application context with id-starter is ready");
		this.contextRunner.withUserConfiguration(SegmentAndSnowflake.class)
			.run((context) -> assertThat(algorithm.generateKeys(INSERT, 1)).hasSize(1));
		assertThatExceptionOfType(AlgorithmExecuteException.class).isThrownBy(() -> algorithm.generateKeys(INSERT, 1))
			.withMessageContaining("no Spring application context with id-starter is ready");
	}

	@Test
	void whenTheLatestOfTwoReadyContextsClosesTheEarlierOneServesAgain() {
		IdWorkerKeyGenerateAlgorithm algorithm = algorithm(props("generator", "segment", "segment-key", "order"));
		this.contextRunner.withUserConfiguration(SegmentAndSnowflake.class).run((first) -> {
			assertThat(longs(algorithm.generateKeys(INSERT, 1))).containsExactly(1000L);
			this.contextRunner.withUserConfiguration(SegmentAndSnowflake.class)
				.withPropertyValues("id-worker.segment.keys.order.first-id=5000")
				.run((second) -> assertThat(longs(algorithm.generateKeys(INSERT, 1))).containsExactly(5000L));
			assertThat(longs(algorithm.generateKeys(INSERT, 1))).containsExactly(1001L);
		});
	}

	@Test
	void snowflakeKeysWithoutASnowflakeModeNameWhatToEnable() {
		IdWorkerKeyGenerateAlgorithm algorithm = algorithm(new Properties());
		this.contextRunner.withUserConfiguration(SegmentOnly.class).run((context) -> {
			assertThat(context).hasNotFailed();
			assertThatExceptionOfType(AlgorithmExecuteException.class)
				.isThrownBy(() -> algorithm.generateKeys(INSERT, 1))
				.withMessageContaining("generator=snowflake needs a Snowflake mode of @EnableIdWorker");
		});
	}

	@Test
	void aSegmentKeyTheStoreLacksIsNamed() {
		IdWorkerKeyGenerateAlgorithm algorithm = algorithm(props("generator", "segment", "segment-key", "invoice"));
		this.contextRunner.withUserConfiguration(SegmentAndSnowflake.class).run((context) -> {
			assertThat(context).hasNotFailed();
			assertThatExceptionOfType(AlgorithmExecuteException.class)
				.isThrownBy(() -> algorithm.generateKeys(INSERT, 1))
				.withMessageContaining("segment-key 'invoice' is not in the segment store: create the key");
		});
	}

	@Test
	void aSegmentKeyCreatedAfterStartIsServedWithoutWaitingForTheKeyRefresh() {
		IdWorkerKeyGenerateAlgorithm algorithm = algorithm(props("generator", "segment", "segment-key", "invoice"));
		this.contextRunner.withUserConfiguration(SegmentAndSnowflake.class).run((context) -> {
			context.getBean(InMemorySegmentStore.class).createKey("invoice", 77, 10, "created by another node");
			// the generator looks an unknown key up in the store at most once a second; the refresh runs every minute
			await().atMost(Duration.ofSeconds(5))
				.ignoreException(AlgorithmExecuteException.class)
				.until(() -> longs(algorithm.generateKeys(INSERT, 1)).equals(List.of(77L)));
		});
	}

	@Test
	void anUnknownPropertyIsRefusedListingTheProperties() {
		assertThatExceptionOfType(AlgorithmInitializationException.class)
			.isThrownBy(() -> algorithm(props("worker-id", "3")))
			.withMessage("Algorithm 'Object.'ID_STARTER' initialization failed, reason is: unknown property "
					+ "[worker-id]; the properties are generator (snowflake or segment) and segment-key.");
	}

	@Test
	void anUnknownGeneratorIsRefused() {
		assertThatExceptionOfType(AlgorithmInitializationException.class)
			.isThrownBy(() -> algorithm(props("generator", "uuid")))
			.withMessageContaining("generator 'uuid' is not a generator: use snowflake (the default) or segment");
	}

	@Test
	void theSegmentGeneratorWithoutAKeyIsRefused() {
		assertThatExceptionOfType(AlgorithmInitializationException.class)
			.isThrownBy(() -> algorithm(props("generator", "segment")))
			.withMessageContaining("generator=segment needs the property segment-key");
	}

	@Test
	void aSegmentKeyWithTheSnowflakeGeneratorIsRefused() {
		assertThatExceptionOfType(AlgorithmInitializationException.class)
			.isThrownBy(() -> algorithm(props("segment-key", "order")))
			.withMessageContaining("segment-key 'order' applies only to generator=segment");
	}

	@Test
	void aPercentSignInAValueDoesNotBreakTheMessage() {
		assertThatExceptionOfType(AlgorithmInitializationException.class)
			.isThrownBy(() -> algorithm(props("generator", "100%s")))
			.withMessageContaining("generator '100%s' is not a generator");
	}

	private static IdWorkerKeyGenerateAlgorithm algorithm(Properties props) {
		IdWorkerKeyGenerateAlgorithm algorithm = new IdWorkerKeyGenerateAlgorithm();
		algorithm.init(props);
		return algorithm;
	}

	private static Properties props(String... namesAndValues) {
		Properties props = new Properties();
		for (int i = 0; i < namesAndValues.length; i += 2) {
			props.setProperty(namesAndValues[i], namesAndValues[i + 1]);
		}
		return props;
	}

	private static List<Long> longs(Collection<Long> keys) {
		return new ArrayList<>(keys);
	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration(IdWorkerShardingSphereAutoConfiguration.class)
	@EnableIdWorker(mode = { IdWorkerMode.SEGMENT, IdWorkerMode.ZOOKEEPER })
	static class SegmentAndSnowflake {

	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration(IdWorkerShardingSphereAutoConfiguration.class)
	@EnableIdWorker(mode = IdWorkerMode.SEGMENT)
	static class SegmentOnly {

	}

}
