package io.idstarter;

/**
 * Receives the slow-path events of the generators, for metrics and logs. Called on the thread where the event
 * happened, never on the fast path of issuing an ID; implementations must be thread-safe, quick and must not throw.
 */
public interface IdWorkerListener {

	/** A listener that ignores every event. */
	IdWorkerListener NONE = new IdWorkerListener() {
	};

	/**
	 * A call to a store finished (a segment allocation, or a worker-lease borrow, renewal or release).
	 * @param key the business key, or the lease namespace
	 * @param operation what was called: {@code allocate}, {@code borrow}, {@code renew}, {@code release}
	 * @param nanos how long the call took
	 * @param success whether it succeeded
	 */
	default void storeCall(String key, String operation, long nanos, boolean success) {
	}

	/**
	 * A caller waited because both segments of a key were spent and the next one was still being fetched.
	 * @param key the business key
	 * @param nanos how long it waited
	 * @param served whether it got an ID in the end (otherwise it failed)
	 */
	default void segmentWait(String key, long nanos, boolean served) {
	}

	/**
	 * A segment key was refused because its store lost writes: the store answered with a range below the end of a
	 * range this node was given, or no longer has a key this node used. Nothing was served from the answer.
	 * @param key the business key
	 * @param knownMark the end of the highest range this node was given for the key
	 * @param storeStart the first number of the range the store answered with; -1 when the key is missing
	 */
	default void segmentRefused(String key, long knownMark, long storeStart) {
	}

	/**
	 * A segment key that was deleted from the store on purpose (a periodic key past its retention) left this
	 * generator: it issues no more IDs, and what was recorded per key may be dropped.
	 * @param key the business key
	 */
	default void segmentKeyRetired(String key) {
	}

	/**
	 * The wall clock was found behind the timestamp of the last Snowflake ID.
	 * @param offsetMillis how far it was behind
	 * @param action what the generator did: {@code waited}, {@code failed} or {@code tolerated}
	 */
	default void clockMovedBackwards(long offsetMillis, String action) {
	}

}
