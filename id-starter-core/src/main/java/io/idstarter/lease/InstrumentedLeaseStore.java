package io.idstarter.lease;

import java.util.List;
import java.util.function.Supplier;

import io.idstarter.IdWorkerListener;
import io.idstarter.time.TimeSource;

import org.jspecify.annotations.Nullable;

/**
 * The lease keeper's calls to its store, each timed on this node's monotonic clock and reported to the listener as a
 * store call of the keeper's namespace, whether it succeeded or failed.
 */
final class InstrumentedLeaseStore {

	private final ISequenceManager store;

	private final IdWorkerListener listener;

	private final TimeSource time;

	private final String namespace;

	InstrumentedLeaseStore(ISequenceManager store, IdWorkerListener listener, TimeSource time, String namespace) {
		this.store = store;
		this.listener = listener;
		this.time = time;
		this.namespace = namespace;
	}

	WorkerLease borrow(LeaseRequest request) {
		return call("borrow", () -> this.store.borrow(request));
	}

	WorkerLease renew(WorkerLease lease, long timestampCeiling) {
		return call("renew", () -> this.store.renew(lease, timestampCeiling));
	}

	void release(WorkerLease lease, long lastIssuedTimestamp) {
		call("release", () -> {
			this.store.release(lease, lastIssuedTimestamp);
			return lease;
		});
	}

	@Nullable String recordLayout(String layout) {
		return call("record-layout", () -> this.store.recordLayout(this.namespace, layout));
	}

	@Nullable String readLayout() {
		return call("read-layout", () -> this.store.readLayout(this.namespace));
	}

	boolean replaceLayout(String expected, String replacement) {
		return call("replace-layout", () -> this.store.replaceLayout(this.namespace, expected, replacement));
	}

	List<SlotMark> slotMarks() {
		return call("slot-marks", () -> this.store.slotMarks(this.namespace));
	}

	/**
	 * Returns the store's identity; not reported, since it is asked once at start and is not a lease call.
	 */
	String identity() {
		return this.store.identity();
	}

	private <T> T call(String operation, Supplier<T> storeCall) {
		long start = this.time.nanoTime();
		try {
			T result = storeCall.get();
			this.listener.storeCall(this.namespace, operation, this.time.nanoTime() - start, true);
			return result;
		}
		catch (RuntimeException ex) {
			this.listener.storeCall(this.namespace, operation, this.time.nanoTime() - start, false);
			throw ex;
		}
	}

}
