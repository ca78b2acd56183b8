package io.idstarter.sequence;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

import io.idstarter.IdWorkerListener;

/**
 * Counts what the segment generator of one application does for its inserts: store calls that allocate a range (and
 * how long they take), and callers' waits for a range ({@code segmentWait}: both ranges used up). Cumulative; a run
 * takes the difference of two {@link #snapshot}s.
 */
final class InsertCounters implements IdWorkerListener {

	private final LongAdder storeCalls = new LongAdder();

	private final LongAdder storeNanos = new LongAdder();

	private final AtomicLong storeMaxNanos = new AtomicLong();

	private final LongAdder waits = new LongAdder();

	private final LongAdder waitNanos = new LongAdder();

	private final AtomicLong waitMaxNanos = new AtomicLong();

	@Override
	public void storeCall(String key, String operation, long nanos, boolean success) {
		if ("allocate".equals(operation)) {
			this.storeCalls.increment();
			this.storeNanos.add(nanos);
			this.storeMaxNanos.accumulateAndGet(nanos, Math::max);
		}
	}

	@Override
	public void segmentWait(String key, long nanos, boolean served) {
		this.waits.increment();
		this.waitNanos.add(nanos);
		this.waitMaxNanos.accumulateAndGet(nanos, Math::max);
	}

	/** Returns the counts so far; the maxima are those since the previous snapshot, which resets them. */
	Snapshot snapshot() {
		return new Snapshot(this.storeCalls.sum(), this.storeNanos.sum(), this.storeMaxNanos.getAndSet(0),
				this.waits.sum(), this.waitNanos.sum(), this.waitMaxNanos.getAndSet(0));
	}

	/**
	 * Counts at one moment.
	 * @param storeCalls allocations so far
	 * @param storeNanos their time so far
	 * @param storeMaxNanos the longest since the previous snapshot
	 * @param waits callers' waits so far
	 * @param waitNanos their time so far
	 * @param waitMaxNanos the longest since the previous snapshot
	 */
	record Snapshot(long storeCalls, long storeNanos, long storeMaxNanos, long waits, long waitNanos,
			long waitMaxNanos) {

		static final Snapshot NONE = new Snapshot(0, 0, 0, 0, 0, 0);

		/** Returns what happened between an earlier snapshot and this one (the maxima are this one's). */
		Snapshot since(Snapshot earlier) {
			return new Snapshot(this.storeCalls - earlier.storeCalls, this.storeNanos - earlier.storeNanos,
					this.storeMaxNanos, this.waits - earlier.waits, this.waitNanos - earlier.waitNanos,
					this.waitMaxNanos);
		}

	}

}
