package io.idstarter.segment;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class PrefetchDispatcherTests {

	private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor((task) -> {
		Thread thread = new Thread(task, "poll");
		thread.setDaemon(true);
		return thread;
	});

	@AfterEach
	void stop() {
		this.scheduler.shutdownNow();
	}

	@Test
	void handOverRunsOnThePollNotOnTheOfferingThread() throws InterruptedException {
		PrefetchDispatcher dispatcher = new PrefetchDispatcher(this.scheduler);
		for (int i = 0; i < 3; i++) {
			AtomicReference<Thread> ranOn = new AtomicReference<>();
			CountDownLatch ran = new CountDownLatch(1);
			dispatcher.offer(() -> {
				ranOn.set(Thread.currentThread());
				ran.countDown();
			});
			assertThat(ran.await(5, TimeUnit.SECONDS)).as("hand-over %d ran", i).isTrue();
			assertThat(ranOn.get().getName()).isEqualTo("poll");
		}
	}

	@Test
	void anIdlePollIsWokenByTheNextOffer() throws InterruptedException {
		long idleAfter = TimeUnit.MILLISECONDS.toNanos(5);
		PrefetchDispatcher dispatcher = new PrefetchDispatcher(this.scheduler, idleAfter);
		CountDownLatch first = new CountDownLatch(1);
		dispatcher.offer(first::countDown);
		assertThat(first.await(5, TimeUnit.SECONDS)).isTrue();
		// long enough for the poll to find nothing for 5 ms and stop
		Thread.sleep(100);
		long offered = System.nanoTime();
		CountDownLatch second = new CountDownLatch(1);
		dispatcher.offer(second::countDown);
		assertThat(second.await(5, TimeUnit.SECONDS)).isTrue();
		assertThat(Duration.ofNanos(System.nanoTime() - offered)).isLessThan(Duration.ofSeconds(1));
	}

	@Test
	void atMostMaxWatchedBuffersAreWatched() {
		PrefetchDispatcherLincheckTests.ManualScheduler manual = new PrefetchDispatcherLincheckTests.ManualScheduler();
		PrefetchDispatcher dispatcher = new PrefetchDispatcher(manual);
		dispatcher.offer(() -> {
		});
		List<Buffer> buffers = new ArrayList<>();
		for (int i = 0; i < PrefetchDispatcher.MAX_WATCHED + 10; i++) {
			Buffer buffer = new Buffer();
			buffers.add(buffer);
			dispatcher.watch(buffer);
		}
		assertThat(buffers.stream().filter((buffer) -> buffer.watched)).hasSize(PrefetchDispatcher.MAX_WATCHED);
		// one that stops being watched makes room for another
		Buffer first = buffers.get(0);
		Buffer last = buffers.get(buffers.size() - 1);
		dispatcher.unwatch(first);
		dispatcher.watch(last);
		assertThat(first.watched).isFalse();
		assertThat(last.watched).isTrue();
		manual.shutdownNow();
	}

	@Test
	void drainRunsWhatIsQueuedOnTheCallingThread() {
		ScheduledExecutorService stopped = Executors.newSingleThreadScheduledExecutor();
		stopped.shutdown();
		PrefetchDispatcher dispatcher = new PrefetchDispatcher(stopped);
		AtomicReference<Thread> ranOn = new AtomicReference<>();
		dispatcher.offer(() -> ranOn.set(Thread.currentThread()));
		assertThat(ranOn.get()).as("nothing runs before a poll").isNull();
		assertThat(dispatcher.drain()).isTrue();
		assertThat(ranOn.get()).isSameAs(Thread.currentThread());
		assertThat(dispatcher.drain()).isFalse();
	}

	private static final class Buffer implements PrefetchDispatcher.Watched {

		private volatile boolean watched;

		@Override
		public void watched(boolean watched) {
			this.watched = watched;
		}

		@Override
		public boolean requestIfClaimed() {
			return false;
		}

		@Override
		public boolean isActive() {
			return true;
		}

	}

}
