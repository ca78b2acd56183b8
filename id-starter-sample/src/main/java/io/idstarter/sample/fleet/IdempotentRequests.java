package io.idstarter.sample.fleet;

import java.lang.reflect.Method;
import java.lang.reflect.RecordComponent;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

import io.idstarter.sample.web.error.InvalidParameterException;

/**
 * Runs a state-changing request once per request ID: a retry with the same ID (a client whose read timed out while
 * the first attempt went through) gets the first attempt's answer instead of a second range, worker ID, give-back or
 * layout step. A retry repeats its request exactly: the same ID with another body is refused (400, naming the field
 * that differs), never answered with what another request got. A retry that arrives while the first attempt is still
 * running waits for it. Failed attempts are forgotten, so a retry after a failure tries again. Remembered in this
 * server's memory only: a retry that reaches another server runs again (a range is then a gap; a lease an orphan that
 * expires after its TTL, unrenewed; a give-back finds no range that server handed out, see {@link RangeLedger}).
 */
final class IdempotentRequests {

	/** Entries kept before expired ones are swept. */
	private static final int SWEEP_ABOVE = 10_000;

	/** Entries kept at most; beyond, the oldest answers are forgotten (a late retry then runs again). */
	private static final int MAX_ENTRIES = 200_000;

	/** One attempt per request ID, until it expires; an entry is removed only when expired or when its attempt failed. */
	private final ConcurrentHashMap<String, Attempt> attempts = new ConcurrentHashMap<>();

	/**
	 * Runs a request, or answers as its first attempt did.
	 * @param requestId the client's request ID, qualified by the client and the call
	 * @param request the request's body, compared with the first attempt's
	 * @param keep how long the answer is kept
	 * @param action runs the request
	 * @return the answer
	 * @throws InvalidParameterException if the request ID was sent with another body
	 */
	<T> T once(String requestId, Record request, Duration keep, Supplier<T> action) {
		long now = System.nanoTime();
		Attempt fresh = new Attempt(request, now + keep.toNanos());
		while (true) {
			Attempt existing = this.attempts.putIfAbsent(requestId, fresh);
			if (existing == null) {
				break;
			}
			if (!existing.expired(now)) {
				if (!existing.request.equals(request)) {
					throw new InvalidParameterException("requestId", requestIdOf(requestId), "was sent before with "
							+ "another '" + differingField(existing.request, request) + "': a retry repeats its "
							+ "request unchanged, and a new request takes a new request ID");
				}
				return existing.await();
			}
			if (this.attempts.replace(requestId, existing, fresh)) {
				break;
			}
		}
		try {
			T result = action.get();
			fresh.result.complete(result);
			return result;
		}
		catch (RuntimeException | Error ex) {
			this.attempts.remove(requestId, fresh);
			fresh.result.completeExceptionally(ex);
			throw ex;
		}
		finally {
			if (this.attempts.size() > SWEEP_ABOVE) {
				sweep(now);
			}
		}
	}

	int size() {
		return this.attempts.size();
	}

	private static String requestIdOf(String qualified) {
		return qualified.substring(qualified.lastIndexOf('/') + 1);
	}

	/**
	 * Names the first component of two requests of one call that differs.
	 */
	private static String differingField(Record first, Record again) {
		try {
			for (RecordComponent component : first.getClass().getRecordComponents()) {
				Method accessor = component.getAccessor();
				if (!Objects.equals(accessor.invoke(first), accessor.invoke(again))) {
					return component.getName();
				}
			}
		}
		catch (ReflectiveOperationException | IllegalArgumentException ex) {
			// a body whose components cannot be read: name it whole
		}
		return "body";
	}

	private void sweep(long now) {
		this.attempts.values().removeIf((attempt) -> attempt.expired(now));
		if (this.attempts.size() > MAX_ENTRIES) {
			this.attempts.values().removeIf((attempt) -> attempt.result.isDone());
		}
	}

	private static final class Attempt {

		final CompletableFuture<Object> result = new CompletableFuture<>();

		/** The request's body, which a retry must repeat. */
		final Record request;

		final long expiresAtNanos;

		Attempt(Record request, long expiresAtNanos) {
			this.request = request;
			this.expiresAtNanos = expiresAtNanos;
		}

		boolean expired(long now) {
			return now - this.expiresAtNanos > 0;
		}

		@SuppressWarnings("unchecked")
		<T> T await() {
			try {
				return (T) this.result.join();
			}
			catch (CompletionException ex) {
				if (ex.getCause() instanceof RuntimeException runtime) {
					throw runtime;
				}
				if (ex.getCause() instanceof Error error) {
					throw error;
				}
				throw ex;
			}
		}

	}

}
