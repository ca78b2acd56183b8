package io.idstarter.segment;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.stream.LongStream;

import io.idstarter.time.TimeSource;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Many threads drawing across many range switches from a slow store.
 */
class SegmentIdGeneratorConcurrencyTests {

	private static final int THREADS = 8;

	private static final int STEP = 20_000;

	private static final int RANGES = 30;

	private static final int PER_THREAD = STEP * RANGES / THREADS;

	@Test
	void eightThreadsOnA200MillisecondStoreGetEveryNumberOfEveryRangeExactlyOnce() throws Exception {
		InMemorySegmentStore memory = new InMemorySegmentStore();
		memory.createKey("order", 0, STEP, "");
		memory.setLatency(Duration.ofMillis(200));
		RecordingStore store = new RecordingStore(memory);
		RecordingListener listener = new RecordingListener();
		SegmentOptions options = SegmentOptions.builder()
			.dynamicStep(new DynamicStep(Duration.ofMinutes(15), Duration.ofMinutes(30), STEP))
			.build();
		long[][] drawn = new long[THREADS][PER_THREAD];
		ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
		long elapsed;
		long issued;
		try (SegmentIdGenerator generator = new SegmentIdGenerator(store, options, TimeSource.system(), listener,
				null)) {
			generator.start();
			CountDownLatch go = new CountDownLatch(1);
			List<Thread> threads = new ArrayList<>();
			for (int t = 0; t < THREADS; t++) {
				long[] ids = drawn[t];
				Thread thread = new Thread(() -> {
					try {
						go.await();
						for (int i = 0; i < ids.length; i++) {
							ids[i] = generator.nextId("order");
						}
					}
					catch (Throwable ex) {
						failures.add(ex);
					}
				});
				thread.start();
				threads.add(thread);
			}
			long start = System.nanoTime();
			go.countDown();
			for (Thread thread : threads) {
				thread.join(60_000);
			}
			elapsed = System.nanoTime() - start;
			issued = generator.view("order").orElseThrow().issuedCount();
		}

		assertThat(failures).isEmpty();
		assertThat(issued).isEqualTo((long) STEP * RANGES);
		assertThat(listener.failedWaits()).isZero();
		// each thread's IDs increase (strict order per node)
		for (long[] ids : drawn) {
			for (int i = 1; i < ids.length; i++) {
				assertThat(ids[i]).isGreaterThan(ids[i - 1]);
			}
		}
		// one store call per range used, plus at most the one fetched ahead while the last range was used
		// (counted when made: the last prefetch may still be in the store's sleep)
		assertThat(memory.allocateCalls()).isBetween((long) RANGES, RANGES + 1L);
		List<RecordingStore.Call> calls = store.calls();
		assertThat(calls).hasSizeGreaterThanOrEqualTo(RANGES);
		// the IDs are exactly the numbers of the first RANGES ranges: none twice, none skipped
		long[] all = Arrays.stream(drawn).flatMapToLong(Arrays::stream).sorted().toArray();
		List<SegmentAllocation> ranges = calls.stream()
			.map(RecordingStore.Call::allocation)
			.sorted(Comparator.comparingLong(SegmentAllocation::start))
			.toList();
		long[] expected = ranges.subList(0, RANGES)
			.stream()
			.flatMapToLong((range) -> LongStream.range(range.start(), range.end()))
			.toArray();
		assertThat(all.length).isEqualTo(expected.length);
		int mismatch = Arrays.mismatch(all, expected);
		assertThat(mismatch).as("first position where the sorted IDs differ from the allocated numbers: %s",
				(mismatch < 0) ? "" : all[mismatch] + " instead of " + expected[mismatch])
			.isEqualTo(-1);
		// the run is paced by the store: at least one 200 ms call per range
		assertThat(elapsed).isGreaterThan(Duration.ofMillis(200L * RANGES).toNanos());
	}

}
