package io.idstarter.crossprocess;

import java.nio.file.Path;
import java.util.UUID;

import io.idstarter.testsupport.RedisServerProcess;
import io.idstarter.testsupport.TcpProxy;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A Redis that holds the leases or segments of {@value DataLossDrill#PROCESSES} serving generator processes is
 * restarted or fails over mid-run, configured as docs/redis.md calls safe: no ID is issued twice, and no process sees
 * the store go backwards. The Redis servers are this test's own (ports 16390-16393), never the shared one.
 *
 * <ul>
 * <li><b>Restart</b>: an append-only file with {@code appendfsync always}; the server is killed with SIGKILL and
 * started again on its files.
 * <li><b>Failover</b>: a master and a replica, every write acknowledged by the replica ({@code WAIT 1}). The link
 * breaks: the replica is promoted ({@code REPLICAOF NO ONE}) while the processes still write to the old master for a
 * second, as in a network partition; then the old master dies, and the processes' proxy is switched to the promoted
 * replica, which gets a replica of its own so that writes are acknowledged again. The writes the old master took
 * after the split were never acknowledged by a replica, so no process used them.
 * </ul>
 *
 * <p>The same faults under the configurations docs/redis.md calls unsafe are in
 * {@link StoreDataLossGuardIntegrationTests}.
 */
class StoreDataLossIntegrationTests {

	@TempDir
	Path directory;

	@ParameterizedTest(name = "{0}")
	@EnumSource(DrillMode.class)
	void aRedisWithAnAppendOnlyFileRestartedMidRunLosesNothing(DrillMode mode) {
		try (RedisServerProcess redis = RedisServerProcess.start(16390, this.directory.resolve("aof"), "--appendonly",
				"yes", "--appendfsync", "always")) {
			StoreSpec spec = spec(redis.port(), "?require-aof=true");
			try (DrillStore admin = DrillStore.open(spec)) {
				DataLossDrill.Result result = DataLossDrill.run("Redis restart, appendfsync always", spec, mode,
						admin, redis::restart, false);
				assertSafe(result);
			}
		}
	}

	@ParameterizedTest(name = "{0}")
	@EnumSource(DrillMode.class)
	void aRedisFailoverToAReplicaThatMissedWritesLosesNothingWithWait(DrillMode mode) {
		Path dir = this.directory;
		try (RedisServerProcess master = RedisServerProcess.start(16391, dir.resolve("master"), "--appendonly", "yes",
				"--appendfsync", "always", "--repl-diskless-sync-delay", "0");
				RedisServerProcess replica = RedisServerProcess.start(16392, dir.resolve("replica"), "--appendonly",
						"yes", "--appendfsync", "always", "--repl-diskless-sync-delay", "0", "--replicaof",
						"127.0.0.1", "16391");
				TcpProxy proxy = TcpProxy.start("127.0.0.1", master.port())) {
			RedisFailover.awaitInSync(master);
			// Both servers fsync every write: on a loaded machine the replica's acknowledgement has taken over 300 ms.
			StoreSpec spec = spec(proxy.port(), "?require-aof=true&wait=1&wait-timeout=2000");
			RedisServerProcess[] successor = new RedisServerProcess[1];
			try (DrillStore admin = DrillStore.open(spec)) {
				DataLossDrill.Result result = DataLossDrill.run("Redis failover, WAIT 1", spec, mode, admin, () -> {
					successor[0] = RedisFailover.splitAndFailOver(master, replica, proxy, 16393,
							dir.resolve("successor"), "--appendonly", "yes", "--appendfsync", "always");
				}, false);
				assertSafe(result);
			}
			finally {
				if (successor[0] != null) {
					successor[0].close();
				}
			}
		}
	}

	private static void assertSafe(DataLossDrill.Result result) {
		assertThat(result.duplicates()).as("duplicates, first ones %s; %s", result.duplicateSample(), result.files())
			.isZero();
		assertThat(result.sharedWorkers()).as("worker IDs stamped by two processes at once").isEmpty();
		assertThat(result.regressions()).as("refusals because the store went backwards; %s", result.files())
			.isZero();
		assertThat(result.exits().values()).as("exit status of every process; %s", result.files())
			.containsOnly(0);
		assertThat(result.ids()).as("IDs issued")
			.isEqualTo(DataLossDrill.PROCESSES * DataLossDrill.THREADS * DataLossDrill.COUNT);
	}

	private static StoreSpec spec(int port, String query) {
		return new StoreSpec(StoreKind.REDIS, "redis://127.0.0.1:" + port + query, null, null,
				"dl_" + UUID.randomUUID().toString().replace("-", "").substring(0, 10));
	}

}
