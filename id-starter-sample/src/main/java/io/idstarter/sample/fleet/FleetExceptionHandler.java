package io.idstarter.sample.fleet;

import java.util.stream.Collectors;

import io.idstarter.lease.LeaseLostException;
import io.idstarter.lease.LeaseStoreException;
import io.idstarter.lease.NoFreeWorkerIdException;
import io.idstarter.sample.IdServerProperties;
import io.idstarter.sample.web.LogSafe;
import io.idstarter.segment.SegmentKeyExhaustedException;
import io.idstarter.segment.SegmentStoreException;
import io.idstarter.segment.SegmentsExhaustedException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.DatabindException;

import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/**
 * Problems of the fleet API, each with a {@code code} the client maps back to the store exception it stands for:
 * {@code lease-lost} (409), {@code key-exhausted} (409: the key's next range would pass {@code Long.MAX_VALUE}),
 * {@code no-free-worker-id} (503), {@code layout-differs} (409: the borrow's layout is not the namespace's recorded
 * one), {@code layout-change-pending} (409: the namespace's record is a change not yet complete),
 * {@code layouts-not-kept} (501: the server's store records no layouts), {@code lease-store-unavailable} and
 * {@code segment-store-unavailable} (503, the client tries another server), {@code not-granted} (403) and
 * {@code quota-exceeded} (429, with Retry-After). The store's own messages name other clients' owner tokens, hosts
 * and tables: they go to this server's log, never into an answer.
 */
@RestControllerAdvice(
		assignableTypes = { FleetController.class, FleetLayoutController.class, FleetGiveBackController.class })
@Order(Ordered.HIGHEST_PRECEDENCE)
class FleetExceptionHandler {

	private static final Logger logger = LoggerFactory.getLogger(FleetExceptionHandler.class);

	private final String retryAfter;

	FleetExceptionHandler(IdServerProperties properties) {
		long seconds = Math.max(1, (properties.getRetryAfter().toMillis() + 999) / 1000);
		this.retryAfter = Long.toString(seconds);
	}

	@ExceptionHandler
	ResponseEntity<ProblemDetail> leaseLost(LeaseLostException ex) {
		logger.info("Fleet lease call refused: {}", LogSafe.escape(ex.getMessage()));
		return answer(HttpStatus.CONFLICT, "Lease lost", "lease-lost",
				"The worker ID is no longer held with this owner token (it expired and may have been taken); "
						+ "stop issuing under it and borrow again");
	}

	@ExceptionHandler
	ResponseEntity<ProblemDetail> noFreeWorkerId(NoFreeWorkerIdException ex) {
		logger.warn("Fleet borrow refused: {}", LogSafe.escape(ex.getMessage()));
		return answer(HttpStatus.SERVICE_UNAVAILABLE, "No free worker ID", "no-free-worker-id",
				"Every worker ID of the namespace is held; use more worker-ID bits, another namespace or fewer "
						+ "instances, or wait for a lease to expire");
	}

	@ExceptionHandler
	ResponseEntity<ProblemDetail> leaseStore(LeaseStoreException ex) {
		logger.warn("Fleet lease call failed in the store", ex);
		return answer(HttpStatus.SERVICE_UNAVAILABLE, "Lease store unavailable", "lease-store-unavailable",
				"This server could not reach its lease store; try another server or again later");
	}

	@ExceptionHandler
	ResponseEntity<ProblemDetail> layoutsNotKept(UnsupportedOperationException ex) {
		logger.warn("Fleet layout call on a store that keeps no layouts: {}", LogSafe.escape(ex.getMessage()));
		return answer(HttpStatus.NOT_IMPLEMENTED, "Layouts not kept", "layouts-not-kept",
				"This server's lease store keeps no layouts");
	}

	@ExceptionHandler
	ResponseEntity<ProblemDetail> segmentStore(SegmentStoreException ex) {
		logger.warn("Fleet range allocation failed in the store", ex);
		return answer(HttpStatus.SERVICE_UNAVAILABLE, "Segment store unavailable", "segment-store-unavailable",
				"This server could not reach its segment store; try another server or again later");
	}

	@ExceptionHandler
	ResponseEntity<ProblemDetail> keyExhausted(SegmentKeyExhaustedException ex) {
		logger.warn("Fleet range allocation refused: {}", LogSafe.escape(ex.getMessage()));
		return answer(HttpStatus.CONFLICT, "Key exhausted", "key-exhausted", "Key '" + ex.getKey()
				+ "' is used up: its next range would pass Long.MAX_VALUE (" + Long.MAX_VALUE + "); move to a new key");
	}

	@ExceptionHandler
	ResponseEntity<ProblemDetail> segmentsExhausted(SegmentsExhaustedException ex) {
		return segmentStore(new SegmentStoreException(ex.getMessage(), ex));
	}

	@ExceptionHandler
	ResponseEntity<ProblemDetail> refused(FleetRefusedException ex) {
		// Refusals are the caller's to read; a flood of them must not flood this server's log.
		logger.debug("Fleet call refused: {}", ex.getMessage());
		ResponseEntity<ProblemDetail> answer = answer(ex.status(), ex.title(), ex.code(), ex.getMessage());
		if (ex.status() == HttpStatus.TOO_MANY_REQUESTS) {
			return ResponseEntity.status(ex.status()).header(HttpHeaders.RETRY_AFTER, "1").body(answer.getBody());
		}
		return answer;
	}

	/**
	 * A body that is not JSON of the request's shape, including a value of the wrong kind ({@code "step": 1.5}, a
	 * numeric {@code requestId}), which the fleet API never converts.
	 */
	@ExceptionHandler
	ResponseEntity<ProblemDetail> unreadable(HttpMessageNotReadableException ex) {
		String detail = "The request body is not JSON of this request's shape";
		if (ex.getCause() instanceof DatabindException databind) {
			String field = databind.getPath()
				.stream()
				.map((reference) -> (reference.getPropertyName() != null) ? reference.getPropertyName()
						: Integer.toString(reference.getIndex()))
				.collect(Collectors.joining("."));
			detail = (field.isEmpty() ? "The request body" : "Field '" + field + "'") + " is not valid: "
					+ databind.getOriginalMessage().lines().findFirst().orElse("");
		}
		return answer(HttpStatus.BAD_REQUEST, "Invalid request body", "invalid-body", detail);
	}

	@ExceptionHandler
	ResponseEntity<ProblemDetail> invalid(IllegalArgumentException ex) {
		ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST, ex.getMessage());
		problem.setTitle("Invalid request");
		problem.setProperty("code", "invalid-request");
		return ResponseEntity.badRequest().body(problem);
	}

	private ResponseEntity<ProblemDetail> answer(HttpStatus status, String title, String code, String detail) {
		ProblemDetail problem = ProblemDetail.forStatusAndDetail(status, detail);
		problem.setTitle(title);
		problem.setProperty("code", code);
		ResponseEntity.BodyBuilder response = ResponseEntity.status(status);
		if (status == HttpStatus.SERVICE_UNAVAILABLE) {
			response.header(HttpHeaders.RETRY_AFTER, this.retryAfter);
		}
		return response.body(problem);
	}

}
