package io.idstarter.testsupport.contract;

import io.idstarter.segment.InMemorySegmentStore;
import io.idstarter.segment.SegmentStore;

/**
 * The reference implementation, {@link InMemorySegmentStore}, passes the segment contract.
 */
class InMemorySegmentStoreContractTests extends AbstractSegmentStoreContractTests {

	private final InMemorySegmentStore store = new InMemorySegmentStore();

	@Override
	protected SegmentStore createStore() {
		return this.store;
	}

}
