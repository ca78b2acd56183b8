package io.idstarter.actuate.health;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.idstarter.lease.LeaseStatus;
import io.idstarter.lease.WorkerLeaseKeeper;
import io.idstarter.segment.SegmentBufferView;
import io.idstarter.segment.SegmentIdGenerator;
import io.idstarter.segment.SegmentMarksException;
import io.idstarter.segment.SegmentView;
import io.idstarter.snowflake.SnowflakeIdGenerator;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;

/**
 * {@link HealthIndicator} of the ID generators: whether they can issue IDs now.
 *
 * <ul>
 * <li>Snowflake with a leased worker ID: {@code UP} while the lease is held (also while renewals fail but the lease
 * has time left), {@code DOWN} once it is lost or has run out, or while this node's clock is too far from the
 * store's ({@code CLOCK_SKEWED}), or for good once another program claimed a worker ID it held ({@code alarm}:
 * IDs may have been issued twice), {@code UNKNOWN} before the keeper started,
 * {@code OUT_OF_SERVICE} after it closed. Snowflake without a lease keeper: {@code UP} with a worker ID,
 * {@code DOWN} without.</li>
 * <li>Segments: {@code DOWN} when a key has used up both its segments and the fetch of the next one failed (callers
 * of that key fail); keys whose fetch fails but that still have numbers in memory are listed, the status stays
 * {@code UP}. Also {@code DOWN} while the store has lost writes of a key: it answered with a segment below the end of
 * the highest segment this node was given ({@code refused}), or no longer has a key this node was given segments of
 * ({@code missing}). And {@code DOWN} while this node's marks file cannot be written ({@code marksFile}): ranges
 * wait for their marks, and callers fail once the segments in memory are used up.</li>
 * </ul>
 * A key's store error is shown as its code and time ({@link SegmentBufferView#lastErrorCode()}), never its text:
 * health is often open to load balancers and anyone, and the text may name tables, hosts and connection URLs.
 * The worst part decides, in the order {@code DOWN}, {@code OUT_OF_SERVICE}, {@code UNKNOWN}, {@code UP}.
 *
 * @since 0.1.0
 */
public class IdWorkerHealthIndicator extends AbstractHealthIndicator {

	/**
	 * How long before the layout's last millisecond the status is DOWN: a day to take the instance out of service
	 * before it refuses every ID.
	 */
	public static final Duration LAYOUT_DOWN_BEFORE = Duration.ofDays(1);

	private static final List<Status> SEVERITY = List.of(Status.DOWN, Status.OUT_OF_SERVICE, Status.UNKNOWN,
			Status.UP);

	private final @Nullable SnowflakeIdGenerator snowflake;

	private final @Nullable WorkerLeaseKeeper lease;

	private final @Nullable SegmentIdGenerator segments;

	/** How long before the Snowflake layout runs out health starts to warn. */
	private final Duration layoutWarning;

	/**
	 * Creates the indicator for the generators the application has, warning a year before the layout runs out.
	 * @param snowflake the Snowflake generator, or {@code null}
	 * @param lease the keeper of the Snowflake generator's worker ID, or {@code null} for a fixed worker ID
	 * @param segments the segment generator, or {@code null}
	 */
	public IdWorkerHealthIndicator(@Nullable SnowflakeIdGenerator snowflake, @Nullable WorkerLeaseKeeper lease,
			@Nullable SegmentIdGenerator segments) {
		this(snowflake, lease, segments, SnowflakeIdGenerator.DEFAULT_LAYOUT_WARNING);
	}

	/**
	 * Creates the indicator for the generators the application has.
	 * @param snowflake the Snowflake generator, or {@code null}
	 * @param lease the keeper of the Snowflake generator's worker ID, or {@code null} for a fixed worker ID
	 * @param segments the segment generator, or {@code null}
	 * @param layoutWarning how long before the Snowflake layout's timestamps run out to warn (a detail
	 * {@code layoutWarning}, status still UP); in the last {@link #LAYOUT_DOWN_BEFORE} the status is DOWN
	 * @since 0.2.0
	 */
	public IdWorkerHealthIndicator(@Nullable SnowflakeIdGenerator snowflake, @Nullable WorkerLeaseKeeper lease,
			@Nullable SegmentIdGenerator segments, Duration layoutWarning) {
		super("ID generator health check failed");
		this.snowflake = snowflake;
		this.lease = lease;
		this.segments = segments;
		this.layoutWarning = layoutWarning;
	}

	@Override
	protected void doHealthCheck(Health.Builder builder) {
		Status status = Status.UP;
		if (this.snowflake != null) {
			Map<String, Object> details = new LinkedHashMap<>();
			status = worst(status, snowflake(this.snowflake, details));
			builder.withDetail("snowflake", details);
		}
		if (this.segments != null) {
			Map<String, Object> details = new LinkedHashMap<>();
			status = worst(status, segments(this.segments, details));
			builder.withDetail("segment", details);
		}
		builder.status(status);
	}

