package io.idstarter.store.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import io.idstarter.lease.LeaseLostException;
import io.idstarter.lease.LeaseRequest;
import io.idstarter.lease.LeaseStoreException;
import io.idstarter.lease.NoFreeWorkerIdException;
import io.idstarter.lease.WorkerLease;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * {@link RedisSequenceManager} against the real Redis of {@code TestBackends.redis()}.
 */
class RedisSequenceManagerIntegrationTests {

	private static final Duration TTL = Duration.ofSeconds(30);

	private static final long NOW = System.currentTimeMillis();

	private static RedisTestServer server;

	private static RedisSequenceManager manager;

	@BeforeAll
	static void connect() {
		server = new RedisTestServer();
		manager = new RedisSequenceManager(server.factory, server.prefix);
	}

	@AfterAll
	static void cleanUp() {
		server.close();
	}

	@Test
	void excludedSlotsAreNeverHandedOutWhetherFreeOrNeverUsed() {
		String namespace = newNamespace();
		List<WorkerLease> all = new ArrayList<>();
		for (int i = 0; i < 3; i++) {
			all.add(manager.borrow(new LeaseRequest(namespace, 3, Duration.ofSeconds(30), -1, "node-a", 0)));
		}
		manager.release(all.get(0), -1);
		manager.release(all.get(1), -1);
		int excludedFree = all.get(0).workerId();
		int neverUsed = 6 - all.get(0).workerId() - all.get(1).workerId() - all.get(2).workerId();
		java.util.Set<Integer> excluded = java.util.Set.of(excludedFree, neverUsed);
		WorkerLease lease = manager
			.borrow(new LeaseRequest(namespace, 3, Duration.ofSeconds(30), -1, "node-b", 0, excluded));
		assertThat(lease.workerId()).isEqualTo(all.get(1).workerId());
		assertThatExceptionOfType(NoFreeWorkerIdException.class).isThrownBy(() -> manager
			.borrow(new LeaseRequest(namespace, 3, Duration.ofSeconds(30), -1, "node-c", 0, excluded)));
		assertThat(manager.borrow(new LeaseRequest(namespace, 3, Duration.ofSeconds(30), -1, "node-d", 0))
			.workerId()).isIn(excludedFree, neverUsed);
	}

	@Test
	void borrowTakesTheLowestSlotOfANewNamespaceAndRecordsItWithRedisTime() {
		String namespace = newNamespace();
		long before = server.redisTimeMillis();
		WorkerLease lease = manager.borrow(request(namespace, 15, TTL, -1, NOW + 5000));
		long after = server.redisTimeMillis();

		assertThat(lease.namespace()).isEqualTo(namespace);
		assertThat(lease.workerId()).isZero();
		assertThat(lease.timestampFloor()).isEqualTo(-1);
		assertThat(lease.timestampCeiling()).isEqualTo(NOW + 5000);
		assertThat(lease.ttl()).isEqualTo(TTL);
		assertThat(lease.storeTimeMillis()).isBetween(before, after);
		assertThat(hash(namespace)).containsOnly(Map.entry("0", (lease.storeTimeMillis() + TTL.toMillis()) + " "
				+ (NOW + 5000) + " -1 " + lease.ownerToken() + " host-a:1"));
		assertThat(server.redis.getExpire(manager.namespaceKey(namespace))).as("no key TTL").isEqualTo(-1);
	}

	@Test
	void manyThreadsBorrowingASmallNamespaceGetEachSlotExactlyOnceAndTheNextBorrowFails() throws Exception {
		String namespace = newNamespace();
		int threads = 32;
		CountDownLatch start = new CountDownLatch(1);
		List<Callable<WorkerLease>> borrowers = new ArrayList<>();
		for (int i = 0; i < threads; i++) {
			borrowers.add(() -> {
				start.await();
				try {
					return manager.borrow(request(namespace, 15, TTL, -1, NOW));
				}
				catch (NoFreeWorkerIdException ex) {
					return null;
				}
			});
		}
		List<WorkerLease> leases = RedisSegmentStoreIntegrationTests.runAll(borrowers, start).stream()
			.filter((lease) -> lease != null).toList();

		assertThat(leases).extracting(WorkerLease::workerId)
			.containsExactlyInAnyOrderElementsOf(IntStream.rangeClosed(0, 15).boxed().toList());
		assertThat(leases.stream().map(WorkerLease::ownerToken).collect(Collectors.toSet())).hasSize(16);
		assertThatExceptionOfType(NoFreeWorkerIdException.class)
			.isThrownBy(() -> manager.borrow(request(namespace, 15, TTL, 3, NOW)))
			.withMessageContaining("'" + namespace + "'")
			.withMessageContaining("all 16 slots [0, 15]");
	}

