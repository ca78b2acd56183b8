package io.idstarter.segment;

import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A {@link SegmentStore} that passes every call on to another and counts the allocations: the round-trip counter of
 * {@link StoreRoundTrips}.
 */
final class CountingSegmentStore implements SegmentStore {

	private final SegmentStore delegate;

	/** Allocations that returned a range so far; only increases. */
	private final AtomicLong allocations = new AtomicLong();

	CountingSegmentStore(SegmentStore delegate) {
		this.delegate = delegate;
	}

	@Override
	public SegmentAllocation allocate(String key) {
		return counted(this.delegate.allocate(key));
	}

	@Override
	public SegmentAllocation allocate(String key, int step) {
		return counted(this.delegate.allocate(key, step));
	}

	@Override
	public Set<String> keys() {
		return this.delegate.keys();
	}

	@Override
	public boolean supportsCallerThreadAllocation() {
		return this.delegate.supportsCallerThreadAllocation();
	}

	long allocations() {
		return this.allocations.get();
	}

	private SegmentAllocation counted(SegmentAllocation allocation) {
		this.allocations.incrementAndGet();
		return allocation;
	}

}
