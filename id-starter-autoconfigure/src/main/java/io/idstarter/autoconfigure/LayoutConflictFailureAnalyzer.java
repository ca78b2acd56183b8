package io.idstarter.autoconfigure;

import io.idstarter.lease.LayoutConflictException;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Explains a {@link LayoutConflictException} at start-up: the namespace records another Snowflake layout, or a planned
 * layout change was refused.
 */
class LayoutConflictFailureAnalyzer extends AbstractFailureAnalyzer<LayoutConflictException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, LayoutConflictException cause) {
		if (cause.isChangeRefused()) {
			return new FailureAnalysis("The planned Snowflake layout change (id-worker.snowflake.layout-change.from) "
					+ "was refused: " + cause.getMessage(),
					"Do what the description says and start again, or remove id-worker.snowflake.layout-change.from "
							+ "and configure the recorded layout to keep it. The namespace's record is unchanged: "
							+ "instances of the old layout can still start.",
					cause);
		}
		return new FailureAnalysis("Snowflake layout of this instance differs from the one recorded for lease namespace '"
				+ cause.getNamespace() + "': " + cause.getMessage(),
				"Set id-worker.snowflake.preset, or epoch, timestamp-bits, worker-id-bits and sequence-bits, to the "
						+ "recorded layout; or give this application a lease namespace of its own "
						+ "(id-worker.lease.namespace, default spring.application.name); or, to change the namespace's "
						+ "layout, stop every instance of the old layout and start the new ones with "
						+ "id-worker.snowflake.layout-change.from=" + cause.getRecordedLayout()
						+ " (docs/snowflake.md, \"Changing a layout\").",
				cause);
	}

}
