package io.idstarter.store.redis;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;

import io.idstarter.segment.SegmentAllocation;
import io.idstarter.segment.SegmentStoreException;
import io.idstarter.segment.UnknownKeyException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * {@link RedisSegmentStore} against the real Redis of {@code TestBackends.redis()}.
 */
class RedisSegmentStoreIntegrationTests {

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

	@Test
	void allocatesRangesUpFromTheFirstIdWithTheConfiguredOrTheGivenStep() {
		String key = newKey();
		assertThat(store.createKey(key, 1, 100, "orders")).isTrue();

		SegmentAllocation first = store.allocate(key);
		SegmentAllocation second = store.allocate(key, 5);
		SegmentAllocation third = store.allocate(key);

		assertThat(first).isEqualTo(new SegmentAllocation(key, 1, 101, 100));
		assertThat(second).isEqualTo(new SegmentAllocation(key, 101, 106, 100));
		assertThat(third).isEqualTo(new SegmentAllocation(key, 106, 206, 100));
	}

	@Test
	void keepsTheRecordAsAHashWithLeafsColumnsAndRedisTimeAsUpdateTime() {
		String key = newKey();
		store.createKey(key, 0, 10, "payments");
		long before = server.redisTimeMillis();
		store.allocate(key);
		long after = server.redisTimeMillis();

		Map<Object, Object> record = server.redis.opsForHash().entries(server.prefix + "segment:key:" + key);
		assertThat(record).containsEntry("max_id", "10").containsEntry("step", "10")
			.containsEntry("description", "payments").containsOnlyKeys("max_id", "step", "description", "update_time");
		assertThat(Long.parseLong((String) record.get("update_time"))).isBetween(before, after);
	}

	@Test
	void createKeyLeavesAnExistingKeyUnchanged() {
		String key = newKey();
		assertThat(store.createKey(key, 7, 10, "first")).isTrue();
		assertThat(store.createKey(key, 1000, 99, "second")).isFalse();

		assertThat(store.allocate(key)).isEqualTo(new SegmentAllocation(key, 7, 17, 10));
		assertThat(server.redis.opsForHash().get(server.prefix + "segment:key:" + key, "description"))
			.isEqualTo("first");
	}

	@Test
	void ofConcurrentCreatorsOfOneKeyExactlyOneWinsAndItsFirstIdIsKept() throws Exception {
		String key = newKey();
		int threads = 8;
		CountDownLatch start = new CountDownLatch(1);
		List<Callable<Boolean>> creators = new ArrayList<>();
		for (int i = 0; i < threads; i++) {
			long firstId = 1000L * i;
			creators.add(() -> {
				start.await();
				return store.createKey(key, firstId, 1, "creator " + firstId);
			});
		}
		List<Boolean> created = runAll(creators, start);

		assertThat(created).containsOnlyOnce(true);
		long winner = 1000L * created.indexOf(true);
		assertThat(store.allocate(key).start()).isEqualTo(winner);
	}

	@Test
	void listsTheKeysItCreated() {
		String first = newKey();
		String second = newKey();
		store.createKey(first, 0, 1, "");
		store.createKey(second, 0, 1, "");

		assertThat(store.keys()).contains(first, second);
		assertThat(new RedisSegmentStore(server.factory, server.prefix + "empty:").keys()).isEmpty();
	}

	@Test
	void anUnknownKeyIsReportedAndNotCreated() {
		String key = newKey();

		assertThatExceptionOfType(UnknownKeyException.class).isThrownBy(() -> store.allocate(key))
			.withMessageContaining(key)
			.satisfies((ex) -> assertThat(ex.getKey()).isEqualTo(key));
		assertThatExceptionOfType(UnknownKeyException.class).isThrownBy(() -> store.allocate(key, 10));
		assertThatExceptionOfType(UnknownKeyException.class).isThrownBy(() -> store.updateStep(key, 10));
		assertThat(server.redis.hasKey(server.prefix + "segment:key:" + key)).isFalse();
		assertThat(store.keys()).doesNotContain(key);
	}

	@Test
	void updateStepChangesTheSizeOfLaterRangesOnly() {
		String key = newKey();
		store.createKey(key, 0, 10, "");
		SegmentAllocation before = store.allocate(key);

		store.updateStep(key, 1000);

		assertThat(before).isEqualTo(new SegmentAllocation(key, 0, 10, 10));
		assertThat(store.allocate(key)).isEqualTo(new SegmentAllocation(key, 10, 1010, 1000));
	}

