package io.idstarter.store.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import io.idstarter.lease.ISequenceManager;
import io.idstarter.lease.LeaseRequest;
import io.idstarter.lease.NoFreeWorkerIdException;
import io.idstarter.lease.SlotMark;
import io.idstarter.lease.WorkerLease;
import io.idstarter.segment.SegmentAllocation;
import io.idstarter.segment.SegmentIdGenerator;
import io.idstarter.segment.SegmentOptions;
import io.idstarter.segment.SegmentStore;
import io.idstarter.segment.SegmentStoreException;
import io.idstarter.testsupport.contract.AbstractSegmentStoreContractTests;
import io.idstarter.testsupport.contract.AbstractLeaseStoreContractTests;
import io.idstarter.testsupport.TestBackends;
import io.lettuce.core.cluster.SlotHash;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

import org.springframework.data.redis.connection.RedisClusterConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The Redis stores on a real Redis Cluster ({@code TestBackends.redisCluster()}: three masters): the lease and segment
 * contracts, and several "instances" each with its own connection factory; a key prefix with a hash tag keeps every
 * key of the stores in one slot.
 */
class RedisClusterIntegrationTests {

	private static final String PREFIX = "{idstarter-test-" + UUID.randomUUID().toString().substring(0, 8) + "}:";

	private static final List<LettuceConnectionFactory> factories = new ArrayList<>();

	private static StringRedisTemplate redis;

	private static RedisLeaseStore sharedManager;

	private static RedisSegmentStore sharedStore;

	@BeforeAll
	static void connect() {
		LettuceConnectionFactory factory = newFactory();
		redis = new StringRedisTemplate(factory);
		sharedManager = new RedisLeaseStore(factory, PREFIX);
		sharedStore = new RedisSegmentStore(factory, PREFIX);
	}

	@AfterAll
	static void cleanUp() {
		Set<String> keys = redis.keys(PREFIX + "*");
		if (keys != null && !keys.isEmpty()) {
			redis.delete(keys);
		}
		factories.forEach(LettuceConnectionFactory::destroy);
	}

	private static LettuceConnectionFactory newFactory() {
		RedisClusterConfiguration cluster = new RedisClusterConfiguration(TestBackends.redisCluster().nodes());
		LettuceConnectionFactory factory = new LettuceConnectionFactory(cluster,
				LettuceClientConfiguration.builder().commandTimeout(Duration.ofSeconds(5)).build());
		factory.afterPropertiesSet();
		factories.add(factory);
		return factory;
	}

	/**
	 * The lease contract on the cluster.
	 */
	@Nested
	class LeaseContract extends AbstractLeaseStoreContractTests {

		@Override
		protected ISequenceManager createManager() {
			return sharedManager;
		}

		@Override
		protected List<String> identityParts() {
			return List.of("Redis lease store at a Redis cluster, key prefix " + PREFIX);
		}

	}

	/**
	 * The segment contract on the cluster.
	 */
	@Nested
	class SegmentContract extends AbstractSegmentStoreContractTests {

		@Override
		protected SegmentStore createStore() {
			return sharedStore;
		}

	}

	@Test
	void twoInstancesAllocatingTheSameKeysGetRangesThatNeverOverlap() throws Exception {
		RedisSegmentStore first = new RedisSegmentStore(newFactory(), PREFIX);
		RedisSegmentStore second = new RedisSegmentStore(newFactory(), PREFIX);
		List<String> keys = new ArrayList<>();
		for (int i = 0; i < 5; i++) {
			String key = "order-" + UUID.randomUUID();
			assertThat(first.createKey(key, 1, 10, "cluster test")).isTrue();
			keys.add(key);
		}
		assertThat(second.keys()).containsAll(keys);

		ExecutorService threads = Executors.newFixedThreadPool(4);
		List<Future<List<SegmentAllocation>>> results = new ArrayList<>();
		try {
			for (int t = 0; t < 4; t++) {
				RedisSegmentStore store = (t % 2 == 0) ? first : second;
				results.add(threads.submit((Callable<List<SegmentAllocation>>) () -> {
					List<SegmentAllocation> ranges = new ArrayList<>();
					for (int i = 0; i < 250; i++) {
						ranges.add(store.allocate(keys.get(i % keys.size()), 1 + i % 7));
					}
					return ranges;
				}));
			}
			List<SegmentAllocation> all = new ArrayList<>();
			for (Future<List<SegmentAllocation>> result : results) {
				all.addAll(result.get(60, TimeUnit.SECONDS));
			}
			// per key, the ranges sorted by start tile [1, max_id) without a gap or an overlap
			for (String key : keys) {
				List<SegmentAllocation> ranges = all.stream()
					.filter((range) -> range.key().equals(key))
					.sorted(Comparator.comparingLong(SegmentAllocation::start))
					.toList();
				assertThat(ranges).hasSize(200);
				long next = 1;
				for (SegmentAllocation range : ranges) {
					assertThat(range.start()).as("range of key %s", key).isEqualTo(next);
					next = range.end();
				}
			}
		}
		finally {
			threads.shutdownNow();
		}
	}

