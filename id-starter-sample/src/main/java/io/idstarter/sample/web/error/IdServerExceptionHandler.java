package io.idstarter.sample.web.error;

import java.time.Duration;
import java.util.List;

import io.idstarter.IdGenerationException;
import io.idstarter.lease.LeaseLostException;
import io.idstarter.lease.LeaseStoreException;
import io.idstarter.lease.NoFreeWorkerIdException;
import io.idstarter.sample.IdServerProperties;
import io.idstarter.sample.web.LogSafe;
import io.idstarter.segment.SegmentStoreException;
import io.idstarter.segment.SegmentsExhaustedException;
import io.idstarter.segment.UnknownKeyException;
import io.idstarter.snowflake.ClockMovedBackwardsException;
import io.idstarter.snowflake.WorkerIdUnavailableException;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.beans.TypeMismatchException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.validation.FieldError;
import org.springframework.web.bind.MethodArgumentNotValidException;
import org.springframework.web.bind.MissingServletRequestParameterException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.method.annotation.MethodArgumentTypeMismatchException;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;

/**
 * Answers every error as an RFC 9457 problem detail ({@code application/problem+json}): an unknown key with 404, a
 * bad parameter with 400, and an ID that cannot be issued safely now (store down and buffers spent, worker lease
 * lost, clock moved back) with 503 and {@code Retry-After}. Problems of this server carry a {@code code} member that
 * clients can match on; no answer carries a stack trace.
 */
@RestControllerAdvice
public class IdServerExceptionHandler extends ResponseEntityExceptionHandler {

	private static final Logger logger = LoggerFactory.getLogger(IdServerExceptionHandler.class);

	private final long retryAfterSeconds;

	private final RecentErrors recentErrors;

	public IdServerExceptionHandler(IdServerProperties properties, RecentErrors recentErrors) {
		this.retryAfterSeconds = wholeSeconds(properties.getRetryAfter());
		this.recentErrors = recentErrors;
	}

	@ExceptionHandler
	ResponseEntity<ProblemDetail> unknownKey(UnknownKeyException ex) {
		ProblemDetail problem = problem(HttpStatus.NOT_FOUND, "Unknown key", "unknown-key", ex.getMessage());
		problem.setProperty("key", ex.getKey());
		return ResponseEntity.status(HttpStatus.NOT_FOUND).body(problem);
	}

	@ExceptionHandler
	ResponseEntity<ProblemDetail> invalidParameter(InvalidParameterException ex) {
		return ResponseEntity.badRequest().body(invalidParameter(ex.getParameter(), ex.getValue(), ex.getRule()));
	}

	@ExceptionHandler
	ResponseEntity<ProblemDetail> segmentsExhausted(SegmentsExhaustedException ex) {
		ProblemDetail problem = unavailable("Segments exhausted", "segments-exhausted", ex,
				"Both segments of key '" + ex.getKey() + "' are used up and the store did not answer in time; "
						+ "retry later");
		problem.setProperty("key", ex.getKey());
		return serviceUnavailable(problem, this.retryAfterSeconds);
	}

	@ExceptionHandler
	ResponseEntity<ProblemDetail> segmentStore(SegmentStoreException ex) {
		return serviceUnavailable(unavailable("Segment store unavailable", "segment-store-unavailable", ex,
				"The segment store cannot be reached; retry later"), this.retryAfterSeconds);
	}

	@ExceptionHandler
	ResponseEntity<ProblemDetail> workerIdUnavailable(WorkerIdUnavailableException ex) {
		ProblemDetail problem = unavailable("No worker ID", "worker-id-unavailable", ex,
				"This server holds no valid worker ID now (" + ex.reason().name() + "); retry later");
		problem.setProperty("reason", ex.reason().name());
		return serviceUnavailable(problem, this.retryAfterSeconds);
	}

	@ExceptionHandler
	ResponseEntity<ProblemDetail> clockMovedBackwards(ClockMovedBackwardsException ex) {
		ProblemDetail problem = unavailable("Clock moved backwards", "clock-moved-backwards", ex,
				"This server's clock moved back " + ex.offsetMillis() + " ms; retry when it has caught up");
		problem.setProperty("offsetMillis", ex.offsetMillis());
		long untilCaughtUp = wholeSeconds(Duration.ofMillis(ex.offsetMillis()));
		return serviceUnavailable(problem, Math.max(this.retryAfterSeconds, untilCaughtUp));
	}

	@ExceptionHandler({ LeaseLostException.class, LeaseStoreException.class, NoFreeWorkerIdException.class })
	ResponseEntity<ProblemDetail> workerLease(IdGenerationException ex) {
		return serviceUnavailable(unavailable("Worker lease unavailable", "worker-lease-unavailable", ex,
				"The worker-ID lease store failed; retry later"), this.retryAfterSeconds);
	}

