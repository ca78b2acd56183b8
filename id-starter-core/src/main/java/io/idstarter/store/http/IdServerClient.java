package io.idstarter.store.http;

import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.UnknownHostException;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BiFunction;
import java.util.function.LongSupplier;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestClientException;

/**
 * Calls the fleet API of a set of ID servers with failover: each client starts on a random server (so a fleet
 * spreads over them), stays on it while it answers, and moves to the next one when a call fails to reach it or the
 * server answers that its store is unavailable. A call is tried up to {@code maxAttempts} times in all; before going
 * round to a server it already tried, it waits a jittered, growing backoff. The servers share one store, so any of
 * them gives the same answer; a refusal that every server would repeat (bad credentials, unknown key, lease lost) is
 * not retried.
 *
 * <p>Failures are logged once per change of a server's state (failing, answering again), and while servers keep
 * failing, in one summary line about every {@link #OUTAGE_SUMMARY_INTERVAL}: a fleet whose servers are all down
 * retries many times a second, and a line per retry would drown everything else in the log.
 *
 * <p>Thread-safe; no lock is held during a call.
 */
public final class IdServerClient implements IdServerStatuses {

	/** Time between two summary lines while servers keep failing. */
	static final Duration OUTAGE_SUMMARY_INTERVAL = Duration.ofMinutes(1);

	private final Logger logger;

	private final LongSupplier nanoTime;

	private final RestClient rest;

	private final List<Server> servers;

	private final int maxAttempts;

	private final Duration initialBackoff;

	private final Duration maxBackoff;

	private final @Nullable String authorization;

	private final String credentialsProperty;

	/** Index of the server calls go to first; moved on only from the index that failed, so racing failures move it once. */
	private final AtomicInteger current;

	/** {@link #nanoTime} at which the next summary of failing servers may be logged; moved on only by CAS. */
	private final AtomicLong nextOutageSummary;

	/**
	 * Creates the client.
	 * @param rest the HTTP client (with the connect and read timeouts set)
	 * @param servers base URLs of the ID servers, at least one
	 * @param maxAttempts attempts per call in all, at least 1
	 * @param initialBackoff wait before the second round over the servers; doubled for each further round
	 * @param maxBackoff longest wait between rounds
	 * @param authorization value of the {@code Authorization} header, or {@code null} for none
	 * @param credentialsProperty the configuration properties of the credentials, named when a server refuses them
	 */
	public IdServerClient(RestClient rest, List<URI> servers, int maxAttempts, Duration initialBackoff,
			Duration maxBackoff, @Nullable String authorization, String credentialsProperty) {
		this(rest, servers, maxAttempts, initialBackoff, maxBackoff, authorization, credentialsProperty,
				ThreadLocalRandom.current().nextInt(Math.max(1, servers.size())));
	}

	/**
	 * Creates the client, starting on a given server.
	 * @param rest the HTTP client (with the connect and read timeouts set)
	 * @param servers base URLs of the ID servers, at least one
	 * @param maxAttempts attempts per call in all, at least 1
	 * @param initialBackoff wait before the second round over the servers; doubled for each further round
	 * @param maxBackoff longest wait between rounds
	 * @param authorization value of the {@code Authorization} header, or {@code null} for none
	 * @param credentialsProperty the configuration properties of the credentials, named when a server refuses them
	 * @param firstServer index of the server the first call goes to (0 for the first listed)
	 */
	public IdServerClient(RestClient rest, List<URI> servers, int maxAttempts, Duration initialBackoff,
			Duration maxBackoff, @Nullable String authorization, String credentialsProperty, int firstServer) {
		this(rest, servers, maxAttempts, initialBackoff, maxBackoff, authorization, credentialsProperty, firstServer,
				LoggerFactory.getLogger(IdServerClient.class), System::nanoTime);
	}

	IdServerClient(RestClient rest, List<URI> servers, int maxAttempts, Duration initialBackoff, Duration maxBackoff,
			@Nullable String authorization, String credentialsProperty, int firstServer, Logger logger,
			LongSupplier nanoTime) {
		if (servers.isEmpty()) {
			throw new IllegalArgumentException("at least one ID server URL is needed");
		}
		if (maxAttempts < 1) {
			throw new IllegalArgumentException("maxAttempts must be at least 1: " + maxAttempts);
		}
		this.rest = Objects.requireNonNull(rest, "rest");
		this.servers = servers.stream().map(Server::new).toList();
		this.maxAttempts = maxAttempts;
		this.initialBackoff = initialBackoff;
		this.maxBackoff = maxBackoff;
		this.authorization = authorization;
		this.credentialsProperty = credentialsProperty;
		this.current = new AtomicInteger(firstServer % this.servers.size());
		this.logger = logger;
		this.nanoTime = nanoTime;
		this.nextOutageSummary = new AtomicLong(nanoTime.getAsLong());
	}

