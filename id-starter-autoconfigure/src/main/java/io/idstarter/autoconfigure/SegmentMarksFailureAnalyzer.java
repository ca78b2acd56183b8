package io.idstarter.autoconfigure;

import io.idstarter.segment.SegmentMarksException;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Explains a {@link SegmentMarksException} at start-up: this node's segment marks file is unreadable or corrupt, or
 * holds the marks of another store.
 */
class SegmentMarksFailureAnalyzer extends AbstractFailureAnalyzer<SegmentMarksException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, SegmentMarksException cause) {
		if (cause.reason() == SegmentMarksException.Reason.OTHER_STORE) {
			return new FailureAnalysis("The segment generator did not start: " + cause.getMessage() + ".",
					"Set id-worker.segment.marks-file to a file of this deployment's own (each store's nodes keep "
							+ "their own marks), or, if the same store only has a new address, remove the '@store:' "
							+ "line from " + cause.file() + " after checking every key's max_id against the file.",
					cause);
		}
		return new FailureAnalysis("The segment generator did not start: " + cause.getMessage() + ". The file holds "
				+ "the end of the highest segment this node was given per key; without it the node cannot refuse a "
				+ "segment store that lost writes.",
				"Repair " + cause.file() + " (one key=mark line per key, e.g. order=120000) or restore it from a "
						+ "backup, or point id-worker.segment.marks-file at another file. Delete it only after checking "
						+ "that every key's max_id in the store is above every ID this node issued.",
				cause);
	}

}
