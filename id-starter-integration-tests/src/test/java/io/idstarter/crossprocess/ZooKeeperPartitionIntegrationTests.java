package io.idstarter.crossprocess;

import java.util.List;

/**
 * The {@link PartitionDrills} on a three-member ZooKeeper ensemble (Debian's {@code zookeeper}) whose members run in
 * network namespaces of their own; the clients lease worker IDs through {@code ZooKeeperLeaseStore}.
 */
class ZooKeeperPartitionIntegrationTests extends PartitionDrills {

	@Override
	NamespacedEnsemble startEnsemble(List<NetworkLab.Host> members) {
		return NamespacedEnsemble.zookeeper(members);
	}

	@Override
	String storeName() {
		return "ZooKeeper";
	}

}
