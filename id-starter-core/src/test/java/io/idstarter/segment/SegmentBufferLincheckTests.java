package io.idstarter.segment;

/**
 * Model-checked interleavings of one key's double buffer (Lincheck explores the thread switches of the real code):
 * single and batch claims race the segment switch, the prefetch claim, and the fetch run by a waiting caller or by the
 * pool, and close. After each execution: every number handed out was allocated by the store, and none was handed
 * out twice. (A batch is not atomic across a switch, so the IDs are not those of one counter in some order; uniqueness
 * is the property.)
 */
public class SegmentBufferLincheckTests extends LincheckSegmentOperations {

	public SegmentBufferLincheckTests() {
		super(/* threadChunkSize= */ 0);
	}

}
