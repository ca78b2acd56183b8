package io.idstarter.store.zookeeper;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryNTimes;

/**
 * Curator clients for tests: started and connected, retrying an operation 3 times, 100 ms apart, with the session timeout asked for.
 */
final class ZooKeeperTestClients {

	private ZooKeeperTestClients() {
	}

	static CuratorFramework start(String connectString, Duration sessionTimeout) {
		CuratorFramework client = CuratorFrameworkFactory.builder()
			.connectString(connectString)
			.sessionTimeoutMs((int) sessionTimeout.toMillis())
			.connectionTimeoutMs(1000)
			.retryPolicy(new RetryNTimes(3, 100))
			.build();
		client.start();
		try {
			if (!client.blockUntilConnected(20, TimeUnit.SECONDS)) {
				client.close();
				throw new IllegalStateException("no connection to ZooKeeper " + connectString + " within 20 s");
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
		return client;
	}

}
