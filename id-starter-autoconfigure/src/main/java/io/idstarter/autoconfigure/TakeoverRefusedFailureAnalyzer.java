package io.idstarter.autoconfigure;

import io.idstarter.snowflake.TakeoverRefusedException;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Explains a {@link TakeoverRefusedException} at start-up: new IDs would sort below IDs an old generator left.
 */
class TakeoverRefusedFailureAnalyzer extends AbstractFailureAnalyzer<TakeoverRefusedException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, TakeoverRefusedException cause) {
		return new FailureAnalysis("Snowflake IDs of this instance would sort below IDs already in "
				+ cause.getColumn() + " (id-worker.snowflake.takeover.columns): " + cause.getMessage(),
				"Set id-worker.snowflake.preset to the old generator's layout (twitter for MyBatis-Plus and Hutool "
						+ "defaults, shardingsphere with preset-zone, leaf), or set id-worker.snowflake.epoch no later "
						+ "than " + cause.getLatestEpoch() + "; if the old fleet's clock ran ahead, raise "
						+ "id-worker.lease.max-startup-wait instead. Never lower the epoch of a fleet that already "
						+ "issued IDs under it.",
				cause);
	}

}
