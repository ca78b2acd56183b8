package io.idstarter.autoconfigure.zookeeper;

import java.time.Duration;
import java.util.UUID;

import io.idstarter.IdWorker;
import io.idstarter.autoconfigure.EnableIdWorker;
import io.idstarter.autoconfigure.IdWorkerMode;
import io.idstarter.lease.LeaseStatus;
import io.idstarter.lease.WorkerLeaseKeeper;
import io.idstarter.store.zookeeper.ZooKeeperLeaseStore;
import io.idstarter.testsupport.TestBackends;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.zookeeper.KeeperException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * ZOOKEEPER mode on the real three-member ensemble, under a root path of its own.
 */
class ZooKeeperModesIntegrationTests {

	private final String connectString = TestBackends.zookeeper().connectString();

	private final String rootPath = "/idstarter-it/" + UUID.randomUUID();

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withUserConfiguration(ZooKeeperMode.class)
		.withPropertyValues("id-worker.zookeeper.connect-string=" + this.connectString,
				"id-worker.zookeeper.root-path=" + this.rootPath, "id-worker.lease.namespace=it",
				"id-worker.lease.ttl=10s", "id-worker.lease.heartbeat=2s", "id-worker.lease.safety-margin=2s");

	@Test
	void zookeeperModeLeasesDifferentWorkerIdsFromTheEnsemble() {
		this.contextRunner.run((first) -> {
			assertThat(first).hasNotFailed().hasSingleBean(ZooKeeperLeaseStore.class);
			CuratorFramework client = first.getBean(CuratorFramework.class);
			assertThat(client.getZookeeperClient().getZooKeeper().getSessionTimeout())
				.as("session timeout defaults to the lease TTL").isEqualTo(10_000);
			WorkerLeaseKeeper keeper = first.getBean(WorkerLeaseKeeper.class);
			assertThat(keeper.status().state()).isEqualTo(LeaseStatus.State.ACTIVE);
			this.contextRunner.run((second) -> {
				assertThat(second.getBean(WorkerLeaseKeeper.class).status().workerId())
					.isNotEqualTo(keeper.status().workerId());
				assertThat(second.getBean(IdWorker.class).nextId()).isPositive();
			});
			assertThat(client.getChildren().forPath(this.rootPath + "/it/holders"))
				.containsExactly(Integer.toString(keeper.status().workerId()));
		});
	}

	@Test
	void theApplicationsCuratorClientIsUsedAsItIs() {
		CuratorFramework own = CuratorFrameworkFactory.newClient(this.connectString, 30_000, 5_000,
				new RetryOneTime(100));
		own.start();
		try {
			new ApplicationContextRunner().withUserConfiguration(ZooKeeperMode.class)
				.withBean(CuratorFramework.class, () -> own)
				.withPropertyValues("id-worker.zookeeper.root-path=" + this.rootPath, "id-worker.lease.namespace=own")
				.run((context) -> {
					assertThat(context).hasNotFailed();
					assertThat(context.getBeansOfType(CuratorFramework.class).values()).containsExactly(own);
					assertThat(own.getChildren().forPath(this.rootPath + "/own/holders")).hasSize(1);
				});
		}
		finally {
			own.close();
		}
	}

	@Test
	void anAuthDigestLocksTheNodesToItsUser() throws Exception {
		// A top-level path of its own: every node the client creates, parents included, is locked to the user.
		String lockedRoot = "/idstarter-it-auth-" + UUID.randomUUID();
		try {
			this.contextRunner
				.withPropertyValues("id-worker.zookeeper.root-path=" + lockedRoot + "/ids",
						"id-worker.zookeeper.auth-digest=ids:secret")
				.run((context) -> {
					assertThat(context).hasNotFailed();
					int workerId = context.getBean(WorkerLeaseKeeper.class).status().workerId();
					CuratorFramework anonymous = CuratorFrameworkFactory.newClient(this.connectString,
							new RetryOneTime(100));
					anonymous.start();
					try {
						assertThatExceptionOfType(KeeperException.NoAuthException.class)
							.isThrownBy(() -> anonymous.getData().forPath(lockedRoot + "/ids/it/slots/" + workerId));
					}
					finally {
						anonymous.close();
					}
				});
		}
		finally {
			CuratorFramework owner = CuratorFrameworkFactory.builder()
				.connectString(this.connectString)
				.retryPolicy(new RetryOneTime(100))
				.authorization("digest", "ids:secret".getBytes(java.nio.charset.StandardCharsets.UTF_8))
				.build();
			owner.start();
			try {
				if (owner.checkExists().forPath(lockedRoot) != null) {
					owner.delete().deletingChildrenIfNeeded().forPath(lockedRoot);
				}
			}
			finally {
				owner.close();
			}
		}
	}

	@AfterEach
	void deleteRootPath() throws Exception {
		CuratorFramework admin = CuratorFrameworkFactory.newClient(this.connectString, new RetryOneTime(100));
		admin.start();
		try {
			admin.blockUntilConnected((int) Duration.ofSeconds(10).toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
			if (admin.checkExists().forPath(this.rootPath) != null) {
				admin.delete().deletingChildrenIfNeeded().forPath(this.rootPath);
			}
		}
		finally {
			admin.close();
		}
	}

	@Configuration(proxyBeanMethods = false)
	@EnableIdWorker(mode = IdWorkerMode.ZOOKEEPER)
	static class ZooKeeperMode {

	}

}
