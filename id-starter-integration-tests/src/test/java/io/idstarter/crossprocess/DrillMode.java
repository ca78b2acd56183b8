package io.idstarter.crossprocess;

/**
 * How a drill issues IDs.
 */
enum DrillMode {

	/** Snowflake IDs under a worker ID leased from the store by a {@code WorkerLeaseKeeper}. */
	SNOWFLAKE,

	/** Segment IDs from ranges the store allocates to a shared key. */
	SEGMENT

}