	@Test
	void segmentIdsFromTwoGeneratorsOnTheClusterAreUnique() throws Exception {
		String key = "user-" + UUID.randomUUID();
		new RedisSegmentStore(newFactory(), PREFIX).createKey(key, 0, 1000, "cluster test");
		Set<Long> seen = new HashSet<>();
		try (SegmentIdGenerator one = new SegmentIdGenerator(new RedisSegmentStore(newFactory(), PREFIX),
				SegmentOptions.builder().build());
				SegmentIdGenerator two = new SegmentIdGenerator(new RedisSegmentStore(newFactory(), PREFIX),
						SegmentOptions.builder().build())) {
			one.start();
			two.start();
			for (int i = 0; i < 100_000; i++) {
				assertThat(seen.add(one.nextId(key))).isTrue();
				assertThat(seen.add(two.nextId(key))).isTrue();
			}
		}
		assertThat(seen).hasSize(200_000);
	}

	@Test
	void layoutRecordsNeedNoHashTagSinceEachLayoutCallUsesOneKey() {
		String prefix = "idstarter-test-" + UUID.randomUUID().toString().substring(0, 8) + ":";
		RedisLeaseStore untagged = new RedisLeaseStore(newFactory(), prefix);
		String layout = "epoch=2010-11-04T01:42:54.657Z;timestamp-bits=41;worker-id-bits=10;sequence-bits=12";
		String replacement = layout + ";preset=twitter";
		List<String> keys = new ArrayList<>();
		Set<Integer> hashSlots = new HashSet<>();
		try {
			for (int i = 0; i < 12; i++) {
				String namespace = "app-" + i;
				keys.add(untagged.layoutKey(namespace));
				keys.add(untagged.namespaceKey(namespace));
				hashSlots.add(SlotHash.getSlot(untagged.layoutKey(namespace)));
				assertThat(untagged.recordLayout(namespace, layout)).isEqualTo(layout);
				assertThat(untagged.replaceLayout(namespace, layout, replacement)).isTrue();
				assertThat(untagged.recordLayout(namespace, layout)).isEqualTo(replacement);
				WorkerLease lease = untagged.borrow(request(namespace, "host-a:1", System.currentTimeMillis()));
				assertThat(untagged.slotMarks(namespace)).extracting(SlotMark::workerId)
					.containsExactly(lease.workerId());
			}
			assertThat(hashSlots).as("keys spread over the cluster's hash slots").hasSizeGreaterThan(1);
		}
		finally {
			keys.forEach(redis::delete);
		}
	}

	@Test
	void workerIdsLeasedByTwoInstancesAreEachHeldOnce() {
		RedisLeaseStore first = new RedisLeaseStore(newFactory(), PREFIX);
		RedisLeaseStore second = new RedisLeaseStore(newFactory(), PREFIX);
		String namespace = "app-" + UUID.randomUUID();
		long ceiling = System.currentTimeMillis() + 60_000;
		Set<Integer> held = new HashSet<>();
		List<WorkerLease> secondsLeases = new ArrayList<>();
		for (int i = 0; i < 4; i++) {
			held.add(first.borrow(request(namespace, "host-a:1", ceiling)).workerId());
			WorkerLease lease = second.borrow(request(namespace, "host-b:1", ceiling));
			held.add(lease.workerId());
			secondsLeases.add(lease);
		}
		assertThat(held).containsExactlyInAnyOrder(0, 1, 2, 3, 4, 5, 6, 7);
		assertThatExceptionOfType(NoFreeWorkerIdException.class)
			.isThrownBy(() -> first.borrow(request(namespace, "host-a:1", ceiling)));

		WorkerLease released = secondsLeases.get(0);
		second.release(released, ceiling);
		WorkerLease again = first.borrow(request(namespace, "host-a:1", ceiling));
		assertThat(again.workerId()).isEqualTo(released.workerId());
		// the new owner starts above everything the previous owner may have issued
		assertThat(again.timestampFloor()).isGreaterThanOrEqualTo(ceiling);
	}

	@Test
	void aPrefixWithoutAHashTagFailsOnTheClusterSayingHowToFixIt() {
		String prefix = "idstarter-test-" + UUID.randomUUID().toString().substring(0, 8) + ":";
		RedisSegmentStore store = new RedisSegmentStore(newFactory(), prefix);
		try {
			assertThatExceptionOfType(SegmentStoreException.class)
				.isThrownBy(() -> store.createKey("order", 0, 10, "no hash tag"))
				.withMessageContaining("hash tag");
		}
		finally {
			Set<String> keys = redis.keys(prefix + "*");
			if (keys != null && !keys.isEmpty()) {
				keys.forEach(redis::delete);
			}
		}
	}

	private static LeaseRequest request(String namespace, String instance, long ceiling) {
		return new LeaseRequest(namespace, 7, Duration.ofSeconds(30), -1, instance, ceiling);
	}

}