	/**
	 * Calls the fleet API.
	 * @param <T> the type of the answer
	 * @param operation what the call does, for messages ("allocate a range of key 'order'")
	 * @param method the HTTP method
	 * @param path the path below the server's base URL, already encoded
	 * @param body the request, one of {@link FleetMessages}, or {@code null}
	 * @param answerType the type of the answer, one of {@link FleetMessages}, or {@code Void.class} for none
	 * @param refusal turns a problem every server would repeat into the exception to throw; returns {@code null} for
	 * one worth trying on another server
	 * @param failure builds the exception thrown when no attempt succeeded, from a message naming the servers and
	 * the last cause
	 * @return the answer, or {@code null} for {@code Void.class} or an answer without a body (204)
	 */
	public <T> @Nullable T call(String operation, HttpMethod method, String path, @Nullable Object body,
			Class<T> answerType, Refusal refusal, BiFunction<String, @Nullable Throwable, RuntimeException> failure) {
		return answerType.cast(callServers(operation, method, path, body, answerType, refusal, failure, -1).body());
	}

	/**
	 * Calls the fleet API like {@link #call}, and says which server answered.
	 * @param <T> the type of the answer
	 * @param operation what the call does, for messages
	 * @param method the HTTP method
	 * @param path the path below the server's base URL, already encoded
	 * @param body the request, one of {@link FleetMessages}, or {@code null}
	 * @param answerType the type of the answer, one of {@link FleetMessages}
	 * @param refusal turns a problem every server would repeat into the exception to throw
	 * @param failure builds the exception thrown when no attempt succeeded
	 * @return the answer and the server that gave it
	 */
	public <T> Answered<T> callAnswered(String operation, HttpMethod method, String path, @Nullable Object body,
			Class<T> answerType, Refusal refusal, BiFunction<String, @Nullable Throwable, RuntimeException> failure) {
		Answered<Object> answered = callServers(operation, method, path, body, answerType, refusal, failure, -1);
		return new Answered<>(answerType.cast(answered.body()), answered.server());
	}

	/**
	 * Calls the fleet API on one server, once: no failover, no retry. For a call that must not run twice and that
	 * only the server that made an earlier answer can vouch for, such as a give-back.
	 * @param <T> the type of the answer
	 * @param server the server, as {@link Answered#server()} named it
	 * @param operation what the call does, for messages
	 * @param method the HTTP method
	 * @param path the path below the server's base URL, already encoded
	 * @param body the request, one of {@link FleetMessages}, or {@code null}
	 * @param answerType the type of the answer, one of {@link FleetMessages}
	 * @param refusal turns a problem into the exception to throw; {@code null} for a failure
	 * @param failure builds the exception thrown when the attempt failed
	 * @return the answer, or {@code null} for an answer without a body
	 * @throws IllegalArgumentException if the server is not one of this client's
	 */
	public <T> @Nullable T callOnce(String server, String operation, HttpMethod method, String path,
			@Nullable Object body, Class<T> answerType, Refusal refusal,
			BiFunction<String, @Nullable Throwable, RuntimeException> failure) {
		for (int i = 0; i < this.servers.size(); i++) {
			if (this.servers.get(i).url.toString().equals(server)) {
				return answerType.cast(callServers(operation, method, path, body, answerType, refusal, failure, i)
					.body());
			}
		}
		throw new IllegalArgumentException("not a server of this client: " + server);
	}

