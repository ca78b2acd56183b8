package io.idstarter.segment;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

import io.idstarter.IdWorkerListener;
import io.idstarter.time.TimeSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * A store call that hangs (packets dropped, a row lock never released) for some keys must not stall the others.
 */
class HangingStoreTests {

	private final InMemorySegmentStore memory = new InMemorySegmentStore();

	private final HangingStore store = new HangingStore(this.memory);

	private final List<SegmentIdGenerator> generators = new ArrayList<>();

	@AfterEach
	void release() {
		this.store.release.countDown();
		this.generators.forEach(SegmentIdGenerator::close);
	}

	private SegmentIdGenerator start(Duration keyRefreshInterval) {
		SegmentOptions options = SegmentOptions.builder()
			.maxWait(Duration.ofMillis(200))
			.keyRefreshInterval(keyRefreshInterval)
			.build();
		SegmentIdGenerator generator = new SegmentIdGenerator(this.store, options, TimeSource.system(),
				IdWorkerListener.NONE, null);
		this.generators.add(generator);
		generator.start();
		return generator;
	}

	@Test
	void keysWhoseStoreCallsHangDoNotStallTheFetchesOfOtherKeys() {
		int stuckKeys = SegmentExecutors.PREFETCH_THREADS + 2;
		for (int i = 0; i < stuckKeys; i++) {
			this.memory.createKey("stuck-" + i, 0, 10, "");
			this.store.hanging.add("stuck-" + i);
		}
		this.memory.createKey("free", 0, 10, "");
		SegmentIdGenerator generator = start(Duration.ofMinutes(1));
		for (int round = 0; round < 2; round++) {
			for (int i = 0; i < stuckKeys; i++) {
				String key = "stuck-" + i;
				assertThatExceptionOfType(SegmentsExhaustedException.class).isThrownBy(() -> generator.nextId(key));
			}
		}
		assertThat(generator.nextId("free")).isZero();
		assertThat(this.store.maxInFlightPerKey()).as("store calls in flight for one hanging key").isOne();
	}

	@Test
	void keyListReadThatHangsDoesNotStallTheRetriesOfAFailedFetch() throws Exception {
		this.memory.createKey("order", 0, 10, "");
		SegmentIdGenerator generator = start(Duration.ofMillis(50));
		this.memory.setAvailable(false);
		this.store.hangKeys = true;
		await().atMost(Duration.ofSeconds(5)).until(() -> this.store.keysCallsHanging.get() > 0);
		assertThatExceptionOfType(SegmentsExhaustedException.class).isThrownBy(() -> generator.nextId("order"));
		this.memory.setAvailable(true);
		await().atMost(Duration.ofSeconds(5)).ignoreExceptions()
			.untilAsserted(() -> assertThat(generator.nextId("order")).isZero());
	}

	/** Blocks allocations of the hanging keys, and optionally reads of the key list, until released. */
	static final class HangingStore implements SegmentStore {

		final InMemorySegmentStore delegate;

		final Set<String> hanging = ConcurrentHashMap.newKeySet();

		final CountDownLatch release = new CountDownLatch(1);

		volatile boolean hangKeys;

		final AtomicInteger keysCallsHanging = new AtomicInteger();

		private final Map<String, AtomicInteger> inFlight = new ConcurrentHashMap<>();

		private final AtomicInteger maxInFlight = new AtomicInteger();

		HangingStore(InMemorySegmentStore delegate) {
			this.delegate = delegate;
		}

		@Override
		public SegmentAllocation allocate(String key) {
			hangIfAsked(key);
			return this.delegate.allocate(key);
		}

		@Override
		public SegmentAllocation allocate(String key, int step) {
			hangIfAsked(key);
			return this.delegate.allocate(key, step);
		}

		private void hangIfAsked(String key) {
			if (!this.hanging.contains(key)) {
				return;
			}
			AtomicInteger calls = this.inFlight.computeIfAbsent(key, (name) -> new AtomicInteger());
			this.maxInFlight.accumulateAndGet(calls.incrementAndGet(), Math::max);
			try {
				this.release.await();
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			finally {
				calls.decrementAndGet();
			}
			throw new SegmentStoreException("released");
		}

		@Override
		public Set<String> keys() {
			if (this.hangKeys) {
				this.keysCallsHanging.incrementAndGet();
				try {
					this.release.await();
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
			}
			return this.delegate.keys();
		}

		int maxInFlightPerKey() {
			return this.maxInFlight.get();
		}

	}

}
