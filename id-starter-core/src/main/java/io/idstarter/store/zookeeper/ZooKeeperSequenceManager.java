package io.idstarter.store.zookeeper;

import org.apache.curator.framework.CuratorFramework;
import org.jspecify.annotations.Nullable;

/**
 * The former name of {@link ZooKeeperLeaseStore}.
 *
 * @deprecated lease stores are named {@code *LeaseStore} so that they read apart from the sequences of
 * {@code io.idstarter.sequence}; use {@link ZooKeeperLeaseStore}, which takes the same arguments
 */
@Deprecated(since = "0.1.0", forRemoval = true)
public class ZooKeeperSequenceManager extends ZooKeeperLeaseStore {

	public ZooKeeperSequenceManager(CuratorFramework client) {
		super(client);
	}

	public ZooKeeperSequenceManager(CuratorFramework client, String rootPath, @Nullable LeafSnowflake leaf) {
		super(client, rootPath, leaf);
	}

}
