package io.idstarter.autoconfigure;

import io.idstarter.lease.LayoutConflictException;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Explains a {@link LayoutConflictException} at start-up by what happened: the namespace records another Snowflake
 * layout, this instance's planned layout change was refused, a pending change could not be completed, this instance's
 * clock is behind the record's floor, or the record is missing while other instances hold worker IDs; each says what
 * the record is now.
 */
class LayoutConflictFailureAnalyzer extends AbstractFailureAnalyzer<LayoutConflictException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, LayoutConflictException cause) {
		return switch (cause.getReason()) {
			case LAYOUT_DIFFERS -> new FailureAnalysis("Snowflake layout of this instance differs from the one "
					+ "recorded for lease namespace '" + cause.getNamespace() + "': " + cause.getMessage(),
					"Set id-worker.snowflake.preset, or epoch, timestamp-bits, worker-id-bits and sequence-bits, to the "
							+ "recorded layout; or give this application a lease namespace of its own "
							+ "(id-worker.lease.namespace, default spring.application.name); or, to change the "
							+ "namespace's layout, stop every instance of the old layout and start the new ones with "
							+ "id-worker.snowflake.layout-change.from=" + cause.getRecordedLayout()
							+ " (docs/snowflake.md, \"Changing a layout\").",
					cause);
			case CHANGE_REFUSED -> new FailureAnalysis("The planned Snowflake layout change "
					+ "(id-worker.snowflake.layout-change.from) was refused: " + cause.getMessage(),
					"Do what the description says and start again, or remove id-worker.snowflake.layout-change.from "
							+ "and configure the recorded layout to keep it. The namespace's record is unchanged: "
							+ "instances of the old layout can still start.",
					cause);
			case CHANGE_PENDING -> new FailureAnalysis("A Snowflake layout change of lease namespace '"
					+ cause.getNamespace() + "', pending in its record, could not be completed: " + cause.getMessage(),
					"The namespace's record stays pending (" + cause.getRecordedLayout() + "): no instance of either "
							+ "layout can start until an instance of the new layout completes the change. Stop the "
							+ "instances of the old layout that still hold worker IDs, let their leases end, and "
							+ "start an instance of the new layout again.",
					cause);
			case CLOCK_BEHIND_FLOOR -> new FailureAnalysis("This instance's clock is behind the lease namespace '"
					+ cause.getNamespace() + "' record's floor: " + cause.getMessage(),
					"Its IDs would sort below IDs of the layout the record replaced. Check this instance's clock "
							+ "(NTP) against the other instances'; or let it wait longer at start "
							+ "(id-worker.lease.max-startup-wait). The record is unchanged.",
					cause);
			case RECORD_MISSING -> new FailureAnalysis("The Snowflake layout record of lease namespace '"
					+ cause.getNamespace() + "' is missing while other instances hold worker IDs: " + cause.getMessage(),
					"Start this instance again after the running instances' next renewal (every "
							+ "id-worker.lease.heartbeat), at which they record their layout again; or raise "
							+ "id-worker.lease.max-startup-wait above two of their heartbeats. Nothing was recorded.",
					cause);
		};
	}

}