	@Test
	void borrowsEvery1024SlotsOfALargeNamespaceQuickly() {
		String namespace = newNamespace();
		long started = System.nanoTime();
		Set<Integer> workerIds = IntStream.range(0, 1024)
			.mapToObj((i) -> manager.borrow(request(namespace, 1023, TTL, -1, NOW)).workerId())
			.collect(Collectors.toSet());
		Duration took = Duration.ofNanos(System.nanoTime() - started);

		assertThat(workerIds).hasSize(1024).allMatch((id) -> id >= 0 && id <= 1023);
		assertThatExceptionOfType(NoFreeWorkerIdException.class)
			.isThrownBy(() -> manager.borrow(request(namespace, 1023, TTL, -1, NOW)));
		assertThat(took).as("1024 borrows, each scanning the namespace").isLessThan(Duration.ofSeconds(10));
	}

	@Test
	void anExpiredLeaseFreesItsSlotByRedisClockAndTheNewOwnerStartsAboveTheOldCeiling() {
		String namespace = newNamespace();
		Duration oneSecond = Duration.ofSeconds(1);
		WorkerLease first = manager.borrow(request(namespace, 0, oneSecond, -1, NOW + 1000));
		WorkerLease renewed = manager.renew(first, NOW + 2000);
		assertThatExceptionOfType(NoFreeWorkerIdException.class)
			.isThrownBy(() -> manager.borrow(request(namespace, 0, oneSecond, -1, NOW)));

		WorkerLease second = await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(50))
			.ignoreException(NoFreeWorkerIdException.class)
			.until(() -> manager.borrow(request(namespace, 0, oneSecond, -1, NOW)), (lease) -> true);

