package io.idstarter.segment;

import java.time.Duration;
import java.time.Instant;

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
 * @param lastError the store's error since the latest successful fetch, or {@code null} if the latest call succeeded
 */
public record SegmentBufferView(String key, @Nullable SegmentView current, @Nullable SegmentView next, int step,
		int configuredStep, @Nullable Instant lastFetchTime, @Nullable Duration lastFetchDuration, long issuedCount,
		boolean fetchInFlight, @Nullable String lastError) {

	/**
	 * Returns whether the key's first range has been loaded.
	 * @return {@code true} once the key has served an ID
	 */
	public boolean loaded() {
		return this.current != null;
	}

}
