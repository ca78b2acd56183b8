package io.idstarter.segment;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;

import io.idstarter.time.TimeSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

/**
 * The opt-in thread chunk mode: each platform thread takes a chunk of numbers from the shared cursor.
 */
class ThreadChunkTests {

	private static final DynamicStep FIXED_STEP = new DynamicStep(Duration.ofMinutes(15), Duration.ofMinutes(30), 1);

	private final InMemorySegmentStore memory = new InMemorySegmentStore();

	private final RecordingStore store = new RecordingStore(this.memory);

	private final RecordingListener listener = new RecordingListener();

	private final List<SegmentIdGenerator> generators = new ArrayList<>();

	private final List<ExecutorService> executors = new ArrayList<>();

	@AfterEach
	void close() {
		this.generators.forEach(SegmentIdGenerator::close);
		this.executors.forEach(ExecutorService::shutdownNow);
	}

	private SegmentIdGenerator start(SegmentOptions.Builder options) {
		SegmentIdGenerator generator = new SegmentIdGenerator(this.store, options.build(), TimeSource.system(),
				this.listener, null);
		this.generators.add(generator);
		generator.start();
		return generator;
	}

	private ExecutorService thread() {
		ExecutorService executor = Executors.newSingleThreadExecutor();
		this.executors.add(executor);
		return executor;
	}

	private static <T> T on(ExecutorService thread, Callable<T> task) throws Exception {
		return thread.submit(task).get(10, TimeUnit.SECONDS);
	}

	@Test
	void chunkSizeIsValidated() {
		assertThat(SegmentOptions.defaults().threadChunkSize()).isZero();
		assertThat(SegmentOptions.builder().threadChunkSize(256).build().threadChunkSize()).isEqualTo(256);
		assertThatIllegalArgumentException().isThrownBy(() -> SegmentOptions.builder().threadChunkSize(-1))
			.withMessage("threadChunkSize must be 0 (off) or in [1, 65536]: -1");
		assertThatIllegalArgumentException().isThrownBy(() -> SegmentOptions.builder().threadChunkSize(65_537))
			.withMessage("threadChunkSize must be 0 (off) or in [1, 65536]: 65537");
	}

	@Test
	void eachThreadServesFromItsOwnChunk() throws Exception {
		this.memory.createKey("order", 0, 1000, "");
		SegmentIdGenerator generator = start(SegmentOptions.builder().dynamicStep(FIXED_STEP).threadChunkSize(64));
		ExecutorService a = thread();
		ExecutorService b = thread();
		assertThat(on(a, () -> generator.nextId("order"))).isZero();
		assertThat(on(b, () -> generator.nextId("order"))).isEqualTo(64);
		assertThat(on(a, () -> generator.nextId("order"))).isOne();
		assertThat(on(b, () -> generator.nextId("order"))).isEqualTo(65);
		// numbers reserved by chunks count as handed out
		assertThat(generator.view("order").orElseThrow().issuedCount()).isEqualTo(128);
	}

	@Test
	void chunkIsCutAtTheEndOfItsRange() throws Exception {
		this.memory.createKey("order", 0, 100, "");
		SegmentIdGenerator generator = start(SegmentOptions.builder().dynamicStep(FIXED_STEP).threadChunkSize(64));
		ExecutorService a = thread();
		ExecutorService b = thread();
		// a takes [0, 64); b takes what is left of the range, [64, 100), not [64, 128)
		assertThat(on(a, () -> generator.nextId("order"))).isZero();
		long[] fromB = on(b, () -> draw(generator, 37));
		assertThat(fromB).containsExactly(LongStream.concat(LongStream.range(64, 100), LongStream.of(100)).toArray());
		// b now holds [100, 164) of the next range; a's next chunk comes after it
		long[] fromA = on(a, () -> draw(generator, 64));
		assertThat(fromA).containsExactly(LongStream.concat(LongStream.range(1, 64), LongStream.of(164)).toArray());
	}

	@Test
	void nextIdsUsesUpTheThreadsChunkFirstSoTheThreadsIdsKeepIncreasing() {
		this.memory.createKey("order", 0, 1000, "");
		SegmentIdGenerator generator = start(SegmentOptions.builder().dynamicStep(FIXED_STEP).threadChunkSize(64));
		assertThat(generator.nextId("order")).isZero();
		assertThat(generator.nextIds("order", 10)).containsExactly(LongStream.rangeClosed(1, 10).toArray());
		assertThat(generator.nextId("order")).isEqualTo(11);
		// 52 numbers left in the chunk [0, 64), then a run from the shared cursor at 64
		assertThat(generator.nextIds("order", 100)).containsExactly(LongStream.range(12, 112).toArray());
		assertThat(generator.nextId("order")).isEqualTo(112);
	}

