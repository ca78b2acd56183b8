package io.idstarter.store;

import io.idstarter.segment.InMemorySegmentStore;
import io.idstarter.segment.SegmentStore;

/**
 * Periodic numbers on the {@link InMemorySegmentStore}, which every node of a test shares as the real stores' nodes
 * share their server: the reference the real stores' tests are held to.
 */
class PeriodicNumbersInMemoryTests extends AbstractPeriodicNumbersTests {

	private final InMemorySegmentStore store = new InMemorySegmentStore();

	@Override
	protected SegmentStore newStore() {
		return this.store;
	}

}
