package io.idstarter.segment;

import org.jetbrains.lincheck.datastructures.Operation;

/**
 * The operations Lincheck interleaves on one key's double buffer, and the property checked after each execution;
 * a subclass chooses the thread chunk size and runs the check. (Lincheck counts a {@code @Validate} method declared
 * here twice, once for each class, so each subclass declares its own.)
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

	/** Checks the property after an execution; each subclass annotates its own call of it with {@code @Validate}. */
	protected void validate() {
		this.scenario.validate();
	}

}
