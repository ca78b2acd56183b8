package io.idstarter.segment;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.idstarter.IdWorkerListener;
import io.idstarter.time.TimeSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A graceful close gives back what was not issued: the unused tail of the current range and the prefetched range,
 * only where nobody allocated after them, with the node's marks following.
 */
class SegmentGiveBackTests {

	private static final DynamicStep FIXED_STEP = new DynamicStep(Duration.ofMinutes(15), Duration.ofMinutes(30), 1);

	private final InMemorySegmentStore store = new InMemorySegmentStore();

	private final List<SegmentIdGenerator> generators = new ArrayList<>();

	@TempDir
	Path directory;

	@AfterEach
	void closeAll() {
		this.generators.forEach(SegmentIdGenerator::close);
	}

	private SegmentIdGenerator start(SegmentStore store, SegmentOptions.Builder options, SegmentMarks marks) {
		SegmentIdGenerator generator = new SegmentIdGenerator(store, options.dynamicStep(FIXED_STEP).build(),
				TimeSource.system(), IdWorkerListener.NONE, null, marks);
		this.generators.add(generator);
		generator.start();
		return generator;
	}

	private SegmentIdGenerator start(SegmentOptions.Builder options) {
		return start(this.store, options, SegmentMarks.inMemory());
	}

	/** Draws IDs until the prefetched range has arrived, so that the close finds two ranges. */
	private static void drawUntilPrefetched(SegmentIdGenerator generator, String key, int count) {
		for (int i = 0; i < count; i++) {
			generator.nextId(key);
		}
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
		while (generator.view(key).orElseThrow().next() == null && System.nanoTime() < deadline) {
			Thread.onSpinWait();
		}
		assertThat(generator.view(key).orElseThrow().next()).as("the prefetched range").isNotNull();
	}

	@Test
	void closeGivesBackTheUnusedTailAndThePrefetchedRangeSoTheNextStartLeavesNoGap() {
		this.store.createKey("order", 100, 10, "");
		SegmentIdGenerator first = start(SegmentOptions.builder());
		drawUntilPrefetched(first, "order", 3);
		assertThat(this.store.maxId("order")).hasValue(120);
		first.close();
		assertThat(this.store.maxId("order")).as("back to the first number not issued").hasValue(103);
		SegmentIdGenerator second = start(SegmentOptions.builder());
		assertThat(second.nextId("order")).isEqualTo(103);
	}

	@Test
	void withGiveBackOffTheClosedRangesStayGaps() {
		this.store.createKey("order", 100, 10, "");
		SegmentIdGenerator first = start(SegmentOptions.builder().giveBackOnClose(false));
		drawUntilPrefetched(first, "order", 3);
		first.close();
		assertThat(this.store.maxId("order")).hasValue(120);
	}

	@Test
	void aRangeSomeoneAllocatedAfterIsNotGivenBack() {
		this.store.createKey("order", 100, 10, "");
		SegmentIdGenerator first = start(SegmentOptions.builder());
		drawUntilPrefetched(first, "order", 3);
		assertThat(this.store.allocate("order")).as("another node")
			.isEqualTo(new SegmentAllocation("order", 120, 130, 10));
		first.close();
		assertThat(this.store.maxId("order")).hasValue(130);
	}

	@Test
	void aStartedPrefetchedRangeIsGivenBackButNotTheRangeBeforeIt() {
		this.store.createKey("order", 100, 10, "");
		SegmentIdGenerator first = start(SegmentOptions.builder().prefetchThreshold(0.5));
		drawUntilPrefetched(first, "order", 15);
		assertThat(this.store.maxId("order")).as("[110, 120) in use, [120, 130) prefetched").hasValue(130);
		first.close();
		assertThat(this.store.maxId("order")).hasValue(115);
	}

	@Test
	void theMarksFileFollowsTheGiveBackSoTheNextStartIsNotRefused() {
		Path file = this.directory.resolve("marks");
		this.store.createKey("order", 100, 10, "");
		SegmentIdGenerator first = start(this.store, SegmentOptions.builder(), SegmentMarks.file(file));
		drawUntilPrefetched(first, "order", 3);
		first.close();
		assertThat(SegmentMarks.file(file).highMark("order")).isEqualTo(103);
		SegmentIdGenerator second = start(this.store, SegmentOptions.builder(), SegmentMarks.file(file));
		assertThat(second.nextId("order")).as("served, not refused as a lost write").isEqualTo(103);
		assertThat(second.refusedKeys()).isEmpty();
	}

	@Test
	void aStoreThatDoesNotGiveBackLeavesTheGapAndTheMarks() {
		Path file = this.directory.resolve("marks");
		this.store.createKey("order", 100, 10, "");
		SegmentStore withoutGiveBack = new RecordingStore(this.store);
		SegmentIdGenerator first = start(withoutGiveBack, SegmentOptions.builder(), SegmentMarks.file(file));
		drawUntilPrefetched(first, "order", 3);
		first.close();
		assertThat(this.store.maxId("order")).hasValue(120);
		assertThat(SegmentMarks.file(file).highMark("order")).as("the mark of a range not given back stays")
			.isEqualTo(120);
	}

	@Test
	void aStoreThatFailsAGiveBackIsNotAskedForTheOtherKeysSoTheCloseStaysShort() {
		List<String> keys = List.of("a", "b", "c");
		keys.forEach((key) -> this.store.createKey(key, 0, 10, ""));
		AtomicInteger giveBackCalls = new AtomicInteger();
		SegmentStore down = new RecordingStore(this.store) {

			@Override
			public boolean giveBack(String key, long cursor, long end) {
				// A store that is down: each call would cost the driver's timeout.
				giveBackCalls.incrementAndGet();
				throw new SegmentStoreException("connection refused");
			}

		};
		SegmentIdGenerator generator = start(down, SegmentOptions.builder(), SegmentMarks.inMemory());
		keys.forEach((key) -> generator.nextId(key));
		generator.close();
		assertThat(giveBackCalls).as("give-back calls to a store that failed the first").hasValue(1);
	}

	@Test
	void noIdIssuedWhileClosingIsInAGivenBackTail() throws Exception {
		for (int round = 0; round < 20; round++) {
			String key = "race-" + round;
			this.store.createKey(key, 0, 50, "");
			SegmentIdGenerator generator = start(SegmentOptions.builder());
			generator.nextId(key);
			int threads = 4;
			ExecutorService callers = Executors.newFixedThreadPool(threads);
			CountDownLatch started = new CountDownLatch(threads);
			List<Future<List<Long>>> results = new ArrayList<>();
			for (int t = 0; t < threads; t++) {
				results.add(callers.submit(() -> {
					List<Long> ids = new ArrayList<>();
					started.countDown();
					try {
						while (true) {
							ids.add(generator.nextId(key));
						}
					}
					catch (RuntimeException closed) {
						return ids;
					}
				}));
			}
			started.await();
			generator.close();
			List<Long> issued = new ArrayList<>();
			for (Future<List<Long>> result : results) {
				issued.addAll(result.get(10, TimeUnit.SECONDS));
			}
			callers.shutdown();
			assertThat(issued).as("round %d", round).doesNotHaveDuplicates();
			// A number of a given-back tail that was issued would come back in the store's next range.
			SegmentAllocation next = this.store.allocate(key);
			assertThat(issued).as("round %d: every ID issued is below the store's next range", round)
				.allSatisfy((id) -> assertThat(id).isLessThan(next.start()));
		}
	}

}
