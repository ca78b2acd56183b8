package io.idstarter.segment;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import io.idstarter.time.TimeSource;

/**
 * A clock that moves only when told.
 */
final class ManualTime implements TimeSource {

	private final AtomicLong nanos = new AtomicLong(1_700_000_000_000L * 1_000_000L);

	void advance(Duration duration) {
		this.nanos.addAndGet(duration.toNanos());
	}

	@Override
	public long currentTimeMillis() {
		return this.nanos.get() / 1_000_000L;
	}

	@Override
	public long nanoTime() {
		return this.nanos.get();
	}

}
