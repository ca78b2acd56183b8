package io.idstarter.segment;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;

import org.jspecify.annotations.Nullable;

/**
 * Wraps an {@link InMemorySegmentStore} and records every successful allocation and the step asked for; it keeps
 * {@link SegmentStore#giveBack}'s default (no give-back), which tests of a store without one rely on.
 */
class RecordingStore implements SegmentStore {

	/** What was asked (0 for the configured step) and what came back. */
	record Call(String key, int requestedStep, SegmentAllocation allocation) {
	}

	final InMemorySegmentStore delegate;

	private final List<Call> calls = new CopyOnWriteArrayList<>();

	RecordingStore(InMemorySegmentStore delegate) {
		this.delegate = delegate;
	}

	@Override
	public SegmentAllocation allocate(String key) {
		SegmentAllocation allocation = this.delegate.allocate(key);
		this.calls.add(new Call(key, 0, allocation));
		return allocation;
	}

	@Override
	public SegmentAllocation allocate(String key, int step) {
		SegmentAllocation allocation = this.delegate.allocate(key, step);
		this.calls.add(new Call(key, step, allocation));
		return allocation;
	}

	@Override
	public Set<String> keys() {
		return this.delegate.keys();
	}

	@Override
	public boolean containsKey(String key) {
		return this.delegate.containsKey(key);
	}

	@Override
	public @Nullable String keysMarker() {
		return this.delegate.keysMarker();
	}

	@Override
	public boolean supportsCallerThreadAllocation() {
		return this.delegate.supportsCallerThreadAllocation();
	}

	List<Call> calls() {
		return new ArrayList<>(this.calls);
	}

	List<Integer> requestedSteps() {
		return calls().stream().map(Call::requestedStep).toList();
	}

}
