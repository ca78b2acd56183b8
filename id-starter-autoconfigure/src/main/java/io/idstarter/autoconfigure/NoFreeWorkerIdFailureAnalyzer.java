package io.idstarter.autoconfigure;

import io.idstarter.lease.NoFreeWorkerIdException;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Explains a {@link NoFreeWorkerIdException} at start-up: every worker ID of the namespace is held.
 */
class NoFreeWorkerIdFailureAnalyzer extends AbstractFailureAnalyzer<NoFreeWorkerIdException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, NoFreeWorkerIdException cause) {
		return new FailureAnalysis("No Snowflake worker ID was free: " + cause.getMessage(),
				"Every worker ID of the lease namespace is held by a running instance, or by one that stopped without "
						+ "giving it back (it becomes free when its lease expires, after id-worker.lease.ttl). Give "
						+ "this application its own id-worker.lease.namespace if it shares one by mistake, run fewer "
						+ "instances, exclude fewer worker IDs (id-worker.lease.excluded-worker-ids), or raise "
						+ "id-worker.snowflake.worker-id-bits (taking the bits from id-worker.snowflake.sequence-bits "
						+ "or timestamp-bits; all instances must use the same layout).",
				cause);
	}

}
