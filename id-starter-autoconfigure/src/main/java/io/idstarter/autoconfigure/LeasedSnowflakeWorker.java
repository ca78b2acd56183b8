package io.idstarter.autoconfigure;

import io.idstarter.lease.WorkerLeaseKeeper;
import io.idstarter.snowflake.SnowflakeIdGenerator;

/**
 * A Snowflake generator and the keeper of its worker-ID lease, made as one bean so that no other bean can get the
 * generator before its lease is held: the generator bean is taken from this one, whose initialisation borrows the
 * worker ID and whose destruction gives it back. Spring destroys the beans that use the generator first.
 */
final class LeasedSnowflakeWorker {

	private final SnowflakeIdGenerator generator;

	private final WorkerLeaseKeeper keeper;

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
	void start() {
		this.keeper.start();
	}

	/**
	 * Stops issuing and gives the worker ID back.
	 */
	void close() {
		this.keeper.close();
	}

}
