package io.idstarter.segment;

import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * A {@link SegmentStore} that passes every call on to another, optionally after a fixed delay, and counts the
 * allocations: a slow store for the latency benchmark and a round-trip counter for {@link StoreRoundTrips}.
 */
final class DelegatingSegmentStore implements SegmentStore {

	private final SegmentStore delegate;

	private final long delayNanos;

	/** Allocations passed on so far; only increases. */
	private final AtomicLong allocations = new AtomicLong();

	/** Numbers allocated so far, the sum of the sizes of the ranges; only increases. */
	private final AtomicLong allocated = new AtomicLong();

	DelegatingSegmentStore(SegmentStore delegate, long delay, TimeUnit unit) {
		this.delegate = delegate;
		this.delayNanos = unit.toNanos(delay);
	}

	static DelegatingSegmentStore counting(SegmentStore delegate) {
		return new DelegatingSegmentStore(delegate, 0, TimeUnit.NANOSECONDS);
	}

	@Override
	public SegmentAllocation allocate(String key) {
		pause();
		return counted(this.delegate.allocate(key));
	}

	@Override
	public SegmentAllocation allocate(String key, int step) {
		pause();
		return counted(this.delegate.allocate(key, step));
	}

	@Override
	public Set<String> keys() {
		return this.delegate.keys();
	}

	long allocations() {
		return this.allocations.get();
	}

	long allocated() {
		return this.allocated.get();
	}

	private SegmentAllocation counted(SegmentAllocation allocation) {
		this.allocations.incrementAndGet();
		this.allocated.addAndGet(allocation.size());
		return allocation;
	}

	/** Sleeps for the whole delay, like a caller blocked on a network round trip. */
	private void pause() {
		long deadline = System.nanoTime() + this.delayNanos;
		for (long left = this.delayNanos; left > 0; left = deadline - System.nanoTime()) {
			LockSupport.parkNanos(left);
		}
	}

}
