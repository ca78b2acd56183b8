package io.idstarter.segment;

import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Validate;
import org.junit.jupiter.api.Test;

/**
 * The interleavings of {@link SegmentBufferLincheckTests} with thread chunks of 2: chunk claims race the switch and the
 * fetches as batches do, and a thread uses its own chunk before the shared cursor. Same property: every number handed
 * out was allocated, and handed out once.
 */
public class ThreadChunkLincheckTests {

	private final LincheckSegmentScenario scenario = new LincheckSegmentScenario(/* threadChunkSize= */ 2);

	@Operation
	public void nextId() {
		this.scenario.nextId();
	}

	@Operation
	public void nextIds() {
		this.scenario.nextIds();
	}

	@Operation
	public void pool() {
		this.scenario.pool();
	}

	@Operation
	public void close() {
		this.scenario.close();
	}

	@Validate
	public void everyNumberAllocatedAndHandedOutOnce() {
		this.scenario.validate();
	}

	@Test
	void chunkClaimsSwitchesAndFetchesNeverHandOutANumberTwice() {
		LincheckSegmentScenario.check(ThreadChunkLincheckTests.class);
	}

}
