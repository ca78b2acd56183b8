package io.idstarter.sample.admin;

import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;

import io.idstarter.sample.monitor.MonitorController;
import io.idstarter.sample.monitor.MonitorSnapshot;
import io.idstarter.sample.web.LogSafe;
import io.idstarter.sample.web.error.RecentErrors;
import io.idstarter.segment.SegmentKeyAdmin;
import io.idstarter.segment.SegmentMarks;
import io.idstarter.segment.SegmentStore;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.PositiveOrZero;
import jakarta.validation.constraints.Size;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.util.UriComponentsBuilder;

/**
 * The admin API: list, create and re-step segment keys. Served only with {@code id-server.admin.enabled=true}, and
 * then only to the configured user ({@link AdminSecurityConfiguration}). Bodies are JSON, which a cross-site form
 * cannot send, so browsers that cached the Basic credentials cannot be tricked into calling it.
 */
@RestController
@RequestMapping("/api/admin")
@ConditionalOnBooleanProperty("id-server.admin.enabled")
public class AdminController {

	private static final Logger logger = LoggerFactory.getLogger(AdminController.class);

	/** Largest step the API accepts; Leaf's dynamic step stops at one million as well. */
	static final int MAX_STEP = 1_000_000;

	private final SegmentStore store;

	private final SegmentKeyAdmin admin;

	private final RecentErrors recentErrors;

	/** This node's high marks: a key is never created below the numbers this node was given of it. */
	private final SegmentMarks marks;

	private final MonitorController monitor;

	AdminController(SegmentStore store, ObjectProvider<SegmentMarks> marks, RecentErrors recentErrors,
			MonitorController monitor) {
		this.recentErrors = recentErrors;
		this.monitor = monitor;
		if (!(store instanceof SegmentKeyAdmin keyAdmin)) {
			throw new IllegalStateException("The segment store " + store.getClass().getName()
					+ " cannot create keys (it does not implement SegmentKeyAdmin); turn the admin API off "
					+ "(id-server.admin.enabled=false)");
		}
		this.store = store;
		this.admin = keyAdmin;
		this.marks = marks.getIfAvailable(SegmentMarks::inMemory);
	}

	/**
	 * Lists the keys of the store.
	 * @return the key names, sorted
	 */
	@GetMapping("/keys")
	public Keys keys() {
		return new Keys(List.copyOf(new TreeSet<>(this.store.keys())));
	}

	/**
	 * Returns the monitor's snapshot with what the open {@code /api/monitor} leaves out: each key's store error
	 * text, and which fleet client holds which worker ID in which namespace and draws which key.
	 * @return the snapshot
	 */
	@GetMapping("/monitor")
	public MonitorSnapshot monitor() {
		return this.monitor.snapshot(true);
	}

	/**
	 * Returns the full message of the latest 503 of each kind, with the store's details that answers to clients
	 * leave out.
	 * @return the errors by problem code
	 */
	@GetMapping("/errors")
	public Map<String, RecentErrors.RecentError> errors() {
		return this.recentErrors.latest();
	}

	/**
	 * Creates a key. It serves IDs within about a second (the generator re-reads the store's keys when asked for one
	 * it does not know, at most once a second).
	 * @param request the key, first ID, step and description
	 * @return 201 with the key, or 409 if it exists (it is left unchanged)
	 */
	@PostMapping("/keys")
	public ResponseEntity<?> create(@Valid @RequestBody CreateKey request) {
		long firstId = Objects.requireNonNullElse(request.firstId(), 1L);
		int step = Objects.requireNonNullElse(request.step(), 1000);
		String description = Objects.requireNonNullElse(request.description(), "");
		long mark = this.marks.highMark(request.key());
		if (firstId < mark && !this.store.keys().contains(request.key())) {
			ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.CONFLICT, "This server was given IDs of "
					+ "key '" + request.key() + "' up to " + mark + " before; a first ID of " + firstId
					+ " would issue them again. Use a first ID at or above the highest such mark of every server");
			problem.setTitle("First ID below a known mark");
			problem.setProperty("code", "below-known-mark");
			problem.setProperty("key", request.key());
			problem.setProperty("knownMark", mark);
			return ResponseEntity.status(HttpStatus.CONFLICT).body(problem);
		}
		if (!this.admin.createKey(request.key(), firstId, step, description)) {
			ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.CONFLICT, "Key '" + request.key()
					+ "' exists; it was left unchanged (change its step with PUT /api/admin/keys/{key}/step)");
			problem.setTitle("Key exists");
			problem.setProperty("code", "key-exists");
			problem.setProperty("key", request.key());
			return ResponseEntity.status(HttpStatus.CONFLICT).body(problem);
		}
		logger.info("Admin API created segment key '{}' (first ID {}, step {})", LogSafe.escape(request.key()),
				firstId, step);
		URI location = UriComponentsBuilder.fromPath("/api/segment/get/{key}").buildAndExpand(request.key()).toUri();
		return ResponseEntity.created(location).body(new CreatedKey(request.key(), firstId, step, description));
	}

	/**
	 * Changes the step of a key; ranges already fetched keep their size.
	 * @param key the key
	 * @param request the new step
	 * @return the key and its new step; 404 if the store has no such key
	 */
	@PutMapping("/keys/{key}/step")
	public StepChanged updateStep(@PathVariable String key, @Valid @RequestBody KeyStep request) {
		this.admin.updateStep(key, request.step());
		logger.info("Admin API set the step of segment key '{}' to {}", LogSafe.escape(key), request.step());
		return new StepChanged(key, request.step());
	}

	/**
	 * A key name, first ID or step the store refuses: 400.
	 */
	@ExceptionHandler
	ResponseEntity<ProblemDetail> refused(IllegalArgumentException ex) {
		ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST, ex.getMessage());
		problem.setTitle("Invalid key");
		problem.setProperty("code", "invalid-key");
		return ResponseEntity.badRequest().body(problem);
	}

	/**
	 * The store's keys.
	 *
	 * @param keys the key names, sorted
	 */
	public record Keys(List<String> keys) {
	}

	/**
	 * A key to create.
	 *
	 * @param key the key name (Leaf's {@code biz_tag})
	 * @param firstId the first ID it issues; 1 when absent
	 * @param step IDs fetched from the store at once; 1000 when absent
	 * @param description free text for operators
	 */
	public record CreateKey(@NotBlank @Size(max = 128) String key, @Nullable @PositiveOrZero Long firstId,
			@Nullable @Min(1) @Max(MAX_STEP) Integer step, @Nullable @Size(max = 256) String description) {
	}

	/**
	 * A key as created.
	 *
	 * @param key the key name
	 * @param firstId the first ID it issues
	 * @param step IDs fetched from the store at once
	 * @param description free text for operators
	 */
	public record CreatedKey(String key, long firstId, int step, String description) {
	}

	/**
	 * The step of a key.
	 *
	 * @param step IDs fetched from the store at once
	 */
	public record KeyStep(@Min(1) @Max(MAX_STEP) int step) {
	}

	/**
	 * A key whose step was changed.
	 *
	 * @param key the key name
	 * @param step IDs fetched from the store at once from now on
	 */
	public record StepChanged(String key, int step) {
	}

}
