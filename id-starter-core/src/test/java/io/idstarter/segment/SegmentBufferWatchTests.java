package io.idstarter.segment;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

import io.idstarter.IdWorkerListener;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A buffer whose ranges outlast a fetch by far is watched by the dispatcher's poll: its callers claim the prefetch
 * point and leave the request to the poll. The poll runs only when the test runs it; the pool runs fetches at once on
 * the thread that hands them over.
 */
class SegmentBufferWatchTests {

	private final InMemorySegmentStore store = new InMemorySegmentStore();

	private final PrefetchDispatcherLincheckTests.ManualScheduler poll = new PrefetchDispatcherLincheckTests.ManualScheduler();

	private final ScheduledExecutorService retries = Executors.newSingleThreadScheduledExecutor();

	private final ManualTime time = new ManualTime();

	private final SegmentBuffer buffer;

	SegmentBufferWatchTests() {
		this.store.createKey("order", 0, 100, "");
		SegmentOptions options = SegmentOptions.builder()
			.dynamicStep(new DynamicStep(DynamicStep.DEFAULT_EXPAND_BELOW, DynamicStep.DEFAULT_SHRINK_ABOVE, 1))
			.maxWait(Duration.ofSeconds(5))
			.build();
		SegmentBufferContext context = new SegmentBufferContext(this.store, options, this.time, IdWorkerListener.NONE,
				Runnable::run, new PrefetchDispatcher(this.poll), this.retries, SegmentMarks.inMemory());
		this.buffer = new SegmentBuffer("order", context, (removed) -> {
		});
	}

	@AfterEach
	void stop() {
		this.retries.shutdownNow();
	}

	@Test
	void aCallerOfAWatchedBufferLeavesTheRequestToThePoll() {
		fetchTheSecondRangeOnThePoolAfter(Duration.ofMillis(500));
		assertThat(this.buffer.isWatched()).isTrue();
		// 109, the prefetch point of [100, 200), is claimed: the caller requests nothing
		draw(100);
		assertThat(this.buffer.view().current().start()).isEqualTo(100);
		assertThat(this.buffer.view().fetchInFlight()).isFalse();
		assertThat(this.buffer.view().next()).isNull();
		// the poll finds it claimed and requests the fetch of [200, 300)
		this.poll.runOne();
		assertThat(this.buffer.view().next()).isNotNull();
		assertThat(this.buffer.view().next().start()).isEqualTo(200);
	}

	@Test
	void aPollThatGoesIdleStopsWatchingAndCallersRequestAgain() {
		fetchTheSecondRangeOnThePoolAfter(Duration.ofMillis(500));
		assertThat(this.buffer.isWatched()).isTrue();
		// polls that find nothing to hand over until the poll goes idle (one second of empty polls); a prefetch point
		// claimed while it goes idle is requested by its last look (PrefetchDispatcherWatchLincheckTests)
		this.poll.runUntilIdle();
		assertThat(this.buffer.isWatched()).isFalse();
		// 109 is claimed: with no poll watching, the caller requests the fetch of [200, 300) itself
		draw(100);
		assertThat(this.buffer.view().fetchInFlight()).isTrue();
		this.poll.runOne();
		assertThat(this.buffer.view().next().start()).isEqualTo(200);
	}

	@Test
	void aBufferWhoseRangesLastLittleLongerThanAFetchIsNotWatched() {
		draw(10);
		// no time passes: ranges last nothing on this clock, so callers request their fetches themselves
		this.poll.runOne();
		assertThat(this.buffer.view().next()).isNotNull();
		assertThat(this.buffer.isWatched()).isFalse();
	}

	@Test
	void aBufferWhoseRangesOutlastAFetchBySecondsIsNotWatched() {
		fetchTheSecondRangeOnThePoolAfter(Duration.ofSeconds(10));
		assertThat(this.buffer.isWatched()).isFalse();
		// 109 is claimed: the caller requests the fetch of [200, 300) itself, and the poll hands it over
		draw(100);
		assertThat(this.buffer.view().fetchInFlight()).isTrue();
		this.poll.runOne();
		assertThat(this.buffer.view().next().start()).isEqualTo(200);
	}

	/**
	 * [0, 100) is fetched for the first caller; after {@code range} its prefetch point, 9, queues the fetch of
	 * [100, 200), which the poll hands to the pool: ranges outlast that fetch by {@code range}.
	 */
	private void fetchTheSecondRangeOnThePoolAfter(Duration range) {
		draw(1);
		this.time.advance(range);
		draw(9);
		this.poll.runOne();
		assertThat(this.buffer.view().next()).as("fetched on the pool").isNotNull();
	}

	private void draw(int count) {
		for (int i = 0; i < count; i++) {
			this.buffer.nextId();
		}
	}

}
