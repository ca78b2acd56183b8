package io.idstarter.store.redis;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import io.idstarter.lease.ISequenceManager;
import io.idstarter.lease.LeaseRequest;
import io.idstarter.lease.LeaseStoreException;
import io.idstarter.lease.NoFreeWorkerIdException;
import io.idstarter.lease.SlotMark;
import io.idstarter.lease.WorkerLease;
import io.idstarter.snowflake.RecordedLayout;
import io.idstarter.testsupport.TestBackends;
import io.idstarter.testsupport.TestBackends.RedisBackend;
import io.idstarter.testsupport.contract.AbstractLeaseStoreContractTests;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * {@link RedisLeaseStore} against the real Redis of {@code TestBackends.redis()}: the lease contract of
 * {@link AbstractLeaseStoreContractTests}, and what is particular to Redis (the hash's format, corrupt fields,
 * the key prefix).
 */
class RedisLeaseStoreIntegrationTests extends AbstractLeaseStoreContractTests {

	private static final Duration TTL = Duration.ofSeconds(30);

	private static final long NOW = System.currentTimeMillis();

	private static RedisTestServer server;

	private static RedisLeaseStore manager;

	@BeforeAll
	static void connect() {
		server = new RedisTestServer();
		manager = new RedisLeaseStore(server.factory, server.prefix);
	}

	@AfterAll
	static void cleanUp() {
		server.close();
	}

	@Override
	protected ISequenceManager createManager() {
		return manager;
	}

	@Override
	protected List<String> identityParts() {
		return List.of("Redis lease store at Redis at ", "key prefix " + server.prefix);
	}

	@Test
	void identityTellsApartTwoDatabasesOfOneServer() {
		RedisBackend backend = TestBackends.redis();
		RedisStandaloneConfiguration second = new RedisStandaloneConfiguration(backend.host(), backend.port());
		second.setDatabase(1);
		LettuceConnectionFactory factory = new LettuceConnectionFactory(second);
		factory.afterPropertiesSet();
		try {
			String identity = new RedisLeaseStore(factory, server.prefix).identity();
			assertThat(identity).contains(", database 1, key prefix " + server.prefix)
				.isNotEqualTo(manager.identity());
			assertThat(manager.identity()).doesNotContain("database");
		}
		finally {
			factory.destroy();
		}
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

		assertCorruptField(namespace, "007", "is not a worker id");
		assertCorruptField(namespace, "0:owner", "is not a worker id");
		assertThat(hash(namespace)).containsOnly(Map.entry("0", good));
		assertThat(manager.borrow(request(namespace, 15, TTL, -1, NOW)).workerId()).isEqualTo(1);
	}

	@Test
	void aSlotAboveTheBorrowersLayoutIsPassedOverAndLeftUnchanged() {
		String namespace = newNamespace();
		String key = manager.namespaceKey(namespace);
		server.redis.opsForHash().put(key, "5000", "not even a slot");
		assertThat(manager.borrow(request(namespace, 15, TTL, -1, NOW)).workerId())
			.as("a slot of a wider layout stops no borrower")
			.isZero();
		assertThat(hash(namespace)).containsEntry("5000", "not even a slot");
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
	void theLayoutRecordIsAStringKeyOfItsOwnAndTheHashOfSlotsHasNoFieldForIt() {
		String namespace = newNamespace();
		String layout = "epoch=2010-11-04T01:42:54.657Z;timestamp-bits=41;worker-id-bits=10;sequence-bits=12";
		assertThat(manager.recordLayout(namespace, layout)).isEqualTo(layout);
		assertThat(manager.layoutKey(namespace)).isEqualTo(server.prefix + "layout:" + namespace);
		assertThat(server.redis.opsForValue().get(manager.layoutKey(namespace))).isEqualTo(layout);
		assertThat(server.redis.getExpire(manager.layoutKey(namespace))).as("no key TTL").isEqualTo(-1);
		assertThat(server.redis.hasKey(manager.namespaceKey(namespace))).isFalse();
		WorkerLease lease = manager.borrow(request(namespace, 15, TTL, -1, NOW));
		assertThat(hash(namespace)).containsOnlyKeys(Integer.toString(lease.workerId()));
		assertThat(manager.slotMarks(namespace)).containsExactly(new SlotMark(lease.workerId(), NOW, true));
	}

	@Test
	void aLayoutKeyWrittenBySomethingElseIsReportedAndLeftUnchanged() {
		String namespace = newNamespace();
		String key = manager.layoutKey(namespace);
		server.redis.opsForHash().put(key, "layout", "mine");
		assertThatExceptionOfType(LeaseStoreException.class)
			.isThrownBy(() -> manager.recordLayout(namespace, "epoch=2010-11-04T01:42:54.657Z"))
			.withMessageContaining("Redis key '" + key + "'")
			.withMessageContaining("is a hash but must be a string (the layout record)")
			.withMessageContaining("left unchanged");
		assertThatExceptionOfType(LeaseStoreException.class)
			.isThrownBy(() -> manager.replaceLayout(namespace, "mine", "epoch=2010-11-04T01:42:54.657Z"))
			.withMessageContaining("Redis key '" + key + "'");
		assertThat(server.redis.<String, String>opsForHash().entries(key)).containsOnly(Map.entry("layout", "mine"));
	}

	@Test
	void aLayoutLongerThanAStoreKeepsIsRefusedAndNothingIsWritten() {
		String namespace = newNamespace();
		String tooLong = "x".repeat(RecordedLayout.MAX_LENGTH + 1);
		assertThatIllegalArgumentException().isThrownBy(() -> manager.recordLayout(namespace, tooLong))
			.withMessageContaining("layout must be 1 to 255 characters")
			.withMessageContaining("was 256");
		assertThat(server.redis.hasKey(manager.layoutKey(namespace))).isFalse();
	}

	@Test
	void aCorruptSlotIsReportedWhenTheMarksAreRead() {
		String namespace = newNamespace();
		String key = manager.namespaceKey(namespace);
		server.redis.opsForHash().put(key, "3", "not a slot");
		assertThatExceptionOfType(LeaseStoreException.class).isThrownBy(() -> manager.slotMarks(namespace))
			.withMessageContaining("field '3' of Redis hash '" + key + "'")
			.withMessageContaining("'not a slot'");
	}

	@Test
	void theDefaultPrefixIsIdStarter() {
		RedisLeaseStore defaults = new RedisLeaseStore(server.factory);
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