	@Test
	void chunkClaimsPrefetchTheNextRangeSoNoOneWaitsForTheStore() {
		this.memory.createKey("order", 0, 1000, "");
		this.memory.setLatency(Duration.ofMillis(100));
		SegmentIdGenerator generator = start(SegmentOptions.builder().dynamicStep(FIXED_STEP).threadChunkSize(64));
		// the second chunk [64, 128) covers the 100th number, where 10% of the range is used
		draw(generator, 100);
		awaitNext(generator);
		draw(generator, 1000);
		awaitNext(generator);
		draw(generator, 1000);
		awaitNext(generator);
		assertThat(this.listener.waits).as("only the first call waits, for the first range").hasSize(1);
		// three ranges used, the fourth fetched ahead, nothing fetched twice
		assertThat(this.memory.allocateCalls()).isEqualTo(4);
	}

	private static void awaitNext(SegmentIdGenerator generator) {
		await().atMost(Duration.ofSeconds(5)).until(() -> generator.view("order").orElseThrow().next() != null);
	}

	@Test
	void manyThreadsGetUniqueIdsThatIncreasePerThread() throws Exception {
		this.memory.createKey("order", 0, 1000, "");
		SegmentIdGenerator generator = start(SegmentOptions.builder().threadChunkSize(64));
		int threads = 8;
		int perThread = 50_000;
		long[][] drawn = new long[threads][];
		ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
		CountDownLatch go = new CountDownLatch(1);
		List<Thread> started = new ArrayList<>();
		for (int t = 0; t < threads; t++) {
			int index = t;
			Thread thread = new Thread(() -> {
				try {
					go.await();
					drawn[index] = (index % 2 == 0) ? draw(generator, perThread) : drawInBatches(generator, perThread);
				}
				catch (Throwable ex) {
					failures.add(ex);
				}
			});
			thread.start();
			started.add(thread);
		}
		go.countDown();
		for (Thread thread : started) {
			thread.join(30_000);
		}
		assertThat(failures).isEmpty();
		for (long[] ids : drawn) {
			for (int i = 1; i < ids.length; i++) {
				assertThat(ids[i]).isGreaterThan(ids[i - 1]);
			}
		}
		long[] all = Arrays.stream(drawn).flatMapToLong(Arrays::stream).sorted().toArray();
		assertThat(all).hasSize(threads * perThread);
		for (int i = 1; i < all.length; i++) {
			if (all[i] == all[i - 1]) {
				assertThat(all[i]).as("ID handed out twice").isNotEqualTo(all[i - 1]);
			}
		}
		// every ID lies in a range the store allocated: no chunk reached past its range
		List<SegmentAllocation> ranges = this.store.calls().stream().map(RecordingStore.Call::allocation).toList();
		for (long id : all) {
			if (ranges.stream().noneMatch((range) -> range.start() <= id && id < range.end())) {
				assertThat(id).as("ID outside every allocated range").isNegative();
			}
		}
		assertThat(this.listener.failedWaits()).isZero();
	}

	private SegmentBuffer buffer(int chunkSize) {
		ExecutorService prefetch = thread();
		ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
		this.executors.add(scheduler);
		SegmentBufferContext context = new SegmentBufferContext(this.store,
				SegmentOptions.builder().threadChunkSize(chunkSize).build(), TimeSource.system(), this.listener, prefetch,
				new PrefetchDispatcher(scheduler), scheduler, SegmentMarks.inMemory());
		return new SegmentBuffer("order", context, (removed) -> {
		});
	}

