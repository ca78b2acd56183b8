package io.idstarter.lease;

import io.idstarter.time.TimeSource;

/**
 * The former name of {@link InMemoryLeaseStore}.
 *
 * @deprecated lease stores are named {@code *LeaseStore} so that they read apart from the sequences of
 * {@code io.idstarter.sequence}; use {@link InMemoryLeaseStore}, which takes the same arguments
 */
@Deprecated(since = "0.1.0", forRemoval = true)
public class InMemorySequenceManager extends InMemoryLeaseStore {

	public InMemorySequenceManager() {
		super();
	}

	public InMemorySequenceManager(TimeSource storeClock) {
		super(storeClock);
	}

}
