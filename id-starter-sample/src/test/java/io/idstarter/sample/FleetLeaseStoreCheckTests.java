package io.idstarter.sample;

import java.util.UUID;
import java.util.concurrent.TimeUnit;

import io.idstarter.sample.fleet.FleetLeaseStoreException;
import io.idstarter.store.zookeeper.ZooKeeperLeaseStore;
import io.idstarter.testsupport.TestBackends;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryNTimes;
import org.junit.jupiter.api.Test;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.NestedExceptionUtils;
import org.springframework.core.io.support.SpringFactoriesLoader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * An ID server with fleet clients whose own lease store is ZooKeeper (the leases would be ephemeral nodes of the
 * server's session, kept while the server runs, whether or not a client renews) is refused at start, with a report
 * that says what to use instead. Uses the ZooKeeper ensemble of {@code TestBackends.zookeeper()}.
 */
class FleetLeaseStoreCheckTests {

	@Test
	void aServerWithFleetClientsRefusesZooKeeperLeasesWithAReport() {
		Throwable failure = catchThrowable(() -> new SpringApplicationBuilder(IdServerApplication.class,
				ZooKeeperLeases.class)
			.run("--server.port=0", "--id-server.data-dir=" + TestDataDirs.create("fleet-zookeeper"),
					"--id-server.clients[0].name=orders", "--id-server.clients[0].token=orders-token-0123456789",
					"--id-worker.lease.ttl=10s", "--id-worker.lease.heartbeat=2s", "--id-worker.lease.safety-margin=3s")
			.close());
		assertThat(NestedExceptionUtils.getMostSpecificCause(failure)).isInstanceOf(FleetLeaseStoreException.class)
			.hasMessageContaining("1 client(s) (id-server.clients)")
			.hasMessageContaining(ZooKeeperLeaseStore.class.getName())
			.hasMessageContaining("a client that dies would keep its worker ID until this server restarts");
		// the analyzers registered in spring.factories; those that need constructor arguments are left out
		FailureAnalysis analysis = SpringFactoriesLoader.forDefaultResourceLocation(getClass().getClassLoader())
			.load(FailureAnalyzer.class, SpringFactoriesLoader.FailureHandler.handleMessage((message, ex) -> {
			}))
			.stream()
			.map((analyzer) -> analyzer.analyze(failure))
			.filter((result) -> result != null)
			.findFirst()
			.orElseThrow();
		assertThat(analysis.getDescription()).contains(ZooKeeperLeaseStore.class.getName());
		assertThat(analysis.getAction()).contains("relational database").contains("id-server.clients");
	}

	/**
	 * The server's worker leases on the real ensemble, under a root path of their own.
	 */
	@Configuration(proxyBeanMethods = false)
	static class ZooKeeperLeases {

		@Bean(destroyMethod = "close")
		CuratorFramework curator() throws InterruptedException {
			CuratorFramework client = CuratorFrameworkFactory.builder()
				.connectString(TestBackends.zookeeper().connectString())
				.sessionTimeoutMs(10_000)
				.retryPolicy(new RetryNTimes(3, 100))
				.build();
			client.start();
			client.blockUntilConnected(20, TimeUnit.SECONDS);
			return client;
		}

		@Bean
		ZooKeeperLeaseStore zooKeeperLeases(CuratorFramework curator) {
			return new ZooKeeperLeaseStore(curator, "/idstarter-test/" + UUID.randomUUID(), null);
		}

	}

}
