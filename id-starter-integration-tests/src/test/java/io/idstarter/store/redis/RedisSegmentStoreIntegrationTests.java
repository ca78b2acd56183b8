package io.idstarter.store.redis;

import java.util.Map;
import java.util.UUID;

import io.idstarter.segment.SegmentAllocation;
import io.idstarter.segment.SegmentStore;
import io.idstarter.segment.SegmentStoreException;
import io.idstarter.testsupport.contract.AbstractSegmentStoreContractTests;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * {@link RedisSegmentStore} against the real Redis of {@code TestBackends.redis()}: the segment contract of
 * {@link AbstractSegmentStoreContractTests}, and what is particular to Redis (the record's format, counters beyond
 * 2<sup>53</sup>, corrupt records, the key prefix).
 */
class RedisSegmentStoreIntegrationTests extends AbstractSegmentStoreContractTests {

	private static RedisTestServer server;

	private static RedisSegmentStore store;

	@BeforeAll
	static void connect() {
		server = new RedisTestServer();
		store = new RedisSegmentStore(server.factory, server.prefix);
	}

	@AfterAll
	static void cleanUp() {
		server.close();
	}

	@Override
	protected SegmentStore createStore() {
		return store;
	}

	@Test
	void keepsTheRecordAsAHashWithLeafsColumnsAndRedisTimeAsUpdateTime() {
		String key = redisKey();
		store.createKey(key, 0, 10, "payments");
		long before = server.redisTimeMillis();
		store.allocate(key);
		long after = server.redisTimeMillis();

		Map<Object, Object> record = server.redis.opsForHash().entries(server.prefix + "segment:key:" + key);
		assertThat(record).containsEntry("max_id", "10").containsEntry("step", "10")
			.containsEntry("description", "payments").containsEntry("allocation_before", "0")
			.containsOnlyKeys("max_id", "step", "description", "update_time", "allocations", "allocation",
					"allocation_before");
		assertThat(Long.parseLong((String) record.get("update_time"))).isBetween(before, after);
		// The key's allocations are numbered from a random start: see the test of a key deleted and created again.
		assertThat(record.get("allocation")).isEqualTo(record.get("allocations"));
		assertThat(Long.parseLong((String) record.get("allocation"))).isGreaterThan(1);
	}

	@Test
	void aRangeOfADeletedKeysEarlierLifeIsNeverGivenBackIntoTheKeyCreatedAgain() {
		String key = redisKey();
		RedisSegmentStore nodeA = new RedisSegmentStore(server.factory, server.prefix);
		RedisSegmentStore nodeB = new RedisSegmentStore(server.factory, server.prefix);
		nodeA.createKey(key, 0, 10, "");
		assertThat(nodeA.allocate(key)).isEqualTo(new SegmentAllocation(key, 0, 10, 10));
		// Deleted (a periodic key past its retention, an operator) and created again, with the same first ID and step.
		assertThat(nodeA.deleteKey(key)).isTrue();
		nodeB.createKey(key, 0, 10, "");
		assertThat(nodeB.allocate(key)).isEqualTo(new SegmentAllocation(key, 0, 10, 10));
		// Node A still holds the receipt of its range [0, 10) of the key's first life, which ends where node B's does.
		assertThat(nodeA.giveBack(key, 5, 10)).as("a range of the key's earlier life").isFalse();
		assertThat(nodeB.allocate(key)).as("node B's range kept").isEqualTo(new SegmentAllocation(key, 10, 20, 10));
	}

	@Test
	void aRangeIsGivenBackAfterRangesOfAsManyOtherKeysAsTheIdServersLedgerRemembers() {
		RedisSegmentStore node = new RedisSegmentStore(server.factory, server.prefix);
		String key = redisKey();
		node.createKey(key, 0, 10, "");
		SegmentAllocation range = node.allocate(key);
		// An ID server's store draws for every key of its clients; its ledger vouches for the ranges of 10,000 keys.
		String others = "others-" + UUID.randomUUID() + "-";
		for (int i = 0; i < 5_000; i++) {
			node.createKey(others + i, 0, 10, "");
			node.allocate(others + i);
		}
		assertThat(node.giveBack(key, range.start() + 4, range.end())).isTrue();
		assertThat(node.allocate(key).start()).isEqualTo(range.start() + 4);
	}