	/**
	 * Calls the fleet API with an untyped body and answer.
	 * @param operation what the call does, for messages ("allocate a range of key 'order'")
	 * @param method the HTTP method
	 * @param path the path below the server's base URL, already encoded
	 * @param body the JSON body, or {@code null}
	 * @param refusal turns a problem every server would repeat into the exception to throw; returns {@code null} for
	 * one worth trying on another server
	 * @param failure builds the exception thrown when no attempt succeeded, from a message naming the servers and
	 * the last cause
	 * @return the answer's JSON object, empty for 204
	 * @deprecated since 0.1.0 in favour of
	 * {@link #call(String, HttpMethod, String, Object, Class, Refusal, BiFunction)} with the records of
	 * {@link FleetMessages}
	 */
	@Deprecated(since = "0.1.0", forRemoval = true)
	@SuppressWarnings("unchecked")
	public Map<String, Object> call(String operation, HttpMethod method, String path,
			@Nullable Map<String, Object> body, Refusal refusal,
			BiFunction<String, @Nullable Throwable, RuntimeException> failure) {
		Object answer = callServers(operation, method, path, body, Map.class, refusal, failure, -1).body();
		return (answer != null) ? (Map<String, Object>) answer : Map.of();
	}

	/**
	 * Calls the servers with failover, or only server {@code only} once when it is not -1.
	 */
	private Answered<Object> callServers(String operation, HttpMethod method, String path, @Nullable Object body,
			Class<?> answerType, Refusal refusal, BiFunction<String, @Nullable Throwable, RuntimeException> failure,
			int only) {
		int count = this.servers.size();
		int start = (only >= 0) ? only : this.current.get();
		int attempts = (only >= 0) ? 1 : this.maxAttempts;
		Throwable lastCause = null;
		for (int attempt = 0; attempt < attempts; attempt++) {
			if (attempt > 0 && attempt % count == 0) {
				backoff(attempt / count);
			}
			int index = (start + attempt) % count;
			Server server = this.servers.get(index);
			server.calls.incrementAndGet();
			Answer answer;
			try {
				answer = exchange(server, method, path, body, answerType);
			}
			catch (RestClientException ex) {
				lastCause = ex;
				if (Thread.currentThread().isInterrupted()) {
					// Shutting down: the interrupt, not the server, ended the call; neither retry nor blame it.
					throw failure.apply("Interrupted while trying to " + operation + " on " + server.url, ex);
				}
				failed(index, server, describe(ex));
				continue;
			}
			if (answer.status >= 200 && answer.status < 300) {
				succeeded(server);
				return new Answered<>(answer.body, server.url.toString());
			}
			Problem problem = answer.problem();
			if (answer.status == 401 || answer.status == 403) {
				server.lastSuccess = Instant.now();
				throw new IdServerAuthenticationException(server.url.toString(), answer.status,
						(answer.status == 403)
								? "ID server " + server.url + " refused to " + operation + " for this client (403 "
										+ problem.describe() + "); the server grants each client its namespaces and "
										+ "keys under id-server.clients, or set " + this.credentialsProperty
										+ " to the credentials of the client they are granted to"
								: "ID server " + server.url + " refused this client's credentials (" + answer.status
										+ " " + problem.describe() + ") when asked to " + operation + "; set "
										+ this.credentialsProperty + " to the credentials of a client listed in the "
										+ "server's id-server.clients");
			}
			RuntimeException refused = refusal.exception(problem);
			if (refused != null) {
				succeeded(server);
				throw refused;
			}
			lastCause = new IllegalStateException(answer.status + " " + problem.describe());
			failed(index, server, "HTTP " + answer.status + " " + problem.describe());
		}
		if (only >= 0) {
			throw failure.apply("ID server " + this.servers.get(only).url + " could not " + operation + " ("
					+ this.servers.get(only).lastError + "); not tried again", lastCause);
		}
		throw failure.apply("No ID server could " + operation + " in " + this.maxAttempts + " attempts (servers: "
				+ summary() + "); the buffers in memory serve until they run out. Check that a server of "
				+ "id-worker.http.servers is up and reaches its store", lastCause);
	}

	/**
	 * Checks this client's credentials with the servers ({@code GET /api/fleet/whoami}), so that wrong ones fail the
	 * start rather than the first ID. Servers that cannot be reached are only logged: the generators' own calls then
	 * decide.
	 * @return the client's name as a server knows it, or {@code null} if no server answered
	 * @throws IdServerAuthenticationException if a server refused the credentials
	 */
	public @Nullable String verifyCredentials() {
		try {
			FleetMessages.ClientName answer = call("check this client's credentials", HttpMethod.GET,
					"api/fleet/whoami", null, FleetMessages.ClientName.class, (problem) -> null,
					IllegalStateException::new);
			String client = (answer != null) ? answer.client() : null;
			this.logger.info("ID servers {} know this application as client '{}'", summary(), client);
			return client;
		}
		catch (IdServerAuthenticationException ex) {
			throw ex;
		}
		catch (RuntimeException ex) {
			this.logger.warn("Could not check this client's credentials with the ID servers at start-up: {}",
					ex.getMessage());
			return null;
		}
	}

