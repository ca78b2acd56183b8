package io.idstarter.sample.monitor;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import io.idstarter.lease.LeaseStatus;
import io.idstarter.lease.WorkerLeaseKeeper;
import io.idstarter.sample.fleet.FleetActivity;
import io.idstarter.segment.PeriodicNumbers;
import io.idstarter.segment.SegmentBufferView;
import io.idstarter.segment.SegmentIdGenerator;
import io.idstarter.segment.SegmentView;
import io.idstarter.snowflake.SnowflakeIdGenerator;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.http.CacheControl;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The JSON the monitor page polls: {@code GET /api/monitor}. Read-only and cheap: snapshots of in-memory state, no
 * store call.
 */
@RestController
public class MonitorController {

	private final SegmentIdGenerator segments;

	private final SnowflakeIdGenerator snowflake;

	private final @Nullable WorkerLeaseKeeper leaseKeeper;

	private final IssueRates rates;

	private final FleetActivity fleet;

	private final @Nullable PeriodicNumbers periodic;

	MonitorController(SegmentIdGenerator segments, SnowflakeIdGenerator snowflake,
			ObjectProvider<WorkerLeaseKeeper> leaseKeeper, IssueRates rates, FleetActivity fleet,
			ObjectProvider<PeriodicNumbers> periodic) {
		this.fleet = fleet;
		this.periodic = periodic.getIfUnique();
		this.segments = segments;
		this.snowflake = snowflake;
		this.leaseKeeper = leaseKeeper.getIfUnique();
		this.rates = rates;
	}

	/**
	 * Returns the state of the segment keys and of the Snowflake generator, as anyone may see it.
	 * @return a snapshot, never cached by clients
	 */
	@GetMapping("/api/monitor")
	public ResponseEntity<MonitorSnapshot> monitor() {
		return ResponseEntity.ok().cacheControl(CacheControl.noStore()).body(snapshot(false));
	}

	/**
	 * Returns a snapshot of the segment keys, the Snowflake generator and the fleet.
	 * @param forOperators whether to include what only operators may see: store errors' text, and which fleet
	 * client holds what in which namespace
	 * @return the snapshot
	 */
	public MonitorSnapshot snapshot(boolean forOperators) {
		List<MonitorSnapshot.SegmentKey> keys = this.segments.views()
			.stream()
			.map((view) -> segmentKey(view, forOperators))
			.toList();
		return new MonitorSnapshot(Instant.now(), keys, snowflake(), fleet(forOperators), periodicKeys());
	}

	private List<MonitorSnapshot.PeriodicKey> periodicKeys() {
		PeriodicNumbers numbers = this.periodic;
		if (numbers == null) {
			return List.of();
		}
		List<MonitorSnapshot.PeriodicKey> keys = new ArrayList<>();
		numbers.keys().forEach((name, key) -> keys.add(new MonitorSnapshot.PeriodicKey(name, key.reset().name(),
				key.formatter().toString(), numbers.zone().getId(), numbers.currentSegmentKey(name),
				retention(key.retention()))));
		return keys;
	}

	/** Whole days as {@code 35d}, whole hours as {@code 12h}, anything else in ISO-8601. */
	private static String retention(Duration retention) {
		if (!retention.isZero() && retention.equals(Duration.ofDays(retention.toDays()))) {
			return retention.toDays() + "d";
		}
		if (retention.equals(Duration.ofHours(retention.toHours()))) {
			return retention.toHours() + "h";
		}
		return retention.toString();
	}

	private MonitorSnapshot.SegmentKey segmentKey(SegmentBufferView view, boolean forOperators) {
		MonitorSnapshot.Range current = range(view.current());
		MonitorSnapshot.Range next = range(view.next());
		long remaining = ((current != null) ? current.remaining() : 0) + ((next != null) ? next.remaining() : 0);
		Duration fetch = view.lastFetchDuration();
		return new MonitorSnapshot.SegmentKey(view.key(), view.loaded(), current, next, view.step(),
				view.configuredStep(), remaining, view.issuedCount(), this.rates.segmentRate(view.key()),
				view.lastFetchTime(), (fetch != null) ? fetch.toNanos() / 1e6 : null, view.fetchInFlight(),
				view.lastErrorCode(), view.lastErrorTime(), forOperators ? view.lastError() : null);
	}

	private static MonitorSnapshot.@Nullable Range range(@Nullable SegmentView segment) {
		if (segment == null) {
			return null;
		}
		return new MonitorSnapshot.Range(segment.start(), segment.end(), segment.nextValue(), segment.remaining(),
				segment.size());
	}

	/**
	 * Counts for anyone; for operators also client names, namespaces and keys (the holders' hosts stay in the log).
	 */
	private MonitorSnapshot.Fleet fleet(boolean forOperators) {
		List<MonitorSnapshot.FleetWorker> workers = this.fleet.holders()
			.stream()
			.map((holder) -> new MonitorSnapshot.FleetWorker(holder.client(), holder.namespace(), holder.workerId(),
					holder.lastSeen(), holder.expiry()))
			.toList();
		List<MonitorSnapshot.FleetDraws> draws = this.fleet.draws()
			.stream()
			.map((draw) -> new MonitorSnapshot.FleetDraws(draw.client(), draw.key(), draw.lastStart(),
					draw.lastEnd(), draw.ranges(), draw.ids(), draw.lastDraw()))
			.toList();
		Set<String> clients = new HashSet<>();
		workers.forEach((worker) -> clients.add(worker.client()));
		draws.forEach((draw) -> clients.add(draw.client()));
		long ranges = draws.stream().mapToLong(MonitorSnapshot.FleetDraws::ranges).sum();
		long ids = draws.stream().mapToLong(MonitorSnapshot.FleetDraws::ids).sum();
		return new MonitorSnapshot.Fleet(clients.size(), workers.size(), ranges, ids,
				forOperators ? workers : null, forOperators ? draws : null);
	}

	private MonitorSnapshot.Snowflake snowflake() {
		long lastTimestamp = this.snowflake.lastTimestamp();
		Integer workerId = this.snowflake.workerId().isPresent() ? this.snowflake.workerId().getAsInt() : null;
		return new MonitorSnapshot.Snowflake(workerId, this.snowflake.issuedCount(), this.rates.snowflakeRate(),
				(lastTimestamp >= 0) ? Instant.ofEpochMilli(lastTimestamp) : null,
				this.snowflake.layout().toString(), lease());
	}

	private MonitorSnapshot.@Nullable Lease lease() {
		if (this.leaseKeeper == null) {
			return null;
		}
		LeaseStatus status = this.leaseKeeper.status();
		Duration offset = status.clockOffset();
		return new MonitorSnapshot.Lease(status.state().name(), status.namespace(), status.workerId(),
				status.leaseExpiry(), status.issuingUntil(), status.lastRenewal(), status.consecutiveFailures(),
				(offset != null) ? offset.toMillis() : null);
	}

}
