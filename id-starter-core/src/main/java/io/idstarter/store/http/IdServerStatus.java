package io.idstarter.store.http;

import java.time.Instant;

import org.jspecify.annotations.Nullable;

/**
 * One ID server as a client sees it through its calls.
 *
 * @param url the server's base URL
 * @param current whether calls go to it first
 * @param calls calls sent to it
 * @param failures calls that did not reach it or that it could not serve
 * @param lastSuccess when it last answered
 * @param lastFailure when a call to it last failed
 * @param lastError why that call failed
 */
public record IdServerStatus(String url, boolean current, long calls, long failures, @Nullable Instant lastSuccess,
		@Nullable Instant lastFailure, @Nullable String lastError) {

	/**
	 * Returns whether the latest call to this server got an answer.
	 * @return {@code true} if it answered after its latest failure, or never failed
	 */
	public boolean answering() {
		Instant failure = this.lastFailure;
		Instant success = this.lastSuccess;
		return failure == null || (success != null && success.isAfter(failure));
	}

}
