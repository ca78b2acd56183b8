package io.idstarter.autoconfigure.redis;

import java.time.Duration;

import io.idstarter.lease.ISequenceManager;
import io.idstarter.lease.LeaseRequest;
import io.idstarter.lease.WorkerLease;
import io.idstarter.segment.SegmentAllocation;
import io.idstarter.segment.SegmentStore;
import io.idstarter.store.redis.RedisDurability;
import io.idstarter.store.redis.RedisSegmentStore;
import io.idstarter.store.redis.RedisLeaseStore;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.connection.RedisClusterConfiguration;
import org.springframework.data.redis.connection.RedisClusterConnection;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.RedisSentinelConnection;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.Mockito.mock;

class RedisStoreConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner().withConfiguration(
			AutoConfigurations.of(DataRedisAutoConfiguration.class, RedisLeaseStoreConfiguration.class,
					RedisSegmentStoreConfiguration.class));

	@Test
	void leaseStoreUsesTheApplicationsRedis() {
		this.contextRunner.run((context) -> assertThat(context).hasSingleBean(RedisLeaseStore.class)
			.doesNotHaveBean(SegmentStore.class));
	}

	@Test
	void segmentStoreIsOnlyCreatedWhenChosen() {
		this.contextRunner.withPropertyValues("id-worker.segment.store=redis")
			.run((context) -> assertThat(context).hasSingleBean(RedisSegmentStore.class));
		this.contextRunner.withPropertyValues("id-worker.segment.store=mongo")
			.run((context) -> assertThat(context).doesNotHaveBean(SegmentStore.class));
	}

	@Test
	void storesDemandAnAppendOnlyFileAndNoReplicaAcknowledgementByDefault() {
		this.contextRunner.withPropertyValues("id-worker.segment.store=redis").run((context) -> {
			RedisDurability expected = RedisDurability.persistent(0, Duration.ofSeconds(1));
			assertThat(context.getBean(RedisLeaseStore.class).durability()).isEqualTo(expected);
			assertThat(context.getBean(RedisSegmentStore.class).durability()).isEqualTo(expected);
		});
	}

	@Test
	void waitAndAllowVolatileReachBothStores() {
		this.contextRunner
			.withPropertyValues("id-worker.segment.store=redis", "id-worker.redis.wait.replicas=2",
					"id-worker.redis.wait.timeout=250ms", "id-worker.redis.allow-volatile=true")
			.run((context) -> {
				RedisDurability expected = new RedisDurability(2, Duration.ofMillis(250), false);
				assertThat(context.getBean(RedisLeaseStore.class).durability()).isEqualTo(expected);
				assertThat(context.getBean(RedisSegmentStore.class).durability()).isEqualTo(expected);
			});
	}

	@Test
	void badWaitSettingsFailWithTheKey() {
		this.contextRunner.withPropertyValues("id-worker.redis.wait.replicas=-1")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.isInstanceOf(InvalidConfigurationPropertyValueException.class)
				.hasMessageContaining("id-worker.redis.wait.replicas"));
		this.contextRunner.withPropertyValues("id-worker.redis.wait.timeout=0s")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.isInstanceOf(InvalidConfigurationPropertyValueException.class)
				.hasMessageContaining("id-worker.redis.wait.timeout"));
	}

	@Test
	void aWaitTimeoutThatTheClientWouldCutShortFailsWithTheKey() {
		this.contextRunner
			.withPropertyValues("spring.data.redis.timeout=1s", "id-worker.redis.wait.replicas=1",
					"id-worker.redis.wait.timeout=1s")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.isInstanceOf(InvalidConfigurationPropertyValueException.class)
				.hasMessageContaining("id-worker.redis.wait.timeout")
				.hasMessageContaining("spring.data.redis.timeout"));
		this.contextRunner
			.withPropertyValues("spring.data.redis.timeout=2s", "id-worker.redis.wait.replicas=1",
					"id-worker.redis.wait.timeout=1s")
			.run((context) -> assertThat(context).hasNotFailed());
	}

	@Test
	void replicaAcknowledgementOnRedisClusterIsAcceptedWithLettuce() {
		this.contextRunner
			.withPropertyValues("spring.data.redis.cluster.nodes=127.0.0.1:7001", "id-worker.redis.wait.replicas=1")
			.run((context) -> assertThat(context).hasNotFailed().hasSingleBean(RedisLeaseStore.class));
	}

	@Test
	void replicaAcknowledgementOnRedisClusterWithAnotherClientFailsWithTheKey() {
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(RedisLeaseStoreConfiguration.class))
			.withBean(RedisConnectionFactory.class, OtherClusterClientFactory::new)
			.withPropertyValues("id-worker.redis.wait.replicas=1")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.isInstanceOf(InvalidConfigurationPropertyValueException.class)
				.hasMessageContaining("id-worker.redis.wait.replicas")
				.hasMessageContaining("needs the Lettuce client"));
	}

	@Test
	void backsOffWithoutSpringDataRedis() {
		this.contextRunner.withPropertyValues("id-worker.segment.store=redis")
			.withClassLoader(new FilteredClassLoader(RedisConnectionFactory.class))
			.run((context) -> assertThat(context).hasNotFailed()
				.doesNotHaveBean(ISequenceManager.class)
				.doesNotHaveBean(SegmentStore.class));
	}

	@Test
	void backsOffWithoutAConnectionFactory() {
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(RedisLeaseStoreConfiguration.class,
					RedisSegmentStoreConfiguration.class))
			.withPropertyValues("id-worker.segment.store=redis")
			.run((context) -> assertThat(context).hasNotFailed()
				.doesNotHaveBean(ISequenceManager.class)
				.doesNotHaveBean(SegmentStore.class));
	}

	@Test
	void backsOffWhenTwoConnectionFactoriesAndNoneIsPrimary() {
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(RedisLeaseStoreConfiguration.class))
			.withBean("first", RedisConnectionFactory.class, () -> mock(RedisConnectionFactory.class))
			.withBean("second", RedisConnectionFactory.class, () -> mock(RedisConnectionFactory.class))
			.run((context) -> assertThat(context).doesNotHaveBean(ISequenceManager.class));
	}

	@Test
	void applicationStoresWin() {
		this.contextRunner.withPropertyValues("id-worker.segment.store=redis")
			.withBean(ISequenceManager.class, UserLeaseStore::new)
			.withBean(SegmentStore.class, UserSegmentStore::new)
			.run((context) -> {
				assertThat(context).doesNotHaveBean(RedisLeaseStore.class)
					.doesNotHaveBean(RedisSegmentStore.class);
				assertThat(context.getBean(ISequenceManager.class)).isInstanceOf(UserLeaseStore.class);
				assertThat(context.getBean(SegmentStore.class)).isInstanceOf(UserSegmentStore.class);
			});
	}

	/** A connection factory of another client (as Jedis's) that talks to a cluster. */
	static class OtherClusterClientFactory implements RedisConnectionFactory {

		public RedisClusterConfiguration getClusterConfiguration() {
			return new RedisClusterConfiguration(java.util.List.of("127.0.0.1:7001"));
		}

		@Override
		public boolean getConvertPipelineAndTxResults() {
			return false;
		}

		@Override
		public RedisConnection getConnection() {
			throw new UnsupportedOperationException();
		}

		@Override
		public RedisClusterConnection getClusterConnection() {
			throw new UnsupportedOperationException();
		}

		@Override
		public RedisSentinelConnection getSentinelConnection() {
			throw new UnsupportedOperationException();
		}

		@Override
		public DataAccessException translateExceptionIfPossible(RuntimeException ex) {
			return null;
		}

	}

	static class UserLeaseStore implements ISequenceManager {

		@Override
		public WorkerLease borrow(LeaseRequest request) {
			throw new UnsupportedOperationException();
		}

		@Override
		public WorkerLease renew(WorkerLease lease, long timestampCeiling) {
			throw new UnsupportedOperationException();
		}

		@Override
		public void release(WorkerLease lease, long lastIssuedTimestamp) {
		}

	}

	static class UserSegmentStore implements SegmentStore {

		@Override
		public SegmentAllocation allocate(String key) {
			throw new UnsupportedOperationException();
		}

		@Override
		public SegmentAllocation allocate(String key, int step) {
			throw new UnsupportedOperationException();
		}

		@Override
		public java.util.Set<String> keys() {
			return java.util.Set.of();
		}

	}

}
