package io.idstarter.autoconfigure;

import io.idstarter.lease.LeaseFileOfAnotherStoreException;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Explains a {@link LeaseFileOfAnotherStoreException} at start-up: this node's worker-ID cache file (or the slot marks
 * file beside it) was written by a deployment that leases from another store.
 */
class LeaseFileOfAnotherStoreFailureAnalyzer extends AbstractFailureAnalyzer<LeaseFileOfAnotherStoreException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, LeaseFileOfAnotherStoreException cause) {
		return new FailureAnalysis("The Snowflake generator did not start: " + cause.getMessage() + ". The file "
				+ "holds this node's worker-ID preference and the mark each worker slot must hold in its store; "
				+ "another store's marks would make healthy slots look lost.",
				"Set id-worker.lease.cache-file to a file of this deployment's own (each deployment, staging and "
						+ "production say, keeps its own data directory). If this deployment really moved to "
						+ cause.identity() + " (the same slots at a new address, or a new store), delete "
						+ cause.file() + " and the other of the two files (the worker-ID cache file and the "
						+ "id-worker-slot-marks file beside it), then start again.",
				cause);
	}

}
