package io.idstarter.store.redis;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import io.idstarter.lease.LeaseRequest;
import io.idstarter.lease.LeaseStoreException;
import io.idstarter.lease.WorkerLease;
import io.idstarter.segment.SegmentAllocation;
import io.idstarter.segment.SegmentStoreException;
import io.idstarter.testsupport.TcpProxy;
import io.idstarter.testsupport.TestBackends;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * The Redis stores while their connection is cut by a {@link TcpProxy} and after it is restored; other clients reach
 * Redis directly the whole time.
 */
class RedisOutageIntegrationTests {

	private static final long NOW = System.currentTimeMillis();

	private static RedisTestServer server;

	private static TcpProxy proxy;

	private static LettuceConnectionFactory proxied;

	@BeforeAll
	static void connect() {
		server = new RedisTestServer();
		TestBackends.RedisBackend redis = TestBackends.redis();
		proxy = TcpProxy.start(redis.host(), redis.port());
		proxied = server.connect("127.0.0.1", proxy.port());
	}

	@AfterEach
	void restore() {
		proxy.restore();
	}

	@AfterAll
	static void cleanUp() {
		proxy.close();
		server.close();
	}

	@Test
	void segmentCallsFailNamingRedisWhileCutAndResumeWithoutOverlappingRanges() {
		RedisSegmentStore store = new RedisSegmentStore(proxied, server.prefix);
		RedisSegmentStore direct = new RedisSegmentStore(server.factory, server.prefix);
		String key = "key-" + UUID.randomUUID();
		store.createKey(key, 0, 100, "");
		List<SegmentAllocation> ranges = new ArrayList<>();
		ranges.add(store.allocate(key));

		proxy.cut();
		long started = System.nanoTime();
		assertThatExceptionOfType(SegmentStoreException.class).isThrownBy(() -> store.allocate(key))
			.withMessageStartingWith("Redis at 127.0.0.1:" + proxy.port() + " could not allocate a range of key '"
					+ key + "'")
			.withMessageContaining("check that Redis is reachable");
		assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(5));
		assertThatExceptionOfType(SegmentStoreException.class).isThrownBy(() -> store.allocate(key, 7));
		assertThatExceptionOfType(SegmentStoreException.class).isThrownBy(store::keys)
			.withMessageContaining("Redis at 127.0.0.1:" + proxy.port());
		ranges.add(direct.allocate(key));

		proxy.restore();
		ranges.add(await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(100))
			.ignoreException(SegmentStoreException.class)
			.until(() -> store.allocate(key), (range) -> true));
		ranges.add(direct.allocate(key));
		ranges.add(store.allocate(key, 7));

		ranges.sort(Comparator.comparingLong(SegmentAllocation::start));
		for (int i = 1; i < ranges.size(); i++) {
			assertThat(ranges.get(i).start()).as("ranges do not overlap").isGreaterThanOrEqualTo(ranges.get(i - 1).end());
		}
		assertThat(store.keys()).contains(key);
	}

	@Test
	void aGiveBackLettuceSendsAgainAfterAReconnectDoesNotTakeBackARangeAllocatedMeanwhile() throws Exception {
		// Lettuce's default is at-least-once: a command written but unanswered when the connection dropped is sent
		// again after the reconnect. Here the give-back ran, its reply was lost, node B drew the same numbers, and
		// only then did node A's connection come back.
		RedisSegmentStore nodeA = new RedisSegmentStore(proxied, server.prefix);
		RedisSegmentStore nodeB = new RedisSegmentStore(server.factory, server.prefix);
		String key = "key-" + UUID.randomUUID();
		nodeA.createKey(key, 0, 100, "");
		SegmentAllocation range = nodeA.allocate(key);
		byte[] name = key.getBytes(StandardCharsets.UTF_8);
		proxy.loseReply((request) -> indexOf(request, name) >= 0, (request, reply) -> {
			proxy.cut();
			return true;
		});
		CompletableFuture<Boolean> givenBack = CompletableFuture
			.supplyAsync(() -> nodeA.giveBack(key, range.start(), range.end()));
		await().atMost(Duration.ofSeconds(5)).until(() -> proxy.lostReplies() == 1);
		assertThat(nodeB.allocate(key)).as("node B draws the numbers given back").isEqualTo(range);
		proxy.restore();
		Object answer;
		try {
			answer = givenBack.get(10, TimeUnit.SECONDS);
		}
		catch (ExecutionException ex) {
			answer = ex.getCause();
		}
		assertThat(server.redis.opsForHash().get(server.prefix + "segment:key:" + key, "max_id"))
			.as("node B's range stays allocated (node A's give-back answered %s)", answer)
			.isEqualTo(Long.toString(range.end()));
	}

	private static int indexOf(byte[] bytes, byte[] part) {
		for (int i = 0; i + part.length <= bytes.length; i++) {
			if (Arrays.equals(bytes, i, i + part.length, part, 0, part.length)) {
				return i;
			}
		}
		return -1;
	}

	@Test
	void leaseCallsFailNamingRedisWhileCutAndTheLeaseIsStillHeldAfterwards() {
		RedisLeaseStore manager = new RedisLeaseStore(proxied, server.prefix);
		String namespace = "app-" + UUID.randomUUID();
		LeaseRequest request = new LeaseRequest(namespace, 3, Duration.ofSeconds(30), -1, "host-a:1", NOW);
		WorkerLease lease = manager.borrow(request);

		proxy.cut();
		assertThatExceptionOfType(LeaseStoreException.class).isThrownBy(() -> manager.renew(lease, NOW + 1000))
			.withMessageStartingWith("Redis at 127.0.0.1:" + proxy.port() + " could not renew worker id 0 of "
					+ "namespace '" + namespace + "'");
		assertThatExceptionOfType(LeaseStoreException.class).isThrownBy(() -> manager.borrow(request))
			.withMessageContaining("could not borrow a worker id of namespace '" + namespace + "'");
		assertThatExceptionOfType(LeaseStoreException.class).isThrownBy(() -> manager.release(lease, NOW));

		proxy.restore();
		WorkerLease renewed = await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(100))
			.ignoreException(LeaseStoreException.class)
			.until(() -> manager.renew(lease, NOW + 2000), (result) -> true);

		assertThat(renewed.workerId()).isZero();
		assertThat(renewed.timestampCeiling()).isEqualTo(NOW + 2000);
		assertThat(server.redis.opsForHash().keys(manager.namespaceKey(namespace)))
			.as("the failed borrow took no slot").containsExactly("0");
		assertThat(manager.borrow(request).workerId()).isEqualTo(1);
	}

}