	private static Thread drawOnce(SegmentBuffer buffer, CountDownLatch release) {
		CountDownLatch drawn = new CountDownLatch(1);
		Thread thread = new Thread(() -> {
			buffer.nextId();
			drawn.countDown();
			try {
				release.await();
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		});
		thread.start();
		try {
			assertThat(drawn.await(10, TimeUnit.SECONDS)).isTrue();
		}
		catch (InterruptedException ex) {
			throw new IllegalStateException(ex);
		}
		return thread;
	}

	@Test
	void slotsOfThreadsThatEndedAreFreedForNewThreads() throws Exception {
		this.memory.createKey("order", 0, 100_000, "");
		SegmentBuffer buffer = buffer(64);
		CountDownLatch release = new CountDownLatch(1);
		List<Thread> threads = new ArrayList<>();
		for (int i = 0; i < 10; i++) {
			threads.add(drawOnce(buffer, release));
		}
		assertThat(buffer.chunkSlotsInUse()).isEqualTo(10);
		buffer.releaseChunksOfEndedThreads();
		assertThat(buffer.chunkSlotsInUse()).as("live threads keep their slots").isEqualTo(10);
		release.countDown();
		for (Thread thread : threads) {
			thread.join(10_000);
		}
		buffer.releaseChunksOfEndedThreads();
		assertThat(buffer.chunkSlotsInUse()).isZero();
		buffer.retire(/* keyRemoved= */ false);
	}

	@Test
	void threadWhoseSlotsAreTakenByLiveThreadsUsesTheSharedCursor() throws Exception {
		this.memory.createKey("order", 0, 100_000, "");
		SegmentBuffer buffer = buffer(64);
		CountDownLatch release = new CountDownLatch(1);
		// two live threads with consecutive IDs hold slots s and s + 1
		Thread first = null;
		Thread second = null;
		while (second == null) {
			Thread candidate = drawOnce(buffer, release);
			if (first != null && ((first.getId() + 1) & (ThreadChunks.CHUNK_SLOTS - 1)) == (candidate.getId()
					& (ThreadChunks.CHUNK_SLOTS - 1))) {
				second = candidate;
			}
			else {
				first = candidate;
			}
		}
		int held = buffer.chunkSlotsInUse();
		long issued = buffer.view().issuedCount();
		// a thread whose ID maps to slot s finds s and s + 1 taken
		Thread late = null;
		while (late == null) {
			Thread candidate = new Thread(() -> {
				for (int i = 0; i < 3; i++) {
					buffer.nextId();
				}
			});
			if ((candidate.getId() & (ThreadChunks.CHUNK_SLOTS - 1)) == (first.getId()
					& (ThreadChunks.CHUNK_SLOTS - 1))) {
				late = candidate;
			}
		}
		late.start();
		late.join(10_000);
		// three single numbers from the shared cursor, not a chunk of 64
		assertThat(buffer.view().issuedCount()).isEqualTo(issued + 3);
		assertThat(buffer.chunkSlotsInUse()).isEqualTo(held);
		release.countDown();
		buffer.retire(/* keyRemoved= */ false);
	}

	@Test
	@EnabledForJreRange(min = JRE.JAVA_21, disabledReason = "virtual threads need JDK 21")
	void virtualThreadsUseTheSharedCursorAndWasteNothing() throws Exception {
		this.memory.createKey("order", 0, 100_000, "");
		SegmentIdGenerator generator = start(SegmentOptions.builder().threadChunkSize(1024));
		ExecutorService virtual = (ExecutorService) Executors.class.getMethod("newVirtualThreadPerTaskExecutor")
			.invoke(null);
		this.executors.add(virtual);
		List<Future<Long>> ids = new ArrayList<>();
		for (int i = 0; i < 1000; i++) {
			ids.add(virtual.submit(() -> generator.nextId("order")));
		}
		long[] all = new long[ids.size()];
		for (int i = 0; i < all.length; i++) {
			all[i] = ids.get(i).get(10, TimeUnit.SECONDS);
		}
		Arrays.sort(all);
		// with a chunk per virtual thread these would be 0, 1024, 2048, ...
		assertThat(all).containsExactly(LongStream.range(0, 1000).toArray());
		assertThat(VirtualThreads.isVirtual(Thread.currentThread())).isFalse();
	}

	private static long[] draw(SegmentIdGenerator generator, int count) {
		long[] ids = new long[count];
		for (int i = 0; i < count; i++) {
			ids[i] = generator.nextId("order");
		}
		return ids;
	}

	private static long[] drawInBatches(SegmentIdGenerator generator, int count) {
		long[] ids = new long[count];
		int filled = 0;
		while (filled < count) {
			int batch = Math.min(count - filled, ((filled % 3) == 0) ? 1 : 50);
			long[] run = (batch == 1) ? new long[] { generator.nextId("order") } : generator.nextIds("order", batch);
			System.arraycopy(run, 0, ids, filled, run.length);
			filled += run.length;
		}
		return ids;
	}

}
