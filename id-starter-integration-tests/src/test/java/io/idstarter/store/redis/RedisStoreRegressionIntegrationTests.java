package io.idstarter.store.redis;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.idstarter.StoreRegressionException;
import io.idstarter.segment.SegmentIdGenerator;
import io.idstarter.store.GuardedSegments;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A Redis segment store restarted without persistence (no RDB, no AOF: the default of a plain redis-server here) loses
 * every key. A node that was given ranges of a key reports it missing, and when the key is created again at its first
 * ID (as another instance starting with the key configured would do), refuses its ranges instead of serving IDs again,
 * in the running node and after its restart. Runs a redis-server of its own on a port in 16400-16419, never the shared
 * one.
 */
class RedisStoreRegressionIntegrationTests {

	private static final String KEY = "order";

	private static final int FIRST_PORT = 16400;

	private static final int LAST_PORT = 16419;

	@TempDir
	Path directory;

	private final List<SegmentIdGenerator> generators = new ArrayList<>();

	private RedisTestServer connections;

	private Process redis;

	private int port;

	@AfterEach
	void stop() {
		this.generators.forEach(SegmentIdGenerator::close);
		if (this.connections != null) {
			this.connections.close();
		}
		if (this.redis != null) {
			this.redis.destroyForcibly();
		}
	}

	@Test
	void redisRestartedWithoutPersistenceIsRefusedNotServedAgain() throws Exception {
		this.port = startRedis();
		this.connections = new RedisTestServer();
		RedisSegmentStore store = new RedisSegmentStore(this.connections.connect("127.0.0.1", this.port),
				this.connections.prefix);
		GuardedSegments nodes = new GuardedSegments();
		Path marks = this.directory.resolve("node-a/segment-marks");
		store.createKey(KEY, 1, 100, "orders");
		SegmentIdGenerator running = started(nodes.start(store, marks));
		assertThat(nodes.draw(running, KEY, 450)).isNull();
		await().atMost(Duration.ofSeconds(5)).until(() -> running.marks().highMark(KEY) == 601);

		// Crash and restart: the data is gone.
		this.redis.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
		this.redis = launchRedis(this.port);
		long restarted = System.nanoTime();
		await().atMost(Duration.ofSeconds(10)).until(() -> running.missingKeys().containsKey(KEY));
		long missingAfter = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - restarted);
		assertThat(running.missingKeys()).containsEntry(KEY, 601L);

		// Another instance starts with the key configured and creates it at its first ID.
		assertThat(store.createKey(KEY, 1, 100, "orders")).isTrue();
		await().atMost(Duration.ofSeconds(5)).until(() -> running.missingKeys().isEmpty());
		StoreRegressionException refused = nodes.draw(running, KEY, 1000);
		assertThat(refused).as("the running node refuses").isNotNull();
		assertThat(refused.knownMark()).isEqualTo(601);
		assertThat(refused.storeMark()).isLessThan(601);
		assertThat(running.refusedKeys()).containsOnlyKeys(KEY);
		running.close();

		SegmentIdGenerator restartedNode = started(nodes.start(store, marks));
		assertThat(nodes.draw(restartedNode, KEY, 10)).as("the restarted node refuses too").isNotNull();
		assertThat(nodes.duplicates()).isZero();
		System.out.println(nodes.figures("Redis restarted without persistence (key missing after " + missingAfter
				+ " ms)"));
	}

	private SegmentIdGenerator started(SegmentIdGenerator generator) {
		this.generators.add(generator);
		return generator;
	}

	/** Starts redis-server on the first free port of this test's range. */
	private int startRedis() throws IOException, InterruptedException {
		for (int candidate = FIRST_PORT; candidate <= LAST_PORT; candidate++) {
			if (answers(candidate)) {
				continue;
			}
			this.redis = launchRedis(candidate);
			if (this.redis.isAlive()) {
				return candidate;
			}
		}
		throw new IllegalStateException("no free port for a redis-server of this test in " + FIRST_PORT + "-"
				+ LAST_PORT + "; is redis-server installed (scripts/ensure-test-services.sh installs it)?");
	}

	private Process launchRedis(int port) throws IOException, InterruptedException {
		Process process = new ProcessBuilder("redis-server", "--port", String.valueOf(port), "--bind", "127.0.0.1",
				"--save", "", "--appendonly", "no", "--dir", this.directory.toString(), "--daemonize", "no")
			.redirectErrorStream(true)
			.redirectOutput(this.directory.resolve("redis-" + port + ".log").toFile())
			.start();
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
		while (!answers(port)) {
			if (!process.isAlive() || System.nanoTime() > deadline) {
				process.destroyForcibly();
				throw new IllegalStateException("redis-server did not start on port " + port);
			}
			Thread.sleep(20);
		}
		return process;
	}

	private static boolean answers(int port) {
		try (Socket socket = new Socket()) {
			socket.connect(new InetSocketAddress("127.0.0.1", port), 200);
			return true;
		}
		catch (IOException ex) {
			return false;
		}
	}

}
