package io.idstarter.startup.zookeeper;

import io.idstarter.autoconfigure.EnableIdWorker;
import io.idstarter.autoconfigure.IdWorkerMode;
import io.idstarter.startup.StartupProbe;

import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * ZOOKEEPER mode: Snowflake IDs under a worker ID leased from the ZooKeeper ensemble of
 * {@code id-worker.zookeeper.connect-string} (scripts/ensure-test-services.sh runs one on 127.0.0.1:12181-12183).
 */
@SpringBootApplication
@EnableIdWorker(mode = IdWorkerMode.ZOOKEEPER)
public class ZooKeeperApplication {

	public static void main(String[] args) {
		StartupProbe.run(ZooKeeperApplication.class, args);
	}

}