	private Status snowflake(SnowflakeIdGenerator snowflake, Map<String, Object> details) {
		Status layout = layout(snowflake, details);
		return worst(layout, worker(snowflake, details));
	}

	private Status layout(SnowflakeIdGenerator snowflake, Map<String, Object> details) {
		Instant runsOut = snowflake.layout().exhaustedAt();
		Duration remaining = snowflake.layoutRemaining();
		details.put("layoutRunsOutAt", runsOut);
		if (remaining.compareTo(this.layoutWarning) >= 0) {
			return Status.UP;
		}
		details.put("layoutWarning", "the Snowflake layout's timestamps run out at " + runsOut + ", in "
				+ Math.max(0, remaining.toDays()) + " days; no ID can be issued after that: plan a layout change "
				+ "(docs/snowflake.md, \"Changing a layout\")");
		return (remaining.compareTo(LAYOUT_DOWN_BEFORE) < 0) ? Status.DOWN : Status.UP;
	}

	private Status worker(SnowflakeIdGenerator snowflake, Map<String, Object> details) {
		WorkerLeaseKeeper lease = this.lease;
		if (lease == null) {
			if (snowflake.workerId().isPresent()) {
				details.put("workerId", snowflake.workerId().getAsInt());
				return Status.UP;
			}
			details.put("error", "no worker ID granted");
			return Status.DOWN;
		}
		LeaseStatus status = lease.status();
		details.put("workerId", status.workerId());
		details.put("lease", status.state());
		details.put("namespace", status.namespace());
		putIfPresent(details, "leaseExpiry", status.leaseExpiry());
		putIfPresent(details, "issuingUntil", status.issuingUntil());
		putIfPresent(details, "lastRenewal", status.lastRenewal());
		if (status.consecutiveFailures() > 0) {
			details.put("failedRenewals", status.consecutiveFailures());
		}
		String alarm = lease.alarm();
		if (alarm != null) {
			details.put("alarm", alarm);
			return Status.DOWN;
		}
		return switch (status.state()) {
			case ACTIVE, RENEWAL_FAILING -> Status.UP;
			case CLOCK_SKEWED, LOST, STORE_REGRESSED -> Status.DOWN;
			case NOT_STARTED -> Status.UNKNOWN;
			case CLOSED -> Status.OUT_OF_SERVICE;
		};
	}

	private static Status segments(SegmentIdGenerator segments, Map<String, Object> details) {
		Map<String, Object> exhausted = new LinkedHashMap<>();
		Map<String, Object> failing = new LinkedHashMap<>();
		List<SegmentBufferView> views = segments.views();
		for (SegmentBufferView view : views) {
			String code = view.lastErrorCode();
			if (!view.loaded() || code == null) {
				continue;
			}
			long remaining = remaining(view.current()) + remaining(view.next());
			Map<String, Object> error = new LinkedHashMap<>();
			error.put("error", code);
			putIfPresent(error, "since", view.lastErrorTime());
			if (remaining == 0) {
				exhausted.put(view.key(), error);
			}
			else {
				error.put("remaining", remaining);
				failing.put(view.key(), error);
			}
		}
		Map<String, Object> refused = new LinkedHashMap<>();
		segments.refusedKeys().forEach((key, regression) -> refused.put(key, Map.of("knownMark",
				regression.knownMark(), "storeStart", regression.storeMark(), "error", "store-regressed")));
		Map<String, Long> missing = segments.missingKeys();
		details.put("keys", views.size());
		if (!exhausted.isEmpty()) {
			details.put("exhausted", exhausted);
		}
		if (!failing.isEmpty()) {
			details.put("fetchFailing", failing);
		}
		if (!refused.isEmpty()) {
			details.put("refused", refused);
		}
		if (!missing.isEmpty()) {
			details.put("missing", missing);
		}
		Optional<SegmentMarksException> marksFailure = segments.marks().writeFailure();
		marksFailure.ifPresent((failure) -> details.put("marksFile",
				Map.of("file", failure.file().toString(), "error", failure.getMessage())));
		boolean healthy = exhausted.isEmpty() && refused.isEmpty() && missing.isEmpty() && marksFailure.isEmpty();
		return healthy ? Status.UP : Status.DOWN;
	}

	private static long remaining(@Nullable SegmentView segment) {
		return (segment != null) ? Math.max(segment.remaining(), 0) : 0;
	}

	private static void putIfPresent(Map<String, Object> details, String name, @Nullable Object value) {
		if (value != null) {
			details.put(name, value);
		}
	}

	private static Status worst(Status a, Status b) {
		return (SEVERITY.indexOf(a) <= SEVERITY.indexOf(b)) ? a : b;
	}

}
