package io.idstarter.segment;

import org.jetbrains.lincheck.datastructures.Validate;
import org.junit.jupiter.api.Test;

/**
 * The interleavings of {@link SegmentBufferLincheckTests} with thread chunks of 2: chunk claims race the switch and the
 * fetches as batches do, and a thread uses its own chunk before the shared cursor. Same property: every number handed
 * out was allocated, and handed out once.
 */
public class ThreadChunkLincheckTests extends LincheckSegmentOperations {

	public ThreadChunkLincheckTests() {
		super(/* threadChunkSize= */ 2);
	}

	@Validate
	public void everyNumberAllocatedAndHandedOutOnce() {
		validate();
	}

	@Test
	void chunkClaimsSwitchesAndFetchesNeverHandOutANumberTwice() {
		LincheckSegmentScenario.check(ThreadChunkLincheckTests.class);
	}

}
