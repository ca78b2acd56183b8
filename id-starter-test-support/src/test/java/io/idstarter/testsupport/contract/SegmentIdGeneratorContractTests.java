package io.idstarter.testsupport.contract;

import java.time.Duration;

import io.idstarter.IdWorker;
import io.idstarter.segment.DynamicStep;
import io.idstarter.segment.InMemorySegmentStore;
import io.idstarter.segment.SegmentIdGenerator;
import io.idstarter.segment.SegmentOptions;

/**
 * {@link SegmentIdGenerator} drawing from the shared cursor passes the generator contract, with ranges small enough
 * that the concurrent tests cross hundreds of switches and prefetches; each key counts on its own.
 */
class SegmentIdGeneratorContractTests extends AbstractIdWorkerContractTests {

	@Override
	protected IdWorker createIdWorker() {
		return generator(/* threadChunkSize= */ 0);
	}

	@Override
	protected boolean keysShareOneNumberSpace() {
		return false;
	}

	static SegmentIdGenerator generator(int threadChunkSize) {
		InMemorySegmentStore store = new InMemorySegmentStore();
		store.createKey("contract-a", 1, 500, "");
		store.createKey("contract-b", 1_000_000, 500, "");
		SegmentIdGenerator generator = new SegmentIdGenerator(store, SegmentOptions.builder()
			.defaultKey("contract-a")
			.threadChunkSize(threadChunkSize)
			.dynamicStep(new DynamicStep(Duration.ofMinutes(15), Duration.ofMinutes(30), 500))
			.build());
		generator.start();
		return generator;
	}

}
