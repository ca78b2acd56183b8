package io.idstarter.autoconfigure.zookeeper;

import io.idstarter.autoconfigure.IdWorkerStoreDescriptor;
import org.jspecify.annotations.Nullable;

/**
 * A ZooKeeper ensemble through the application's Curator {@code CuratorFramework}, or one built from
 * {@code id-worker.zookeeper.*}; worker-ID leases only.
 *
 * @since 0.1.0
 */
public final class ZooKeeperStoreDescriptor implements IdWorkerStoreDescriptor {

	@Override
	public String name() {
		return "zookeeper";
	}

	@Override
	public String description() {
		return "ZooKeeper";
	}

	@Override
	public String corePackage() {
		return "io.idstarter.store.zookeeper";
	}

	@Override
	public String beanType() {
		return "org.apache.curator.framework.CuratorFramework";
	}

	@Override
	public String dependency() {
		return "org.apache.curator:curator-framework";
	}

	@Override
	public @Nullable String managedVersionKey() {
		return "curator.version";
	}

	@Override
	public String connectionProperty() {
		return "id-worker.zookeeper.connect-string";
	}

	@Override
	public String failureAction() {
		return "Check that the ZooKeeper ensemble answers with id-worker.zookeeper.* (connect-string, auth-digest) "
				+ "or the application's CuratorFramework bean.";
	}

	@Override
	public @Nullable String leaseConfiguration() {
		return "io.idstarter.autoconfigure.zookeeper.ZooKeeperLeaseStoreConfiguration";
	}

}
