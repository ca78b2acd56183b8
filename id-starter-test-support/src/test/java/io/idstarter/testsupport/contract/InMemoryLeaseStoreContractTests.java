package io.idstarter.testsupport.contract;

import java.time.Duration;
import java.time.Instant;

import io.idstarter.lease.ISequenceManager;
import io.idstarter.lease.InMemoryLeaseStore;
import io.idstarter.time.ManualTimeSource;

/**
 * The reference implementation, {@link InMemoryLeaseStore}, passes the lease contract; its store clock is a
 * {@link ManualTimeSource} the tests move on instead of sleeping.
 */
class InMemoryLeaseStoreContractTests extends AbstractLeaseStoreContractTests {

	private final ManualTimeSource storeClock = new ManualTimeSource(Instant.parse("2026-01-01T00:00:00Z"));

	private final InMemoryLeaseStore manager = new InMemoryLeaseStore(this.storeClock);

	@Override
	protected ISequenceManager createManager() {
		return this.manager;
	}

	@Override
	protected void advanceStoreClock(Duration duration) {
		this.storeClock.advance(duration);
	}

}