	@Override
	public List<IdServerStatus> servers() {
		int current = this.current.get();
		List<IdServerStatus> result = new ArrayList<>(this.servers.size());
		for (int i = 0; i < this.servers.size(); i++) {
			Server server = this.servers.get(i);
			result.add(new IdServerStatus(server.url.toString(), i == current, server.calls.get(), server.failures.get(),
					server.lastSuccess, server.lastFailure, server.lastError));
		}
		return result;
	}

	@Override
	public String currentServer() {
		return this.servers.get(this.current.get()).url.toString();
	}

	private Answer exchange(Server server, HttpMethod method, String path, @Nullable Object body,
			Class<?> answerType) {
		RestClient.RequestBodySpec request = this.rest.method(method)
			.uri(server.url.resolve(path))
			.accept(MediaType.APPLICATION_JSON, MediaType.APPLICATION_PROBLEM_JSON);
		if (this.authorization != null) {
			request.header(HttpHeaders.AUTHORIZATION, this.authorization);
		}
		if (body != null) {
			request.contentType(MediaType.APPLICATION_JSON).body(body);
		}
		return request.exchange((req, response) -> {
			int status = response.getStatusCode().value();
			if (status >= 200 && status < 300) {
				Object answer = (status != 204 && answerType != Void.class) ? response.bodyTo(answerType) : null;
				return new Answer(status, answer, Map.of());
			}
			Map<String, Object> problem = Map.of();
			try {
				@SuppressWarnings("unchecked")
				Map<String, Object> read = response.bodyTo(Map.class);
				problem = (read != null) ? read : Map.of();
			}
			catch (RestClientException ex) {
				// Not a problem document: the status alone describes it.
			}
			return new Answer(status, null, problem);
		});
	}

	private void succeeded(Server server) {
		server.lastSuccess = Instant.now();
		if (server.failing.compareAndSet(true, false)) {
			long failures = server.failuresInRow.getAndSet(0);
			this.logger.info("ID server {} answers again, after {} failed call{} in {}", server.url, failures,
					(failures == 1) ? "" : "s", format(this.nanoTime.getAsLong() - server.failingSinceNanos));
		}
	}

	private void failed(int index, Server server, String error) {
		server.failures.incrementAndGet();
		server.lastFailure = Instant.now();
		server.lastError = error;
		server.failuresInRow.incrementAndGet();
		int next = (index + 1) % this.servers.size();
		this.current.compareAndSet(index, next);
		long now = this.nanoTime.getAsLong();
		if (server.failing.compareAndSet(false, true)) {
			server.failingSinceNanos = now;
			this.nextOutageSummary.set(now + OUTAGE_SUMMARY_INTERVAL.toNanos());
			this.logger.warn("ID server {} failed ({}); calls go to the other servers until it answers{}", server.url,
					error, (next != index) ? ", starting with " + this.servers.get(next).url : "");
			return;
		}
		long due = this.nextOutageSummary.get();
		if (now - due >= 0 && this.nextOutageSummary.compareAndSet(due, now + OUTAGE_SUMMARY_INTERVAL.toNanos())) {
			this.logger.warn("ID servers still failing: {}", outageSummary(now));
		}
	}

	private String outageSummary(long now) {
		StringBuilder summary = new StringBuilder();
		for (Server server : this.servers) {
			if (server.failing.get()) {
				summary.append(summary.isEmpty() ? "" : "; ")
					.append(server.url)
					.append(" for ")
					.append(format(now - server.failingSinceNanos))
					.append(", ")
					.append(server.failuresInRow.get())
					.append(" failed calls, last: ")
					.append(server.lastError);
			}
		}
		return summary.toString();
	}

	private static String format(long nanos) {
		long millis = Math.max(0, nanos / 1_000_000);
		return (millis < 10_000) ? millis + " ms" : (millis / 1000) + " s";
	}

	private void backoff(int round) {
		long cap = Math.min(this.maxBackoff.toNanos(), this.initialBackoff.toNanos() << Math.min(round - 1, 20));
		long nanos = (cap <= 0) ? 0 : cap / 2 + ThreadLocalRandom.current().nextLong(cap / 2 + 1);
		LockSupport.parkNanos(nanos);
	}

