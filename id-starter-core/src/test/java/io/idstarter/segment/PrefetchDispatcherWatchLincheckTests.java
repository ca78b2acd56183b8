package io.idstarter.segment;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Validate;
import org.junit.jupiter.api.Test;

/**
 * {@link PrefetchDispatcher}'s watching under model checking: a caller claims a watched buffer's prefetch point and
 * leaves the request to the poll while the buffer is watched, racing a {@code watch} and a poll that goes idle (after
 * finding nothing once). After every execution, running what is still scheduled must have requested the fetch: a
 * buffer left watched with no poll running, or a poll that stopped watching without a last look, would leave the
 * claimed prefetch point unrequested, and the callers waiting for the store when the range runs out.
 */
public class PrefetchDispatcherWatchLincheckTests {

	private final PrefetchDispatcherLincheckTests.ManualScheduler scheduler = new PrefetchDispatcherLincheckTests.ManualScheduler();

	private final PrefetchDispatcher dispatcher = new PrefetchDispatcher(this.scheduler, /* idleAfterNanos= */ 1);

	private final Buffer buffer = new Buffer();

	public PrefetchDispatcherWatchLincheckTests() {
		// A fetch of another key started the poll; this buffer's fetch completed on the pool meanwhile.
		this.dispatcher.offer(() -> {
		});
	}

	@Operation
	public void watch() {
		this.dispatcher.watch(this.buffer);
	}

	@Operation
	public void claimPrefetchPoint() {
		this.buffer.claimed = true;
		if (!this.buffer.watched) {
			this.buffer.request();
		}
	}

	@Operation
	public void poll() {
		this.scheduler.runOne();
	}

	@Validate
	public void aClaimedPrefetchPointIsRequested() {
		this.scheduler.runUntilIdle();
		if (this.buffer.claimed && this.buffer.requests.get() == 0) {
			throw new IllegalStateException("the prefetch point was claimed while the buffer was "
					+ (this.buffer.watched ? "still watched" : "no longer watched") + ", and nobody requested the fetch");
		}
	}

	@Test
	void noClaimedPrefetchPointIsLeftUnrequested() {
		new ModelCheckingOptions().threads(3)
			.actorsPerThread(2)
			.actorsBefore(0)
			.actorsAfter(0)
			.iterations(20)
			.invocationsPerIteration(300)
			.check(PrefetchDispatcherWatchLincheckTests.class);
	}

	/** A buffer with one segment: its prefetch point is claimed or not, its fetch requested once at most. */
	static final class Buffer implements PrefetchDispatcher.Watched {

		volatile boolean watched;

		volatile boolean claimed;

		private final AtomicBoolean fetching = new AtomicBoolean();

		final AtomicInteger requests = new AtomicInteger();

		void request() {
			if (this.fetching.compareAndSet(false, true)) {
				this.requests.incrementAndGet();
			}
		}

		@Override
		public void watched(boolean watched) {
			this.watched = watched;
		}

		@Override
		public boolean requestIfClaimed() {
			if (this.claimed && !this.fetching.get()) {
				request();
				return true;
			}
			return false;
		}

		@Override
		public boolean isActive() {
			return true;
		}

	}

}
