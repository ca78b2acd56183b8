package io.idstarter.crossprocess;

import java.util.List;

/**
 * The {@link PartitionDrills} on a three-member etcd cluster (Debian's {@code etcd-server}) whose members run in
 * network namespaces of their own; the clients lease worker IDs through {@code EtcdLeaseStore}.
 */
class EtcdPartitionIntegrationTests extends PartitionDrills {

	@Override
	NamespacedEnsemble startEnsemble(List<NetworkLab.Host> members) {
		return NamespacedEnsemble.etcd(members);
	}

	@Override
	String storeName() {
		return "etcd";
	}

}