	private String summary() {
		StringBuilder summary = new StringBuilder();
		for (Server server : this.servers) {
			if (!summary.isEmpty()) {
				summary.append(", ");
			}
			summary.append(server.url);
			if (server.lastError != null) {
				summary.append(" (").append(server.lastError).append(')');
			}
		}
		return summary.toString();
	}

	/**
	 * Describes why a server could not be reached, in the words of the cause that says most: Spring's message
	 * ("I/O error on POST request ...") and the innermost cause of the JDK's client ({@code ClosedChannelException},
	 * without a message) hide the plain reason, such as a refused connection.
	 */
	static String describe(Throwable ex) {
		Throwable cause = ex;
		Throwable deepestWithMessage = null;
		for (int depth = 0; cause != null && depth < 16; depth++) {
			String reason = reason(cause);
			if (reason != null) {
				return reason + " (" + cause.getClass().getSimpleName() + ")";
			}
			if (cause.getMessage() != null && !(cause instanceof RestClientException)) {
				deepestWithMessage = cause;
			}
			cause = (cause.getCause() != cause) ? cause.getCause() : null;
		}
		Throwable shown = (deepestWithMessage != null) ? deepestWithMessage : ex;
		return shown.getClass().getSimpleName() + ((shown.getMessage() != null) ? ": " + shown.getMessage() : "");
	}

	private static @Nullable String reason(Throwable cause) {
		String message = cause.getMessage();
		if (cause instanceof ConnectException) {
			// The JDK's client gives no message; others say "Connection refused" or, rarely, "No route to host".
			return (message == null || message.contains("refused")) ? "connection refused" : message;
		}
		if (cause instanceof UnknownHostException) {
			return "unknown host " + message;
		}
		if (cause instanceof HttpConnectTimeoutException || (cause instanceof SocketTimeoutException
				&& message != null && message.toLowerCase(Locale.ROOT).contains("connect"))) {
			return "connect timed out";
		}
		if (cause instanceof HttpTimeoutException || cause instanceof SocketTimeoutException) {
			return "no answer within the read timeout";
		}
		return null;
	}

	/**
	 * Turns a problem answer into the exception it stands for.
	 */
	@FunctionalInterface
	public interface Refusal {

		/**
		 * Returns the exception a problem stands for.
		 * @param problem the server's answer
		 * @return the exception to throw, or {@code null} to try another server
		 */
		@Nullable RuntimeException exception(Problem problem);

	}

	/**
	 * An RFC 9457 problem answer of a server.
	 *
	 * @param status the HTTP status
	 * @param code the server's {@code code} member, or {@code null}
	 * @param title the title, or {@code null}
	 * @param detail the detail, or {@code null}
	 */
	public record Problem(int status, @Nullable String code, @Nullable String title, @Nullable String detail) {

		String describe() {
			StringBuilder text = new StringBuilder();
			text.append((this.code != null) ? this.code : (this.title != null) ? this.title : "no problem detail");
			if (this.detail != null) {
				text.append(": ").append(this.detail);
			}
			return text.toString();
		}

	}

	private static final class Server {

		final URI url;

		final AtomicLong calls = new AtomicLong();

		final AtomicLong failures = new AtomicLong();

		volatile @Nullable Instant lastSuccess;

		volatile @Nullable Instant lastFailure;

		volatile @Nullable String lastError;

		/** Whether the last call to this server failed; flipped by CAS, so each change is logged once. */
		final AtomicBoolean failing = new AtomicBoolean();

		/** Failed calls since the server last answered. */
		final AtomicLong failuresInRow = new AtomicLong();

		/** {@code nanoTime} of the failure that began the current run of failures. */
		volatile long failingSinceNanos;

		Server(URI url) {
			String text = url.toString();
			this.url = text.endsWith("/") ? url : URI.create(text + "/");
		}

	}

	/**
	 * An answer and the server that gave it.
	 *
	 * @param <T> the type of the answer
	 * @param body the answer, or {@code null} for one without a body
	 * @param server the server's base URL
	 */
	public record Answered<T>(@Nullable T body, String server) {
	}

	/**
	 * A server's answer: the body of a success, or the members of a problem.
	 */
	private record Answer(int status, @Nullable Object body, Map<String, Object> problemJson) {

		Problem problem() {
			return new Problem(this.status, text(this.problemJson.get("code")), text(this.problemJson.get("title")),
					text(this.problemJson.get("detail")));
		}

		private static @Nullable String text(@Nullable Object value) {
			return (value != null) ? value.toString() : null;
		}

	}

}
