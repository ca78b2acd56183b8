package io.idstarter.crossprocess;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.idstarter.testsupport.RedisServerProcess;
import io.idstarter.testsupport.TcpProxy;

/**
 * A Redis failover that loses writes, staged on servers a test started: the replica is cut off and promoted while
 * clients still write to the old master (a network partition), then the old master dies and the clients' proxy is
 * switched to the promoted replica, which never saw those last writes.
 */
final class RedisFailover {

	/** How long clients write to the old master after the replica was cut off. */
	static final long SPLIT_MILLIS = 1000;

	private RedisFailover() {
	}

	/**
	 * Stages the failover.
	 * @param master the master the clients' proxy points at
	 * @param replica its replica, promoted
	 * @param proxy the clients' proxy
	 * @param successorPort port of a new replica of the promoted one, so that writes can be acknowledged again
	 * @param successorDirectory its directory
	 * @param successorArguments its further arguments (persistence)
	 * @return the new replica, to close after use
	 */
	static RedisServerProcess splitAndFailOver(RedisServerProcess master, RedisServerProcess replica, TcpProxy proxy,
			int successorPort, Path successorDirectory, String... successorArguments) {
		replica.command("REPLICAOF", "NO", "ONE");
		DataLossDrill.sleep(SPLIT_MILLIS);
		master.kill();
		proxy.redirect("127.0.0.1", replica.port());
		List<String> arguments = new ArrayList<>(List.of(successorArguments));
		arguments.addAll(List.of("--replicaof", "127.0.0.1", Integer.toString(replica.port())));
		return RedisServerProcess.start(successorPort, successorDirectory, arguments.toArray(String[]::new));
	}

	/**
	 * Waits until the master's only replica is online and has acknowledged everything.
	 * @param master the master
	 */
	static void awaitInSync(RedisServerProcess master) {
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
		for (;;) {
			String replica = String.valueOf(master.info("replication", "slave0"));
			String offset = String.valueOf(master.info("replication", "master_repl_offset"));
			if (replica.contains("state=online") && replica.contains("offset=" + offset + ",")) {
				return;
			}
			if (System.nanoTime() - deadline > 0) {
				throw new IllegalStateException("the replica of Redis on port " + master.port() + " is not in sync: "
						+ replica + ", master offset " + offset);
			}
			DataLossDrill.sleep(50);
		}
	}

}
