package io.idstarter.crossprocess;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.UUID;

import io.idstarter.segment.SegmentStoreException;
import io.idstarter.testsupport.RedisServerProcess;
import io.idstarter.testsupport.TcpProxy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The store loses data under {@value DataLossDrill#PROCESSES} serving generator processes, configured as
 * docs/redis.md and docs/jdbc.md call unsafe (or with a loss no configuration prevents, a restore from an old dump):
 * the node-side guard refuses ({@code StoreRegressionException}) instead of serving a repeat, so no ID is issued
 * twice.
 *
 * <ul>
 * <li><b>Redis restarted without persistence</b> (ports 16394): the data is gone. Segment: an instance that starts
 * creates the configured key again at 1, as an ID server does, before the processes reach the server again (they go
 * through a proxy, cut meanwhile); the running processes must refuse the ranges below those they have served.
 * Snowflake: every process's renewal finds its slot gone, and borrowing it again returns no mark, below the ceiling
 * the process was granted.
 * <li><b>Redis failover without {@code WAIT}</b> (ports 16395-16397): the promoted replica missed the last second of
 * range allocations; the processes must refuse the ranges it hands out again.
 * <li><b>PostgreSQL restored from an older dump</b>: {@code leaf_alloc}'s row goes back a second, to its value at the
 * fault; the lease table goes back to before the processes started (empty), so that each process's renewal finds its
 * slot gone and borrowing it again returns no mark.
 * </ul>
 *
 * <p>The refusals come from the node-side guards: segment ranges below a node's high mark of the key, and lease marks
 * below the ceiling a node was granted for its slot. Without them the segment drills issue thousands of duplicates
 * and the Snowflake drills none, but no refusal either; both fail here.
 *
 * <p>Segment mode on a Redis failover is drilled; Snowflake is not, because there a replica that missed renewals still
 * has every lease with its owner, and renewing raises the stale mark again: nothing goes backwards that a node could
 * see. A node that joins while a lost lease is still live elsewhere cannot be protected by any node-side guard; only
 * the configuration of {@link StoreDataLossIntegrationTests} prevents that.
 */
class StoreDataLossGuardIntegrationTests {

	private static final Logger logger = LoggerFactory.getLogger(StoreDataLossGuardIntegrationTests.class);

	@TempDir
	Path directory;

	@ParameterizedTest(name = "{0}")
	@EnumSource(DrillMode.class)
	void aRedisWithoutPersistenceRestartedMidRunIsRefusedNotRepeated(DrillMode mode) {
		try (RedisServerProcess redis = RedisServerProcess.start(16394, this.directory.resolve("volatile"));
				TcpProxy proxy = TcpProxy.start("127.0.0.1", redis.port())) {
			StoreSpec direct = spec(redis.port());
			StoreSpec spec = direct.through(proxy);
			try (DrillStore admin = DrillStore.open(direct)) {
				DataLossDrill.Result result = DataLossDrill.run("Redis restart without persistence", spec, mode,
						admin, () -> {
							// The processes see the server only once it has been set up again, as an instance
							// that started meanwhile would leave it.
							proxy.cut();
							redis.restart();
							if (mode == DrillMode.SEGMENT) {
								recreateKey(admin);
							}
							proxy.restore();
						}, true);
				assertRefusedNotRepeated(result);
			}
		}
	}

	@Test
	void aRedisFailoverWithoutWaitIsRefusedNotRepeated() {
		Path dir = this.directory;
		try (RedisServerProcess master = RedisServerProcess.start(16395, dir.resolve("master"),
				"--repl-diskless-sync-delay", "0");
				RedisServerProcess replica = RedisServerProcess.start(16396, dir.resolve("replica"), "--replicaof",
						"127.0.0.1", "16395");
				TcpProxy proxy = TcpProxy.start("127.0.0.1", master.port())) {
			RedisFailover.awaitInSync(master);
			StoreSpec spec = spec(proxy.port());
			RedisServerProcess[] successor = new RedisServerProcess[1];
			try (DrillStore admin = DrillStore.open(spec)) {
				DataLossDrill.Result result = DataLossDrill.run("Redis failover without WAIT", spec,
						DrillMode.SEGMENT, admin, () -> successor[0] = RedisFailover.splitAndFailOver(master, replica,
								proxy, 16397, dir.resolve("successor")),
						true);
				assertRefusedNotRepeated(result);
			}
			finally {
				if (successor[0] != null) {
					successor[0].close();
				}
			}
		}
	}

	/**
	 * The failover above with heal forward: the processes move the key past their marks by a margin that covers what
	 * all of them draw in the lost second (3 processes x 20,000 IDs/s, ranges of up to 4,000), and serve again.
	 */
	@Test
	void aRedisFailoverWithoutWaitIsHealedForwardWithoutARepeat() {
		Path dir = this.directory;
		try (RedisServerProcess master = RedisServerProcess.start(16395, dir.resolve("master"),
				"--repl-diskless-sync-delay", "0");
				RedisServerProcess replica = RedisServerProcess.start(16396, dir.resolve("replica"), "--replicaof",
						"127.0.0.1", "16395");
				TcpProxy proxy = TcpProxy.start("127.0.0.1", master.port())) {
			RedisFailover.awaitInSync(master);
			StoreSpec spec = spec(proxy.port());
			RedisServerProcess[] successor = new RedisServerProcess[1];
			try (DrillStore admin = DrillStore.open(spec)) {
				DataLossDrill.Result result = DataLossDrill.run("Redis failover without WAIT, heal forward", spec,
						DrillMode.SEGMENT, admin, () -> successor[0] = RedisFailover.splitAndFailOver(master, replica,
								proxy, 16397, dir.resolve("successor")),
						false, "--heal-margin=" + HEAL_MARGIN);
				assertHealed(result);
			}
			finally {
				if (successor[0] != null) {
					successor[0].close();
				}
			}
		}
	}

	/** Covers what the drill's processes draw in the second a failover loses: 60,000 IDs plus a range each. */
	private static final long HEAL_MARGIN = 200_000;

	private static void assertHealed(DataLossDrill.Result result) {
		assertThat(result.duplicates()).as("duplicates, first ones %s; %s", result.duplicateSample(), result.files())
			.isZero();
		assertThat(result.heals()).as("processes that moved the store past their marks; %s", result.files())
			.isPositive();
		assertThat(result.exits().values()).as("exit status of every process; %s", result.files()).containsOnly(0);
		assertThat(result.ids()).as("IDs issued")
			.isEqualTo(DataLossDrill.PROCESSES * DataLossDrill.THREADS * DataLossDrill.COUNT);
	}

	@ParameterizedTest(name = "{0}")
	@EnumSource(DrillMode.class)
	void aPostgresRestoredFromAnOlderDumpIsRefusedNotRepeated(DrillMode mode) {
		StoreSpec spec = StoreKind.POSTGRESQL.locate("dl_" + UUID.randomUUID().toString().replace("-", "")
			.substring(0, 10));
		String table = spec.name() + ((mode == DrillMode.SEGMENT) ? "_alloc" : "_lease");
		try (DrillStore admin = DrillStore.open(spec)) {
			admin.createSchema();
			try {
				if (mode == DrillMode.SNOWFLAKE) {
					sql(spec, "CREATE TABLE " + table + "_dump AS SELECT * FROM " + table);
				}
				DataLossDrill.Result result = DataLossDrill.run("PostgreSQL restored from an older dump", spec, mode,
						admin, () -> {
							if (mode == DrillMode.SEGMENT) {
								// Dumped now, restored a second later: that second's allocations are lost.
								sql(spec, "CREATE TABLE " + table + "_dump AS SELECT * FROM " + table);
								DataLossDrill.sleep(DataLossDrill.FAULT_AFTER.toMillis() / 2);
								logger.info("Restoring {}: max_id goes back from {} to {}", table, maxId(spec, table),
										maxId(spec, table + "_dump"));
							}
							sql(spec, "DELETE FROM " + table + "; INSERT INTO " + table + " SELECT * FROM " + table
									+ "_dump");
						}, true);
				assertRefusedNotRepeated(result);
			}
			finally {
				sql(spec, "DROP TABLE IF EXISTS " + table + "_dump");
				admin.dropAll();
			}
		}
	}

	private static void assertRefusedNotRepeated(DataLossDrill.Result result) {
		assertThat(result.duplicates()).as("duplicates, first ones %s; %s", result.duplicateSample(), result.files())
			.isZero();
		assertThat(result.sharedWorkers()).as("worker IDs stamped by two processes at once").isEmpty();
		assertThat(result.regressions()).as("refusals by the node guard (%s) in the processes' output; %s",
				DataLossDrill.REGRESSION, result.files()).isPositive();
	}

	/** Creates the segment key again at 1 once the restarted server answers, as a starting ID server does. */
	private static void recreateKey(DrillStore admin) {
		long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
		for (;;) {
			try {
				admin.keyAdmin().createKey(DataLossDrill.KEY, 1, DataLossDrill.STEP, "data-loss drill");
				return;
			}
			catch (SegmentStoreException ex) {
				if (System.nanoTime() - deadline > 0) {
					throw ex;
				}
				DataLossDrill.sleep(50);
			}
		}
	}

	/** Runs statements separated by {@code ;} in one transaction. */
	private static void sql(StoreSpec spec, String statements) {
		try (Connection connection = DriverManager.getConnection(spec.url(), spec.user(), spec.password());
				Statement statement = connection.createStatement()) {
			connection.setAutoCommit(false);
			for (String sql : statements.split(";")) {
				statement.execute(sql.strip());
			}
			connection.commit();
		}
		catch (SQLException ex) {
			throw new IllegalStateException("cannot run '" + statements + "' on " + spec, ex);
		}
	}

	private static long maxId(StoreSpec spec, String table) {
		try (Connection connection = DriverManager.getConnection(spec.url(), spec.user(), spec.password());
				Statement statement = connection.createStatement();
				ResultSet rows = statement.executeQuery("SELECT max_id FROM " + table)) {
			return rows.next() ? rows.getLong(1) : -1;
		}
		catch (SQLException ex) {
			throw new IllegalStateException("cannot read max_id of " + table, ex);
		}
	}

	private static StoreSpec spec(int port) {
		return new StoreSpec(StoreKind.REDIS, "redis://127.0.0.1:" + port, null, null,
				"dl_" + UUID.randomUUID().toString().replace("-", "").substring(0, 10));
	}

}
