package io.idstarter.segment;

/**
 * The interleavings of {@link SegmentBufferLincheckTests} with thread chunks of 2: chunk claims race the switch and the
 * fetches as batches do, and a thread uses its own chunk before the shared cursor. Same property: every number handed
 * out was allocated, and handed out once.
 */
public class ThreadChunkLincheckTests extends LincheckSegmentOperations {

	public ThreadChunkLincheckTests() {
		super(/* threadChunkSize= */ 2);
	}

}
