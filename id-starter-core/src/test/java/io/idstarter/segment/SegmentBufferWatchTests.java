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
		// [0, 100) is fetched for the first caller; 500 ms later its prefetch point, 9, queues the fetch of
		// [100, 200) for the poll
		draw(1);
		this.time.advance(Duration.ofMillis(500));
		draw(9);
		this.poll.runOne();
		assertThat(this.buffer.view().next()).as("fetched on the pool, with 500 ms of slack").isNotNull();
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
	void aPollThatGoesIdleStopsWatchingAndRequestsAClaimedPrefetchPoint() {
		draw(1);
		this.time.advance(Duration.ofMillis(500));
		draw(9);
		this.poll.runOne();
		assertThat(this.buffer.isWatched()).isTrue();
		draw(100);
		assertThat(this.buffer.view().next()).isNull();
		// polls that find nothing to hand over until the poll goes idle (one second of empty polls)
		while (this.poll.runOne()) {
			if (this.buffer.view().next() != null) {
				break;
			}
		}
		assertThat(this.buffer.view().next()).isNotNull();
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
		draw(1);
		this.time.advance(Duration.ofSeconds(10));
		draw(9);
		this.poll.runOne();
		assertThat(this.buffer.view().next()).as("fetched on the pool, with 10 s of slack").isNotNull();
		assertThat(this.buffer.isWatched()).isFalse();
		// 109 is claimed: the caller requests the fetch of [200, 300) itself, and the poll hands it over
		draw(100);
		assertThat(this.buffer.view().fetchInFlight()).isTrue();
		this.poll.runOne();
		assertThat(this.buffer.view().next().start()).isEqualTo(200);
	}

	private void draw(int count) {
		for (int i = 0; i < count; i++) {
			this.buffer.nextId();
		}
	}

}
