package io.idstarter.segment;

import java.time.Duration;
import java.time.Instant;

import io.idstarter.StoreRegressionException;
import org.jspecify.annotations.Nullable;

/**
 * A snapshot of the double buffer of one key, for monitoring (the actuator endpoint, the server's monitor page).
 *
 * @param key the business key
 * @param current the range IDs are taken from, or {@code null} if the key has not been used yet
 * @param next the range fetched ahead and waiting, or {@code null} if there is none yet
 * @param step the size requested at the latest fetch (the dynamic step); 0 before the first fetch
 * @param configuredStep the key's step in the store, the floor of the dynamic step; 0 before the first fetch
 * @param lastFetchTime when the latest successful fetch finished (wall clock), or {@code null} if none yet
 * @param lastFetchDuration how long the latest successful store call took, or {@code null} if none yet
 * @param issuedCount how many numbers this instance has handed out for the key since it loaded it (with a thread
 * chunk size, numbers reserved by threads' chunks count as handed out)
 * @param fetchInFlight whether a fetch of the next range is running (or waiting to retry after a failure)
 * @param lastError the store's error since the latest successful fetch, or {@code null} if the latest call succeeded;
 * its text may name tables, hosts and connection URLs, so show it to operators only
 * @param lastErrorCode what kind of error {@code lastError} is, safe to show to anyone: {@code store-unavailable},
 * {@code store-regressed}, {@code unknown-key}, {@code key-exhausted} or {@code store-error}; {@code null} without one
 * @param lastErrorTime when {@code lastError} happened (wall clock), or {@code null} without one
 */
public record SegmentBufferView(String key, @Nullable SegmentView current, @Nullable SegmentView next, int step,
		int configuredStep, @Nullable Instant lastFetchTime, @Nullable Duration lastFetchDuration, long issuedCount,
		boolean fetchInFlight, @Nullable String lastError, @Nullable String lastErrorCode,
		@Nullable Instant lastErrorTime) {

	/**
	 * Returns the code of a store error, as {@code lastErrorCode} shows it.
	 * @param error the store's error
	 * @return its code
	 */
	public static String errorCode(Throwable error) {
		if (error instanceof StoreRegressionException) {
			return "store-regressed";
		}
		if (error instanceof UnknownKeyException) {
			return "unknown-key";
		}
		if (error instanceof SegmentKeyExhaustedException) {
			return "key-exhausted";
		}
		return (error instanceof SegmentStoreException) ? "store-unavailable" : "store-error";
	}

	/**
	 * Returns whether the key's first range has been loaded.
	 * @return {@code true} once the key has served an ID
	 */
	public boolean loaded() {
		return this.current != null;
	}

}
