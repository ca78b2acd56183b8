package io.idstarter.autoconfigure;

import io.idstarter.segment.SegmentIdGenerator;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.SmartLifecycle;

/**
 * Stops the segment generator when the context stops, in the phase in which the Snowflake worker ID is given back
 * ({@link LeasedSnowflakeWorker#PHASE}): after the web server, before store clients that are lifecycle beans (Spring
 * Data Redis' connection factories, phase 0) stop, so that no prefetch runs against a stopped client. Destruction
 * still closes the generator when the context never started.
 */
final class SegmentGeneratorLifecycle implements SmartLifecycle {

	private final ObjectProvider<SegmentIdGenerator> generator;

	/** Whether the generator is to be stopped; cleared once by {@link #stop()}. */
	private volatile boolean running = true;

	SegmentGeneratorLifecycle(ObjectProvider<SegmentIdGenerator> generator) {
		this.generator = generator;
	}

	@Override
	public void start() {
		// The generator starts when its bean is initialised.
	}

	@Override
	public void stop() {
		this.running = false;
		SegmentIdGenerator generator = this.generator.getIfUnique();
		if (generator != null) {
			generator.close();
		}
	}

	@Override
	public boolean isRunning() {
		return this.running;
	}

	@Override
	public int getPhase() {
		return LeasedSnowflakeWorker.PHASE;
	}

}
