package io.idstarter.autoconfigure.etcd;

import io.idstarter.autoconfigure.IdWorkerStoreDescriptor;
import org.jspecify.annotations.Nullable;

/**
 * An etcd cluster through the application's jetcd {@code Client}, or one built from {@code id-worker.etcd.*};
 * worker-ID leases only.
 *
 * @since 0.1.0
 */
public final class EtcdStoreDescriptor implements IdWorkerStoreDescriptor {

	@Override
	public String name() {
		return "etcd";
	}

	@Override
	public String description() {
		return "etcd";
	}

	@Override
	public String corePackage() {
		return "io.idstarter.store.etcd";
	}

	@Override
	public String beanType() {
		return "io.etcd.jetcd.Client";
	}

	@Override
	public String dependency() {
		return "io.etcd:jetcd-core";
	}

	@Override
	public @Nullable String managedVersionKey() {
		return "jetcd.version";
	}

	@Override
	public String connectionProperty() {
		return "id-worker.etcd.endpoints";
	}

	@Override
	public String failureAction() {
		return "Check that the etcd cluster answers with id-worker.etcd.* (endpoints, user and password, tls) or "
				+ "the application's jetcd Client bean.";
	}

	@Override
	public @Nullable String leaseConfiguration() {
		return "io.idstarter.autoconfigure.etcd.EtcdLeaseStoreConfiguration";
	}

}
