package io.idstarter.testsupport.contract;

import io.idstarter.IdWorker;
import io.idstarter.segment.SegmentIdGenerator;

/**
 * {@link SegmentIdGenerator} handing each thread chunks of its own passes the generator contract too: a thread's
 * chunks follow each other upwards, so its IDs still increase.
 */
class ThreadChunkSegmentIdGeneratorContractTests extends AbstractIdWorkerContractTests {

	@Override
	protected IdWorker createIdWorker() {
		return SegmentIdGeneratorContractTests.generator(/* threadChunkSize= */ 16);
	}

	@Override
	protected boolean keysShareOneNumberSpace() {
		return false;
	}

}
