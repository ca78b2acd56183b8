package io.idstarter.sample.web.error;

import java.time.Instant;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

import org.jspecify.annotations.Nullable;

import org.springframework.stereotype.Component;

/**
 * The latest full message of each kind of 503, for operators: the answers to anonymous clients leave out the
 * store's details (owner tokens, hosts, tables); the log and the authenticated admin API
 * ({@code GET /api/admin/errors}) have them.
 */
@Component
public class RecentErrors {

	/** The latest error per problem code; replaced, never grown beyond the codes. */
	private final ConcurrentHashMap<String, RecentError> latest = new ConcurrentHashMap<>();

	void record(String code, Exception ex) {
		this.latest.put(code, new RecentError(Instant.now(), ex.getClass().getName(), ex.getMessage()));
	}

	/**
	 * Returns the latest error of each problem code.
	 * @return the errors by code, sorted
	 */
	public Map<String, RecentError> latest() {
		return new TreeMap<>(this.latest);
	}

	/**
	 * An error answered with 503.
	 *
	 * @param time when
	 * @param type the exception's class
	 * @param message its full message
	 */
	public record RecentError(Instant time, String type, @Nullable String message) {
	}

}