	@Test
	void rangesOfManyConcurrentAllocationsNeverOverlapAndCoverTheKeyContiguously() throws Exception {
		String key = newKey();
		store.createKey(key, 1, 10, "");
		int threads = 8;
		int perThread = 500;
		CountDownLatch start = new CountDownLatch(1);
		List<Callable<List<SegmentAllocation>>> allocators = new ArrayList<>();
		for (int t = 0; t < threads; t++) {
			allocators.add(() -> {
				start.await();
				List<SegmentAllocation> mine = new ArrayList<>(perThread);
				for (int i = 0; i < perThread; i++) {
					int step = ThreadLocalRandom.current().nextInt(0, 20);
					mine.add((step == 0) ? store.allocate(key) : store.allocate(key, step));
				}
				return mine;
			});
		}
		List<SegmentAllocation> ranges = new ArrayList<>();
		runAll(allocators, start).forEach(ranges::addAll);

		ranges.sort(Comparator.comparingLong(SegmentAllocation::start));
		assertThat(ranges).hasSize(threads * perThread);
		assertThat(ranges.get(0).start()).isEqualTo(1);
		for (int i = 1; i < ranges.size(); i++) {
			assertThat(ranges.get(i).start()).as("range %d starts where range %d ends", i, i - 1)
				.isEqualTo(ranges.get(i - 1).end());
		}
		long total = ranges.stream().mapToLong(SegmentAllocation::size).sum();
		assertThat(ranges.get(ranges.size() - 1).end()).isEqualTo(1 + total);
		assertThat(server.redis.opsForHash().get(server.prefix + "segment:key:" + key, "max_id"))
			.isEqualTo(Long.toString(1 + total));
	}

	@Test
	void allocatesExactlyUpToLongMaxValueAndRefusesToPassIt() {
		String key = newKey();
		store.createKey(key, Long.MAX_VALUE - 15, 10, "");

		assertThat(store.allocate(key)).isEqualTo(new SegmentAllocation(key, Long.MAX_VALUE - 15,
				Long.MAX_VALUE - 5, 10));
		assertThatExceptionOfType(SegmentStoreException.class).isThrownBy(() -> store.allocate(key))
			.withMessageContaining("key '" + key + "'")
			.withMessageContaining(Long.toString(Long.MAX_VALUE - 5))
			.withMessageContaining("Long.MAX_VALUE");
		assertThat(store.allocate(key, 5)).isEqualTo(new SegmentAllocation(key, Long.MAX_VALUE - 5,
				Long.MAX_VALUE, 10));
		assertThatExceptionOfType(SegmentStoreException.class).isThrownBy(() -> store.allocate(key, 1));
		assertThatExceptionOfType(SegmentStoreException.class).isThrownBy(() -> store.allocate(key, Integer.MAX_VALUE));
		assertThat(server.redis.opsForHash().get(server.prefix + "segment:key:" + key, "max_id"))
			.isEqualTo(Long.toString(Long.MAX_VALUE));
	}

	@Test
	void refusesOnlyTheStepThatWouldPassLongMaxValueWhenMaxIdIsBeyondTwoToThe53() {
		String key = newKey();
		long firstId = (1L << 53) + 1; // not representable as a double
		store.createKey(key, firstId, 3, "");

		assertThat(store.allocate(key)).isEqualTo(new SegmentAllocation(key, firstId, firstId + 3, 3));
		assertThat(store.allocate(key, Integer.MAX_VALUE).end()).isEqualTo(firstId + 3 + Integer.MAX_VALUE);
	}

	@Test
	void aCorruptRecordIsReportedWithItsRedisKeyAndLeftUnchanged() {
		String key = newKey();
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
		String key = newKey();
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
		String key = newKey();

		assertThatExceptionOfType(SegmentStoreException.class).isThrownBy(() -> broken.createKey(key, 0, 1, ""))
			.withMessageContaining("Redis key '" + prefix + "segment:keys' must be a set");
		assertThat(server.redis.hasKey(prefix + "segment:key:" + key)).isFalse();
	}

	@Test
	void theDefaultPrefixIsIdStarter() {
		RedisSegmentStore defaults = new RedisSegmentStore(server.factory);
		String key = newKey();
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

	private static String newKey() {
		return "key-" + UUID.randomUUID();
	}

	static <T> List<T> runAll(List<Callable<T>> tasks, CountDownLatch start) throws Exception {
		ExecutorService executor = Executors.newFixedThreadPool(tasks.size());
		try {
			List<Future<T>> futures = new ArrayList<>();
			tasks.forEach((task) -> futures.add(executor.submit(task)));
			start.countDown();
			List<T> results = new ArrayList<>();
			for (Future<T> future : futures) {
				results.add(future.get());
			}
			return Collections.unmodifiableList(results);
		}
		finally {
			executor.shutdownNow();
		}
	}

}
