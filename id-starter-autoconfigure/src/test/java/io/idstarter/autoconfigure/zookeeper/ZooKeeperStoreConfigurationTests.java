package io.idstarter.autoconfigure.zookeeper;

import io.idstarter.autoconfigure.CoordinationServiceUnreachableException;
import io.idstarter.autoconfigure.EnableIdWorker;
import io.idstarter.autoconfigure.IdWorkerMode;
import io.idstarter.lease.ISequenceManager;
import io.idstarter.lease.InMemoryLeaseStore;
import io.idstarter.snowflake.SnowflakeLayout;
import io.idstarter.store.zookeeper.LeafSnowflake;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * ZOOKEEPER mode's configuration where no ensemble is needed: backing off, validation, an unreachable ensemble.
 */
class ZooKeeperStoreConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(ZooKeeperLeaseStoreConfiguration.class));

	@Test
	void withoutConnectStringOrClientNothingIsCreated() {
		this.contextRunner.run((context) -> assertThat(context).hasNotFailed()
			.doesNotHaveBean(CuratorFramework.class)
			.doesNotHaveBean(ISequenceManager.class));
	}

	@Test
	void backsOffWithoutCurator() {
		this.contextRunner.withPropertyValues("id-worker.zookeeper.connect-string=127.0.0.1:1")
			.withClassLoader(new FilteredClassLoader(CuratorFramework.class))
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(ISequenceManager.class));
	}

	@Test
	void anUnreachableEnsembleFailsTheStartWithAnAnalysis() {
		this.contextRunner
			.withPropertyValues("id-worker.zookeeper.connect-string=127.0.0.1:1",
					"id-worker.zookeeper.connection-timeout=300ms")
			.run((context) -> {
				assertThat(context).hasFailed();
				Throwable failure = context.getStartupFailure();
				assertThat(failure).hasRootCauseInstanceOf(CoordinationServiceUnreachableException.class)
					.rootCause()
					.hasMessageContaining("no ZooKeeper reachable at 127.0.0.1:1")
					.hasMessageContaining("300 ms");
				FailureAnalysis analysis = analyze(failure);
				assertThat(analysis.getDescription()).contains("leases its worker ID from ZooKeeper");
				assertThat(analysis.getAction()).contains("127.0.0.1:1").contains("id-worker.zookeeper.connect-string");
			});
	}

	@Test
	void aSessionTimeoutShorterThanTheLeaseTtlIsRejected() {
		this.contextRunner
			.withPropertyValues("id-worker.zookeeper.connect-string=127.0.0.1:1",
					"id-worker.zookeeper.session-timeout=10s", "id-worker.lease.ttl=30s")
			.run((context) -> assertThat(context.getStartupFailure())
				.hasRootCauseInstanceOf(InvalidConfigurationPropertyValueException.class)
				.rootCause()
				.hasMessageContaining("id-worker.zookeeper.session-timeout")
				.hasMessageContaining("must be at least id-worker.lease.ttl (30s)"));
	}

	@Test
	void aLeafAddressNeedsALeafName() {
		this.contextRunner
			.withPropertyValues("id-worker.zookeeper.connect-string=127.0.0.1:1",
					"id-worker.zookeeper.leaf-address=10.0.0.1:8080")
			.run((context) -> assertThat(context.getStartupFailure()).rootCause()
				.hasMessageContaining("id-worker.zookeeper.leaf-address")
				.hasMessageContaining("needs id-worker.zookeeper.leaf-name"));
	}

	@Test
	void theLeafPresetIsLeafsLayoutAndExcludesExplicitBits() {
		ApplicationContextRunner snowflake = new ApplicationContextRunner().withUserConfiguration(ZooKeeperMode.class)
			.withBean(ISequenceManager.class, InMemoryLeaseStore::new)
			.withPropertyValues("id-worker.snowflake.preset=leaf");
		snowflake.run((context) -> {
			assertThat(context).hasNotFailed();
			SnowflakeLayout layout = context.getBean(SnowflakeLayout.class);
			assertThat(layout).isEqualTo(LeafSnowflake.layout());
			assertThat(layout.epoch().toEpochMilli()).isEqualTo(1288834974657L);
			assertThat(layout.timestampBits()).isEqualTo(41);
			assertThat(layout.workerIdBits()).isEqualTo(10);
			assertThat(layout.sequenceBits()).isEqualTo(12);
		});
		snowflake.withPropertyValues("id-worker.snowflake.worker-id-bits=8", "id-worker.snowflake.sequence-bits=14")
			.run((context) -> assertThat(context.getStartupFailure()).rootCause()
				.hasMessageContaining("id-worker.snowflake.preset")
				.hasMessageContaining("fixes the epoch and the bit counts"));
	}

	@Test
	void zookeeperIsNotASegmentStore() {
		this.contextRunner.withPropertyValues("id-worker.segment.store=zookeeper")
			.run((context) -> assertThat(context.getStartupFailure()).rootCause()
				.hasMessageContaining("id-worker.segment.store")
				.hasMessageContaining("holds worker-ID leases only"));
	}

	static FailureAnalysis analyze(Throwable failure) {
		return new io.idstarter.autoconfigure.CoordinationServiceUnreachableFailureAnalyzerAccess().analyze(failure);
	}

	@Configuration(proxyBeanMethods = false)
	@EnableIdWorker(mode = IdWorkerMode.ZOOKEEPER)
	static class ZooKeeperMode {

	}

}
