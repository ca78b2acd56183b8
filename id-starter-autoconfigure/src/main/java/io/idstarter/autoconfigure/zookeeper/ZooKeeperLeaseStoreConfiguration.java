package io.idstarter.autoconfigure.zookeeper;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.idstarter.autoconfigure.CoordinationServiceUnreachableException;
import io.idstarter.autoconfigure.IdWorkerProperties;
import io.idstarter.lease.ISequenceManager;
import io.idstarter.store.zookeeper.LeafSnowflake;
import io.idstarter.store.zookeeper.ZooKeeperLeaseStore;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.api.ACLProvider;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.data.ACL;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Worker-ID leases on a ZooKeeper ensemble (slots under {@code id-worker.zookeeper.root-path}), through the
 * application's {@code CuratorFramework} or one built from {@code id-worker.zookeeper.*}; selected by
 * {@code @EnableIdWorker(mode = ZOOKEEPER)}.
 *
 * @since 0.1.0
 */
@AutoConfiguration
@ConditionalOnClass(CuratorFramework.class)
@EnableConfigurationProperties({ ZooKeeperStoreProperties.class, IdWorkerProperties.class })
public final class ZooKeeperLeaseStoreConfiguration {

	/** Curator's retries of one operation while the connection is down, before it fails to the keeper. */
	private static final int MAX_RETRIES = 3;

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnMissingBean(CuratorFramework.class)
	@ConditionalOnProperty("id-worker.zookeeper.connect-string")
	static class ClientConfiguration {

		@Bean(destroyMethod = "close")
		CuratorFramework idWorkerCuratorFramework(ZooKeeperStoreProperties zookeeper, IdWorkerProperties properties) {
			Duration leaseTtl = properties.getLease().getTtl();
			zookeeper.checkSessionTimeout(leaseTtl);
			Duration sessionTimeout = (zookeeper.getSessionTimeout() != null) ? zookeeper.getSessionTimeout() : leaseTtl;
			int connectionTimeout = (int) zookeeper.getConnectionTimeout().toMillis();
			CuratorFrameworkFactory.Builder builder = CuratorFrameworkFactory.builder()
				.connectString(zookeeper.getConnectString())
				.sessionTimeoutMs((int) sessionTimeout.toMillis())
				.connectionTimeoutMs(connectionTimeout)
				.retryPolicy(new ExponentialBackoffRetry(100, MAX_RETRIES, connectionTimeout));
			if (zookeeper.getNamespace() != null) {
				builder.namespace(zookeeper.getNamespace());
			}
			if (zookeeper.getAuthDigest() != null) {
				builder.authorization("digest", zookeeper.getAuthDigest().getBytes(StandardCharsets.UTF_8))
					.aclProvider(new CreatorOnlyAclProvider());
			}
			CuratorFramework client = builder.build();
			client.start();
			return client;
		}

	}

	// Declared here, not in a nested class: the outer class's beans are registered after its nested classes' ones,
	// so the client built above is seen.
	@Bean
	@ConditionalOnSingleCandidate(CuratorFramework.class)
	@ConditionalOnMissingBean(ISequenceManager.class)
	ZooKeeperLeaseStore zooKeeperLeaseStore(CuratorFramework client, ZooKeeperStoreProperties zookeeper,
			IdWorkerProperties properties) {
		zookeeper.checkSessionTimeout(properties.getLease().getTtl());
		awaitConnection(client, zookeeper.getConnectionTimeout());
		LeafSnowflake leaf = (zookeeper.getLeafName() != null)
				? new LeafSnowflake(zookeeper.getLeafName(), zookeeper.getLeafAddress()) : null;
		return new ZooKeeperLeaseStore(client, zookeeper.getRootPath(), leaf);
	}

	private static void awaitConnection(CuratorFramework client, Duration timeout) {
		String address = client.getZookeeperClient().getCurrentConnectionString();
		try {
			if (!client.blockUntilConnected((int) timeout.toMillis(), TimeUnit.MILLISECONDS)) {
				throw new CoordinationServiceUnreachableException("ZooKeeper", address,
						"id-worker.zookeeper.connect-string", "no connection within " + timeout.toMillis()
								+ " ms (id-worker.zookeeper.connection-timeout)",
						null);
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new CoordinationServiceUnreachableException("ZooKeeper", address,
					"id-worker.zookeeper.connect-string", "interrupted while connecting", ex);
		}
		catch (IllegalStateException ex) {
			throw new CoordinationServiceUnreachableException("ZooKeeper", address,
					"id-worker.zookeeper.connect-string", "the Curator client is not started", ex);
		}
	}

	/**
	 * Nodes readable and writable only by the authenticated user.
	 */
	static final class CreatorOnlyAclProvider implements ACLProvider {

		@Override
		public List<ACL> getDefaultAcl() {
			return ZooDefs.Ids.CREATOR_ALL_ACL;
		}

		@Override
		public List<ACL> getAclForPath(String path) {
			return ZooDefs.Ids.CREATOR_ALL_ACL;
		}

	}

}
