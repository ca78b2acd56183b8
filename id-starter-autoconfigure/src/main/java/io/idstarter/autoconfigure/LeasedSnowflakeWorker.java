package io.idstarter.autoconfigure;

import io.idstarter.lease.WorkerLeaseKeeper;
import io.idstarter.snowflake.SnowflakeIdGenerator;

import org.springframework.context.SmartLifecycle;

/**
 * A Snowflake generator and the keeper of its worker-ID lease, made as one bean so that no other bean can get the
 * generator before its lease is held: the generator bean is taken from this one, whose initialisation borrows the
 * worker ID.
 *
 * <p>The worker ID is given back when the context stops, in phase {@value #PHASE}: after the web server's graceful
 * shutdown and stop (so requests in flight still get IDs) and before the store clients that are lifecycle beans
 * themselves, such as Spring Data Redis' connection factories (phase 0), stop. Giving it back at bean destruction
 * would be too late for those. Destruction still closes the keeper when the context fails to refresh and so never
 * starts or stops.
 */
final class LeasedSnowflakeWorker implements SmartLifecycle {

	/** Lifecycle phase in which the worker ID is given back: between the web server's and the store clients'. */
	static final int PHASE = SmartLifecycle.DEFAULT_PHASE - 4096;

	private final SnowflakeIdGenerator generator;

	private final WorkerLeaseKeeper keeper;

	/** Whether the worker ID is held; set once by {@link #borrow()}, cleared once by {@link #stop()}. */
	private volatile boolean running;

	LeasedSnowflakeWorker(SnowflakeIdGenerator generator, WorkerLeaseKeeper keeper) {
		this.generator = generator;
		this.keeper = keeper;
	}

	SnowflakeIdGenerator generator() {
		return this.generator;
	}

	WorkerLeaseKeeper keeper() {
		return this.keeper;
	}

	/**
	 * Borrows the worker ID and grants it to the generator; blocks until it is held.
	 */
	void borrow() {
		this.keeper.start();
		this.running = true;
	}

	/**
	 * Called when a stopped context is started again: the worker ID was given back and cannot be taken again by the
	 * same keeper, so this fails rather than leave a generator that refuses every call.
	 */
	@Override
	public void start() {
		if (!this.running) {
			throw new IllegalStateException("The Snowflake worker ID was given back when the application context "
					+ "stopped; a stopped context cannot issue Snowflake IDs again: create a new context");
		}
	}

	/**
	 * Stops issuing and gives the worker ID back while the store's client is still open.
	 */
	@Override
	public void stop() {
		this.running = false;
		this.keeper.close();
	}

	@Override
	public boolean isRunning() {
		return this.running;
	}

	@Override
	public int getPhase() {
		return PHASE;
	}

	/**
	 * Stops issuing and gives the worker ID back, if {@link #stop()} has not already; idempotent.
	 */
	void close() {
		this.running = false;
		this.keeper.close();
	}

}
