package io.idstarter.autoconfigure;

import io.idstarter.IdWorker;
import io.idstarter.lease.ISequenceManager;
import io.idstarter.lease.InMemoryLeaseStore;
import io.idstarter.segment.InMemorySegmentStore;
import io.idstarter.segment.SegmentStore;
import io.idstarter.snowflake.SnowflakeIdGenerator;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.client.RestClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code id-worker.testing.in-memory-stores} runs an application's modes on the in-memory reference stores: no
 * server of the modes is contacted, and the generators issue IDs as they would on the real stores.
 */
class InMemoryStoresTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withPropertyValues("id-worker.testing.in-memory-stores=true", "id-worker.segment.keys.order.first-id=1000");

	@Test
	void segmentAndZooKeeperModesRunWithoutTheEnsemble() {
		this.contextRunner.withUserConfiguration(SegmentAndZooKeeper.class)
			// an ensemble that does not exist: the test would fail within the connection timeout if it were used
			.withPropertyValues("id-worker.zookeeper.connect-string=127.0.0.1:1",
					"id-worker.zookeeper.connection-timeout=200ms")
			.run((context) -> {
				assertThat(context).hasNotFailed().doesNotHaveBean(CuratorFramework.class);
				assertThat(context.getBean(ISequenceManager.class)).isInstanceOf(InMemoryLeaseStore.class);
				assertThat(context.getBean(SegmentStore.class)).isInstanceOf(InMemorySegmentStore.class);
				assertThat(context.getBean(IdWorker.class).nextId("order")).isEqualTo(1000);
				assertThat(context.getBean(SnowflakeIdGenerator.class).nextId()).isPositive();
			});
	}

	@Test
	void clientModeRunsWithoutIdServersOrCredentials() {
		this.contextRunner.withUserConfiguration(SegmentAndHttp.class)
			.withPropertyValues("id-worker.segment.store=http")
			.run((context) -> {
				assertThat(context).hasNotFailed().doesNotHaveBean(RestClient.class);
				assertThat(context.getBean(IdWorker.class).nextId("order")).isEqualTo(1000);
				assertThat(context.getBean(SnowflakeIdGenerator.class).nextId()).isPositive();
			});
	}

	@Test
	void anApplicationsOwnStoreBeanStillWins() {
		InMemoryLeaseStore own = new InMemoryLeaseStore();
		this.contextRunner.withUserConfiguration(SegmentAndZooKeeper.class)
			.withBean(ISequenceManager.class, () -> own)
			.run((context) -> assertThat(context.getBean(ISequenceManager.class)).isSameAs(own));
	}

	@Configuration(proxyBeanMethods = false)
	@EnableIdWorker(mode = { IdWorkerMode.SEGMENT, IdWorkerMode.ZOOKEEPER })
	static class SegmentAndZooKeeper {

	}

	@Configuration(proxyBeanMethods = false)
	@EnableIdWorker(mode = { IdWorkerMode.SEGMENT, IdWorkerMode.HTTP })
	static class SegmentAndHttp {

	}

}