	@Test
	void aKeyCreatedAfterAFailoverThatLostAnotherCreationChangesTheMarker() {
		String prefix = server.prefix + "failover-" + UUID.randomUUID() + ":";
		RedisSegmentStore primary = new RedisSegmentStore(server.factory, prefix);
		primary.createKey("first", 0, 10, "");
		String version = server.redis.opsForValue().get(prefix + "segment:keys:version");
		primary.createKey("lost", 0, 10, "");
		String seen = primary.keysMarker();
		// A failover to a replica that had not received the creation of 'lost': its keys and version are as before.
		server.redis.delete(primary.recordKey("lost"));
		server.redis.opsForSet().remove(prefix + "segment:keys", "lost");
		server.redis.opsForValue().set(prefix + "segment:keys:version", version);
		primary.createKey("other", 0, 10, "");
		assertThat(primary.keys()).containsExactlyInAnyOrder("first", "other");
		assertThat(primary.keysMarker()).as("another list than the one seen with the same size").isNotEqualTo(seen);
	}

	@Test
	void listsTheKeysItCreated() {
		String first = redisKey();
		String second = redisKey();
		store.createKey(first, 0, 1, "");
		store.createKey(second, 0, 1, "");

		assertThat(store.keys()).contains(first, second);
		assertThat(new RedisSegmentStore(server.factory, server.prefix + "empty:").keys()).isEmpty();
	}

	@Test
	void refusesOnlyTheStepThatWouldPassLongMaxValueWhenMaxIdIsBeyondTwoToThe53() {
		String key = redisKey();
		long firstId = (1L << 53) + 1; // not representable as a double
		store.createKey(key, firstId, 3, "");

		assertThat(store.allocate(key)).isEqualTo(new SegmentAllocation(key, firstId, firstId + 3, 3));
		assertThat(store.allocate(key, Integer.MAX_VALUE).end()).isEqualTo(firstId + 3 + Integer.MAX_VALUE);
	}

	@Test
	void aCorruptRecordIsReportedWithItsRedisKeyAndLeftUnchanged() {
		String key = redisKey();
		store.createKey(key, 0, 10, "");
		String record = server.prefix + "segment:key:" + key;
		server.redis.opsForHash().put(record, "max_id", "12abc");

		assertThatExceptionOfType(SegmentStoreException.class).isThrownBy(() -> store.allocate(key))
			.withMessageContaining("'max_id'")
			.withMessageContaining(record)
			.withMessageContaining("12abc");
		assertThat(server.redis.opsForHash().get(record, "max_id")).isEqualTo("12abc");

		server.redis.opsForHash().put(record, "max_id", "5");
		server.redis.opsForHash().put(record, "step", "0");
		assertThatExceptionOfType(SegmentStoreException.class).isThrownBy(() -> store.allocate(key, 3))
			.withMessageContaining("'step'")
			.withMessageContaining(record);
		assertThat(server.redis.opsForHash().get(record, "max_id")).isEqualTo("5");
	}

	@Test
	void aRecordThatIsNotAHashIsReportedWithItsRedisKey() {
		String key = redisKey();
		String record = server.prefix + "segment:key:" + key;
		server.redis.opsForValue().set(record, "42");

		assertThatExceptionOfType(SegmentStoreException.class).isThrownBy(() -> store.allocate(key))
			.withMessageContaining(record)
			.withMessageContaining("must be a hash");
		assertThatExceptionOfType(SegmentStoreException.class).isThrownBy(() -> store.updateStep(key, 3))
			.withMessageContaining(record);
		assertThat(server.redis.opsForValue().get(record)).isEqualTo("42");
	}

	@Test
	void aSetOfKeysThatIsNotASetStopsCreateKeyBeforeItWrites() {
		String prefix = server.prefix + "broken:";
		RedisSegmentStore broken = new RedisSegmentStore(server.factory, prefix);
		server.redis.opsForValue().set(prefix + "segment:keys", "x");
		String key = redisKey();

		assertThatExceptionOfType(SegmentStoreException.class).isThrownBy(() -> broken.createKey(key, 0, 1, ""))
			.withMessageContaining("Redis key '" + prefix + "segment:keys' must be a set");
		assertThat(server.redis.hasKey(prefix + "segment:key:" + key)).isFalse();
	}

	@Test
	void theDefaultPrefixIsIdStarter() {
		RedisSegmentStore defaults = new RedisSegmentStore(server.factory);
		String key = redisKey();
		try {
			defaults.createKey(key, 0, 1, "");
			assertThat(server.redis.hasKey("id-starter:segment:key:" + key)).isTrue();
			assertThat(server.redis.opsForSet().isMember("id-starter:segment:keys", key)).isTrue();
		}
		finally {
			server.redis.delete("id-starter:segment:key:" + key);
			server.redis.opsForSet().remove("id-starter:segment:keys", key);
		}
	}

	private static String redisKey() {
		return "key-" + UUID.randomUUID();
	}

}
