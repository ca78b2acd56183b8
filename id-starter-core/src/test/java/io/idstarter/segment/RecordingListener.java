package io.idstarter.segment;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.idstarter.IdWorkerListener;

/**
 * Records store calls, waits and refusals.
 */
final class RecordingListener implements IdWorkerListener {

	record StoreCall(String key, String operation, long nanos, boolean success) {
	}

	record Wait(String key, long nanos, boolean served) {
	}

	record Refusal(String key, long knownMark, long storeStart) {
	}

	final List<StoreCall> storeCalls = new CopyOnWriteArrayList<>();

	final List<Wait> waits = new CopyOnWriteArrayList<>();

	final List<Refusal> refusals = new CopyOnWriteArrayList<>();

	@Override
	public void storeCall(String key, String operation, long nanos, boolean success) {
		this.storeCalls.add(new StoreCall(key, operation, nanos, success));
	}

	@Override
	public void segmentWait(String key, long nanos, boolean served) {
		this.waits.add(new Wait(key, nanos, served));
	}

	@Override
	public void segmentRefused(String key, long knownMark, long storeStart) {
		this.refusals.add(new Refusal(key, knownMark, storeStart));
	}

	long failedWaits() {
		return this.waits.stream().filter((wait) -> !wait.served()).count();
	}

}