	@ExceptionHandler
	ResponseEntity<ProblemDetail> idGeneration(IdGenerationException ex) {
		return serviceUnavailable(
				unavailable("IDs unavailable", "ids-unavailable", ex, "No ID can be issued safely now; retry later"),
				this.retryAfterSeconds);
	}

	/**
	 * Last resort: a bug or an unforeseen failure. The client gets a 500 problem without internals; the log gets the
	 * stack trace.
	 */
	@ExceptionHandler
	ResponseEntity<ProblemDetail> unexpected(Exception ex) {
		logger.error("Request failed unexpectedly", ex);
		return ResponseEntity.internalServerError()
			.body(problem(HttpStatus.INTERNAL_SERVER_ERROR, "Internal error", "internal-error",
					"The server could not handle the request; its log has the details."));
	}

	/**
	 * Lists each rejected field of a request body, rather than Spring's generic "Invalid request content".
	 */
	@Override
	protected @Nullable ResponseEntity<Object> handleMethodArgumentNotValid(MethodArgumentNotValidException ex,
			HttpHeaders headers, HttpStatusCode status, WebRequest request) {
		List<String> errors = ex.getBindingResult()
			.getFieldErrors()
			.stream()
			.map(IdServerExceptionHandler::describe)
			.toList();
		ProblemDetail problem = problem(HttpStatus.BAD_REQUEST, "Invalid request body", "invalid-body",
				String.join("; ", errors));
		problem.setProperty("errors", errors);
		return handleExceptionInternal(ex, problem, headers, status, request);
	}

	/**
	 * A parameter that is not a number of its type ({@code count=abc}, an ID past {@code Long.MAX_VALUE}).
	 */
	@Override
	protected @Nullable ResponseEntity<Object> handleTypeMismatch(TypeMismatchException ex, HttpHeaders headers,
			HttpStatusCode status, WebRequest request) {
		String name = (ex instanceof MethodArgumentTypeMismatchException mismatch) ? mismatch.getName()
				: String.valueOf(ex.getPropertyName());
		Class<?> type = ex.getRequiredType();
		String expected = (type == int.class || type == Integer.class) ? "a 32-bit integer"
				: (type == long.class || type == Long.class) ? "a 64-bit integer"
						: "of type " + ((type != null) ? type.getSimpleName() : "?");
		return handleExceptionInternal(ex, invalidParameter(name, ex.getValue(), "must be " + expected), headers,
				status, request);
	}

	@Override
	protected @Nullable ResponseEntity<Object> handleMissingServletRequestParameter(
			MissingServletRequestParameterException ex, HttpHeaders headers, HttpStatusCode status,
			WebRequest request) {
		ProblemDetail problem = problem(HttpStatus.BAD_REQUEST, "Invalid parameter", "invalid-parameter",
				"'" + ex.getParameterName() + "' is required");
		problem.setProperty("parameter", ex.getParameterName());
		return handleExceptionInternal(ex, problem, headers, status, request);
	}

	private static ProblemDetail invalidParameter(String parameter, @Nullable Object value, String rule) {
		ProblemDetail problem = problem(HttpStatus.BAD_REQUEST, "Invalid parameter", "invalid-parameter",
				"'" + parameter + "' " + rule + ": " + value);
		problem.setProperty("parameter", parameter);
		problem.setProperty("value", String.valueOf(value));
		return problem;
	}

	private static String describe(FieldError error) {
		return "'" + error.getField() + "' " + error.getDefaultMessage() + ": " + error.getRejectedValue();
	}

	/**
	 * A 503 for anyone: the store's message names lease owner tokens, hosts, process IDs and tables, so it goes to
	 * the log and {@link RecentErrors} (shown by the admin API), and the answer says only what happened.
	 */
	private ProblemDetail unavailable(String title, String code, IdGenerationException ex, String detail) {
		logger.warn("Answered 503 {}: {}", code, LogSafe.escape(ex.getMessage()));
		this.recentErrors.record(code, ex);
		return problem(HttpStatus.SERVICE_UNAVAILABLE, title, code, detail);
	}

	private static ProblemDetail problem(HttpStatus status, String title, String code, @Nullable String detail) {
		ProblemDetail problem = ProblemDetail.forStatusAndDetail(status, detail);
		problem.setTitle(title);
		problem.setProperty("code", code);
		return problem;
	}

	private static ResponseEntity<ProblemDetail> serviceUnavailable(ProblemDetail problem, long retryAfterSeconds) {
		return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE)
			.header(HttpHeaders.RETRY_AFTER, Long.toString(retryAfterSeconds))
			.body(problem);
	}

	private static long wholeSeconds(Duration duration) {
		long seconds = duration.toSeconds();
		return (duration.toNanosPart() > 0 || seconds == 0) ? seconds + 1 : seconds;
	}

}
