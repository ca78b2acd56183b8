package io.idstarter.segment;

import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Validate;
import org.junit.jupiter.api.Test;

/**
 * The operations Lincheck interleaves on one key's double buffer, the property checked after each execution, and the
 * test that runs the model checker; a subclass only chooses the thread chunk size.
 */
public abstract class LincheckSegmentOperations {

	private final LincheckSegmentScenario scenario;

	protected LincheckSegmentOperations(int threadChunkSize) {
		this.scenario = new LincheckSegmentScenario(threadChunkSize);
	}

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
	void noInterleavingHandsOutANumberTwice() {
		LincheckSegmentScenario.check(getClass());
	}

}
