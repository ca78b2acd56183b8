package io.idstarter.segment;

import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

import org.jspecify.annotations.Nullable;

/**
 * A {@link SegmentStore} that passes every call on to another and counts the allocations and the keys listed: the
 * round-trip counter of {@link StoreRoundTrips} and the row counter of {@link ManyKeys}.
 */
final class CountingSegmentStore implements SegmentStore {

	private final SegmentStore delegate;

	/** Allocations that returned a range so far; only increases. */
	private final AtomicLong allocations = new AtomicLong();

	/** Keys the store returned from {@code keys()} so far: the rows a key-list read cost; only increases. */
	private final AtomicLong keysRead = new AtomicLong();

	/** Calls of {@code keysMarker()} so far; only increases. */
	private final AtomicLong markers = new AtomicLong();

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
		Set<String> keys = this.delegate.keys();
		this.keysRead.addAndGet(keys.size());
		return keys;
	}

	@Override
	public boolean containsKey(String key) {
		return this.delegate.containsKey(key);
	}

	@Override
	public @Nullable String keysMarker() {
		this.markers.incrementAndGet();
		return this.delegate.keysMarker();
	}

	@Override
	public boolean supportsCallerThreadAllocation() {
		return this.delegate.supportsCallerThreadAllocation();
	}

	long allocations() {
		return this.allocations.get();
	}

	long keysRead() {
		return this.keysRead.get();
	}

	long markers() {
		return this.markers.get();
	}

	private SegmentAllocation counted(SegmentAllocation allocation) {
		this.allocations.incrementAndGet();
		return allocation;
	}

}
