package io.idstarter.sample.fleet;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Reports a {@link FleetLeaseStoreException}: which store was refused for the fleet API, and what to use instead.
 */
class FleetLeaseStoreFailureAnalyzer extends AbstractFailureAnalyzer<FleetLeaseStoreException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, FleetLeaseStoreException cause) {
		return new FailureAnalysis(cause.getMessage() + ".",
				"Lease the fleet's worker IDs from a store whose leases end when their owner stops renewing them: "
						+ "the relational database (the default), Redis (profile 'redis') or MongoDB (profile 'mongo'). "
						+ "Fleet clients may use ZooKeeper themselves (@EnableIdWorker(mode = ZOOKEEPER)) instead of "
						+ "the server; or remove id-server.clients to run this server without the fleet API.",
				cause);
	}

}
