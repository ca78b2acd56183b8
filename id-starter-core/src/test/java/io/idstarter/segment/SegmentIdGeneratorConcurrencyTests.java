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
 * Many threads drawing across many range switches, from a slow store and from an instant one.
 */
class SegmentIdGeneratorConcurrencyTests {

	private static final int THREADS = 8;

	@Test
	void eightThreadsOnA200MillisecondStoreGetEveryNumberOfEveryRangeExactlyOnce() throws Exception {
		int step = 20_000;
		int ranges = 30;
		InMemorySegmentStore memory = new InMemorySegmentStore();
		memory.createKey("order", 0, step, "");
		memory.setLatency(Duration.ofMillis(200));
		RecordingStore store = new RecordingStore(memory);
		RecordingListener listener = new RecordingListener();
		long start = System.nanoTime();
		long[][] drawn = drawConcurrently(store, fixedStep(step), listener, step * ranges / THREADS);
		long elapsed = System.nanoTime() - start;

		assertThat(listener.failedWaits()).isZero();
		assertEveryNumberOfTheFirstRangesOnce(drawn, store, ranges);
		// the run is paced by the store: at least one 200 ms call per range
		assertThat(elapsed).isGreaterThan(Duration.ofMillis(200L * ranges).toNanos());
	}

	@Test
	void eightThreadsOnAnInstantStoreWithTinyRangesGetEveryNumberExactlyOnce() throws Exception {
		// Ranges of 50 run out in well under a microsecond: waiting callers and pool threads race to run each fetch
		// (a waiting caller runs a queued fetch itself), and a fetch run twice would leave an allocated range unused.
		int step = 50;
		int ranges = 40_000;
		InMemorySegmentStore memory = new InMemorySegmentStore();
		memory.createKey("order", 0, step, "");
		RecordingStore store = new RecordingStore(memory);
		RecordingListener listener = new RecordingListener();
		long[][] drawn = drawConcurrently(store, fixedStep(step), listener, step * ranges / THREADS);

		assertThat(listener.failedWaits()).isZero();
		assertEveryNumberOfTheFirstRangesOnce(drawn, store, ranges);
	}

	private static SegmentOptions fixedStep(int step) {
		return SegmentOptions.builder()
			.dynamicStep(new DynamicStep(Duration.ofMinutes(15), Duration.ofMinutes(30), step))
			.build();
	}

	/** Starts a generator and has {@link #THREADS} threads draw {@code perThread} IDs each, started together. */
	private static long[][] drawConcurrently(SegmentStore store, SegmentOptions options, RecordingListener listener,
			int perThread) throws InterruptedException {
		long[][] drawn = new long[THREADS][perThread];
		ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
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
			go.countDown();
			for (Thread thread : threads) {
				thread.join(60_000);
			}
			assertThat(failures).isEmpty();
			assertThat(generator.view("order").orElseThrow().issuedCount()).isEqualTo((long) THREADS * perThread);
		}
		return drawn;
	}

	/**
	 * Asserts that each thread's IDs increase and that all IDs together are exactly the numbers of the first
	 * {@code ranges} ranges the store allocated: none twice, none skipped.
	 */
	private static void assertEveryNumberOfTheFirstRangesOnce(long[][] drawn, RecordingStore store, int ranges) {
		for (long[] ids : drawn) {
			for (int i = 1; i < ids.length; i++) {
				assertThat(ids[i]).isGreaterThan(ids[i - 1]);
			}
		}
		// one store call per range used, plus at most the one fetched ahead while the last range was used
		List<RecordingStore.Call> calls = store.calls();
		assertThat(calls).hasSizeBetween(ranges, ranges + 1);
		long[] all = Arrays.stream(drawn).flatMapToLong(Arrays::stream).sorted().toArray();
		long[] expected = calls.stream()
			.map(RecordingStore.Call::allocation)
			.sorted(Comparator.comparingLong(SegmentAllocation::start))
			.limit(ranges)
			.flatMapToLong((range) -> LongStream.range(range.start(), range.end()))
			.toArray();
		assertThat(all.length).isEqualTo(expected.length);
		int mismatch = Arrays.mismatch(all, expected);
		assertThat(mismatch).as("first position where the sorted IDs differ from the allocated numbers: %s",
				(mismatch < 0) ? "" : all[mismatch] + " instead of " + expected[mismatch])
			.isEqualTo(-1);
	}

}