		assertThat(second.workerId()).isZero();
		assertThat(second.storeTimeMillis()).isGreaterThanOrEqualTo(renewed.storeTimeMillis() + 1000);
		assertThat(second.timestampFloor()).as("high-water mark survives expiry").isEqualTo(NOW + 2000);
		assertThat(second.timestampCeiling()).isEqualTo(NOW + 2000);
		assertThatExceptionOfType(LeaseLostException.class).isThrownBy(() -> manager.renew(first, NOW + 3000))
			.withMessageContaining("worker id 0 of namespace '" + namespace + "'")
			.withMessageContaining("instance 'host-a:1' holds it");
	}

	@Test
	void renewExtendsTheLeaseFromRedisTimeAndOnlyRaisesTheMark() {
		String namespace = newNamespace();
		WorkerLease lease = manager.borrow(request(namespace, 3, TTL, -1, NOW + 1000));

		WorkerLease raised = manager.renew(lease, NOW + 3000);
		WorkerLease kept = manager.renew(raised, NOW + 2000);

		assertThat(raised.timestampCeiling()).isEqualTo(NOW + 3000);
		assertThat(raised.timestampFloor()).isEqualTo(-1);
		assertThat(raised.ownerToken()).isEqualTo(lease.ownerToken());
		assertThat(kept.timestampCeiling()).as("stored max(mark, requested)").isEqualTo(NOW + 3000);
		assertThat(kept.storeTimeMillis()).isGreaterThanOrEqualTo(raised.storeTimeMillis());
		assertThat(hash(namespace)).containsOnly(Map.entry("0", (kept.storeTimeMillis() + TTL.toMillis()) + " "
				+ (NOW + 3000) + " -1 " + lease.ownerToken() + " host-a:1"));
	}

	@Test
	void renewAndReleaseNeedTheOwnerToken() {
		String namespace = newNamespace();
		WorkerLease lease = manager.borrow(request(namespace, 0, TTL, -1, NOW));
		WorkerLease impostor = new WorkerLease(namespace, 0, UUID.randomUUID().toString(), TTL, -1, NOW, NOW);
		Map<String, String> before = hash(namespace);

		assertThatExceptionOfType(LeaseLostException.class).isThrownBy(() -> manager.renew(impostor, NOW + 9000))
			.withMessageContaining("no longer held with this lease's owner token");
		manager.release(impostor, NOW + 9000);

		assertThat(hash(namespace)).isEqualTo(before);
		assertThatExceptionOfType(NoFreeWorkerIdException.class)
			.isThrownBy(() -> manager.borrow(request(namespace, 0, TTL, -1, NOW)));
		assertThat(manager.renew(lease, NOW).workerId()).isZero();
	}

	@Test
	void aReleasedLeaseCannotBeRenewed() {
		String namespace = newNamespace();
		WorkerLease lease = manager.borrow(request(namespace, 0, TTL, -1, NOW));
		manager.release(lease, NOW);

		assertThatExceptionOfType(LeaseLostException.class).isThrownBy(() -> manager.renew(lease, NOW))
			.withMessageContaining("the slot is free");
	}

	@Test
	void anExpiredLeaseThatNobodyTookCanStillBeRenewed() {
		String namespace = newNamespace();
		WorkerLease lease = manager.borrow(request(namespace, 0, Duration.ofSeconds(1), -1, NOW));
		String slot = hash(namespace).get("0");
		server.redis.opsForHash().put(manager.namespaceKey(namespace), "0", "1" + slot.substring(slot.indexOf(' ')));

		WorkerLease renewed = manager.renew(lease, NOW + 10);

		assertThat(renewed.timestampCeiling()).isEqualTo(NOW + 10);
		assertThatExceptionOfType(NoFreeWorkerIdException.class)
			.isThrownBy(() -> manager.borrow(request(namespace, 0, TTL, -1, NOW)));
	}

	@Test
	void releaseSetsTheMarkToTheLastIssuedTimestampButNotBelowTheFloor() {
		String namespace = newNamespace();
		WorkerLease first = manager.borrow(request(namespace, 0, TTL, -1, NOW + 5000));
		manager.release(first, NOW + 1000);
		WorkerLease second = manager.borrow(request(namespace, 0, TTL, -1, NOW));
		assertThat(second.timestampFloor()).as("lowered to what was really issued").isEqualTo(NOW + 1000);
		assertThat(second.timestampCeiling()).isEqualTo(NOW + 1000);

		manager.release(second, NOW + 500);
		WorkerLease third = manager.borrow(request(namespace, 0, TTL, -1, NOW));
		assertThat(third.timestampFloor()).as("never below the previous owners' mark").isEqualTo(NOW + 1000);

		manager.renew(third, NOW + 7000);
		manager.release(third, -1);
		WorkerLease fourth = manager.borrow(request(namespace, 0, TTL, -1, NOW));
		assertThat(fourth.timestampFloor()).as("unknown last timestamp keeps the mark").isEqualTo(NOW + 7000);
	}

	@Test
	void aReleasedSlotCountsAsFreeSinceItsRelease() {
		String namespace = newNamespace();
		WorkerLease lease = manager.borrow(request(namespace, 0, TTL, -1, NOW));
		long before = server.redisTimeMillis();
		manager.release(lease, NOW);
		long after = server.redisTimeMillis();

		String[] slot = hash(namespace).get("0").split(" ");
		assertThat(slot).hasSize(5);
		assertThat(Long.parseLong(slot[0])).as("free since").isBetween(before, after);
		assertThat(slot).endsWith(Long.toString(NOW), "-1", "-", "host-a:1");
	}

	@Test
	void thePreferredSlotIsTakenWhenFreeAndAnotherWhenItIsHeld() {
		String namespace = newNamespace();
		WorkerLease preferred = manager.borrow(request(namespace, 7, TTL, 5, NOW));
		WorkerLease other = manager.borrow(request(namespace, 7, TTL, 5, NOW));
		manager.release(preferred, NOW + 100);
		WorkerLease reclaimed = manager.borrow(request(namespace, 7, TTL, 5, NOW));

		assertThat(preferred.workerId()).isEqualTo(5);
		assertThat(other.workerId()).isZero();
		assertThat(reclaimed.workerId()).isEqualTo(5);
		assertThat(reclaimed.timestampFloor()).isEqualTo(NOW + 100);
	}

	@Test
	void withoutAPreferenceTheSlotFreeForLongestComesBeforeANeverUsedOne() throws Exception {
		String namespace = newNamespace();
		List<WorkerLease> leases = new ArrayList<>();
		for (int i = 0; i < 4; i++) {
			leases.add(manager.borrow(request(namespace, 15, TTL, -1, NOW)));
		}
		assertThat(leases).extracting(WorkerLease::workerId).containsExactly(0, 1, 2, 3);
		manager.release(leases.get(2), NOW);
		Thread.sleep(5); // Redis time moves on, so the two slots were freed at different milliseconds
		manager.release(leases.get(0), NOW);
		Thread.sleep(5);
		manager.release(leases.get(3), NOW);

		assertThat(IntStream.range(0, 4).map((i) -> manager.borrow(request(namespace, 15, TTL, -1, NOW)).workerId()))
			.containsExactly(2, 0, 3, 4);
	}

	@Test
	void aCorruptSlotIsReportedWithItsRedisKeyAndFieldAndLeftUnchanged() {
		String namespace = newNamespace();
		WorkerLease lease = manager.borrow(request(namespace, 15, TTL, -1, NOW));
		String good = hash(namespace).get("0");
		String rest = " " + lease.ownerToken() + " host-a:1";

		assertCorrupt(namespace, "12x " + NOW + " -1" + rest, lease);
		assertCorrupt(namespace, "1e9 " + NOW + " -1" + rest, lease);
		assertCorrupt(namespace, "0x10 " + NOW + " -1" + rest, lease);
		assertCorrupt(namespace, "1 " + NOW + " -2" + rest, lease);
		assertCorrupt(namespace, "1 9007199254740992 -1" + rest, lease);
		assertCorrupt(namespace, "1 " + NOW + " -1 " + lease.ownerToken(), lease);
		assertCorrupt(namespace, "", lease);
		assertThat(hash(namespace)).containsOnly(Map.entry("0", good));

		assertCorruptField(namespace, "16", "above the max worker id 15");
		assertCorruptField(namespace, "007", "is not a worker id");
		assertCorruptField(namespace, "0:owner", "is not a worker id");
		assertThat(hash(namespace)).containsOnly(Map.entry("0", good));
		assertThat(manager.borrow(request(namespace, 15, TTL, -1, NOW)).workerId()).isEqualTo(1);
	}

	@Test
	void aNamespaceKeyThatIsNotAHashIsReported() {
		String namespace = newNamespace();
		String key = manager.namespaceKey(namespace);
		server.redis.opsForValue().set(key, "x");

		assertThatExceptionOfType(LeaseStoreException.class)
			.isThrownBy(() -> manager.borrow(request(namespace, 15, TTL, -1, NOW)))
			.withMessageContaining(key).withMessageContaining("must be a hash");
		assertThatExceptionOfType(LeaseStoreException.class)
			.isThrownBy(() -> manager.renew(new WorkerLease(namespace, 0, "t", TTL, -1, NOW, NOW), NOW))
			.withMessageContaining(key);
		assertThat(server.redis.opsForValue().get(key)).isEqualTo("x");
	}

	@Test
	void theDefaultPrefixIsIdStarter() {
		RedisSequenceManager defaults = new RedisSequenceManager(server.factory);
		String namespace = newNamespace();
		try {
			defaults.borrow(request(namespace, 1, TTL, -1, NOW));
			assertThat(server.redis.hasKey("id-starter:lease:" + namespace)).isTrue();
		}
		finally {
			server.redis.delete("id-starter:lease:" + namespace);
		}
	}

	private void assertCorrupt(String namespace, String value, WorkerLease lease) {
		String key = manager.namespaceKey(namespace);
		String good = hash(namespace).get("0");
		server.redis.opsForHash().put(key, "0", value);
		assertThatExceptionOfType(LeaseStoreException.class)
			.isThrownBy(() -> manager.borrow(request(namespace, 15, TTL, -1, NOW)))
			.withMessageContaining("field '0' of Redis hash '" + key + "'").withMessageContaining("'" + value + "'");
		assertThatExceptionOfType(LeaseStoreException.class).isThrownBy(() -> manager.renew(lease, NOW))
			.withMessageContaining("field '0' of Redis hash '" + key + "'");
		assertThatExceptionOfType(LeaseStoreException.class).isThrownBy(() -> manager.release(lease, NOW))
			.withMessageContaining("field '0' of Redis hash '" + key + "'");
		assertThat(hash(namespace)).as("left unchanged").containsEntry("0", value);
		server.redis.opsForHash().put(key, "0", good);
	}

	private void assertCorruptField(String namespace, String field, String rule) {
		String key = manager.namespaceKey(namespace);
		server.redis.opsForHash().put(key, field, "1 1 -1 - x");
		assertThatExceptionOfType(LeaseStoreException.class)
			.isThrownBy(() -> manager.borrow(request(namespace, 15, TTL, -1, NOW)))
			.withMessageContaining("field '" + field + "' of Redis hash '" + key + "'").withMessageContaining(rule);
		assertThat(hash(namespace)).as("left unchanged").containsEntry(field, "1 1 -1 - x");
		server.redis.opsForHash().delete(key, field);
	}

	private static Map<String, String> hash(String namespace) {
		Map<String, String> fields = new HashMap<>();
		server.redis.<String, String>opsForHash().entries(manager.namespaceKey(namespace)).forEach(fields::put);
		return fields;
	}

	private static LeaseRequest request(String namespace, int maxWorkerId, Duration ttl, int preferred,
			long ceiling) {
		return new LeaseRequest(namespace, maxWorkerId, ttl, preferred, "host-a:1", ceiling);
	}

	private static String newNamespace() {
		return "app-" + UUID.randomUUID();
	}

}
