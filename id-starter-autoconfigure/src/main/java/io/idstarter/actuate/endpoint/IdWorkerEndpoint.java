package io.idstarter.actuate.endpoint;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.idstarter.lease.LeaseStatus;
import io.idstarter.lease.WorkerLeaseKeeper;
import io.idstarter.segment.PeriodicNumbers;
import io.idstarter.segment.SegmentBufferView;
import io.idstarter.segment.SegmentIdGenerator;
import io.idstarter.segment.SegmentView;
import io.idstarter.snowflake.SnowflakeIdGenerator;
import io.idstarter.snowflake.SnowflakeLayout;
import io.idstarter.store.http.IdServerStatus;
import io.idstarter.store.http.IdServerStatuses;
import io.idstarter.time.TimeSource;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.actuate.endpoint.OperationResponseBody;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;

/**
 * {@link Endpoint @Endpoint} that shows the state of the ID generators: the Snowflake layout, worker ID and lease,
 * and the double buffer of every segment key. Read-only.
 *
 * @since 0.1.0
 */
@Endpoint(id = "idworker")
public class IdWorkerEndpoint {

	private final List<String> modes;

	private final @Nullable SnowflakeIdGenerator snowflake;

	private final @Nullable WorkerLeaseKeeper lease;

	private final @Nullable SegmentIdGenerator segments;

	private final TimeSource time;

	private final @Nullable IdServerStatuses servers;

	private final @Nullable PeriodicNumbers periodic;

	/**
	 * Creates the endpoint for the generators the application has.
	 * @param modes the modes the application turned on, for display
	 * @param snowflake the Snowflake generator, or {@code null}
	 * @param lease the keeper of the Snowflake generator's worker ID, or {@code null} for a fixed worker ID
	 * @param segments the segment generator, or {@code null}
	 * @param time the clock the lease keeper uses, to compute the time left on the lease
	 */
	public IdWorkerEndpoint(List<String> modes, @Nullable SnowflakeIdGenerator snowflake,
			@Nullable WorkerLeaseKeeper lease, @Nullable SegmentIdGenerator segments, TimeSource time) {
		this(modes, snowflake, lease, segments, time, null);
	}

	/**
	 * Creates the endpoint for the generators the application has, in client mode.
	 * @param modes the modes the application turned on, for display
	 * @param snowflake the Snowflake generator, or {@code null}
	 * @param lease the keeper of the Snowflake generator's worker ID, or {@code null} for a fixed worker ID
	 * @param segments the segment generator, or {@code null}
	 * @param time the clock the lease keeper uses, to compute the time left on the lease
	 * @param servers the ID servers the stores call in client mode, or {@code null}
	 */
	public IdWorkerEndpoint(List<String> modes, @Nullable SnowflakeIdGenerator snowflake,
			@Nullable WorkerLeaseKeeper lease, @Nullable SegmentIdGenerator segments, TimeSource time,
			@Nullable IdServerStatuses servers) {
		this(modes, snowflake, lease, segments, time, servers, null);
	}

	/**
	 * Creates the endpoint for the generators the application has, with its periodic keys.
	 * @param modes the modes the application turned on, for display
	 * @param snowflake the Snowflake generator, or {@code null}
	 * @param lease the keeper of the Snowflake generator's worker ID, or {@code null} for a fixed worker ID
	 * @param segments the segment generator, or {@code null}
	 * @param time the clock the lease keeper uses, to compute the time left on the lease
	 * @param servers the ID servers the stores call in client mode, or {@code null}
	 * @param periodic the periodic keys over the segment generator, or {@code null}
	 */
	public IdWorkerEndpoint(List<String> modes, @Nullable SnowflakeIdGenerator snowflake,
			@Nullable WorkerLeaseKeeper lease, @Nullable SegmentIdGenerator segments, TimeSource time,
			@Nullable IdServerStatuses servers, @Nullable PeriodicNumbers periodic) {
		this.periodic = periodic;
		this.servers = servers;
		this.modes = List.copyOf(modes);
		this.snowflake = snowflake;
		this.lease = lease;
		this.segments = segments;
		this.time = time;
	}

	/**
	 * Returns the state of every generator.
	 * @return the modes, the Snowflake generator and its lease ({@code null} without one), and every segment key
	 * ({@code null} without a segment generator)
	 */
	@ReadOperation
	public IdWorkerDescriptor idWorker() {
		SnowflakeDescriptor snowflake = (this.snowflake != null) ? snowflake(this.snowflake) : null;
		SegmentsDescriptor segments = null;
		if (this.segments != null) {
			Map<String, KeyDescriptor> keys = new LinkedHashMap<>();
			for (SegmentBufferView view : this.segments.views()) {
				keys.put(view.key(), KeyDescriptor.of(view));
			}
			segments = new SegmentsDescriptor(keys, periodic());
		}
		ServersDescriptor servers = null;
		if (this.servers != null) {
			servers = new ServersDescriptor(this.servers.currentServer(), this.servers.servers());
		}
		return new IdWorkerDescriptor(this.modes, snowflake, segments, servers);
	}

	/**
	 * Returns the state of one segment key.
	 * @param key the segment key
	 * @return the key's double buffer, or {@code null} if there is no segment generator or it does not know the key
	 */
	@ReadOperation
	public @Nullable KeyDescriptor key(@Selector String key) {
		if (this.segments == null) {
			return null;
		}
		return this.segments.view(key).map(KeyDescriptor::of).orElse(null);
	}

	private Map<String, PeriodicDescriptor> periodic() {
		Map<String, PeriodicDescriptor> described = new LinkedHashMap<>();
		PeriodicNumbers numbers = this.periodic;
		if (numbers != null) {
			numbers.keys().forEach((name, key) -> described.put(name,
					new PeriodicDescriptor(key.reset().name(), key.formatter().toString(), numbers.zone().getId(),
							numbers.currentSegmentKey(name), key.firstId(), key.step(), key.retention())));
		}
		return described;
	}

	private SnowflakeDescriptor snowflake(SnowflakeIdGenerator snowflake) {
		SnowflakeLayout layout = snowflake.layout();
		long lastTimestamp = snowflake.lastTimestamp();
		LeaseDescriptor lease = (this.lease != null) ? lease(this.lease.status()) : null;
		return new SnowflakeDescriptor(layout.toString(), layout.epoch(), layout.timestampBits(),
				layout.workerIdBits(), layout.sequenceBits(),
				snowflake.workerId().isPresent() ? snowflake.workerId().getAsInt() : null,
				(lastTimestamp >= 0) ? Instant.ofEpochMilli(lastTimestamp) : null, snowflake.issuedCount(),
				snowflake.policy().toString(), lease);
	}

	private LeaseDescriptor lease(LeaseStatus status) {
		Instant issuingUntil = status.issuingUntil();
		Long remainingMillis = null;
		if (issuingUntil != null) {
			boolean refusing = status.state() == LeaseStatus.State.LOST
					|| status.state() == LeaseStatus.State.CLOCK_SKEWED
					|| status.state() == LeaseStatus.State.STORE_REGRESSED;
			remainingMillis = refusing ? 0L : Math.max(issuingUntil.toEpochMilli() - this.time.currentTimeMillis(), 0);
		}
		Duration offset = status.clockOffset();
		return new LeaseDescriptor(status.state().name(), status.namespace(),
				(status.workerId() >= 0) ? status.workerId() : null, status.leaseExpiry(), issuingUntil,
				remainingMillis, status.lastRenewal(), status.consecutiveFailures(),
				(offset != null) ? offset.toMillis() : null);
	}

	/**
	 * State of the generators.
	 *
	 * @param modes the modes the application turned on
	 * @param snowflake the Snowflake generator, or {@code null} without one
	 * @param segment the segment generator, or {@code null} without one
	 * @param servers the ID servers of client mode, or {@code null} when no store calls them
	 */
	public record IdWorkerDescriptor(List<String> modes, @Nullable SnowflakeDescriptor snowflake,
			@Nullable SegmentsDescriptor segment, @Nullable ServersDescriptor servers) implements OperationResponseBody {

		/**
		 * Creates the state of an application that calls no ID server.
		 * @param modes the modes the application turned on
		 * @param snowflake the Snowflake generator, or {@code null} without one
		 * @param segment the segment generator, or {@code null} without one
		 */
		public IdWorkerDescriptor(List<String> modes, @Nullable SnowflakeDescriptor snowflake,
				@Nullable SegmentsDescriptor segment) {
			this(modes, snowflake, segment, null);
		}

	}

	/**
	 * The ID servers a client-mode application calls.
	 *
	 * @param current the server calls go to first
	 * @param servers every server with its calls, failed calls and latest error
	 */
	public record ServersDescriptor(String current, List<IdServerStatus> servers) {
	}

	/**
	 * State of the Snowflake generator.
	 *
	 * @param layout the layout's capacity: workers, IDs per millisecond, and until when IDs can be issued
	 * @param epoch the instant timestamp 0 stands for
	 * @param timestampBits bits of milliseconds since the epoch
	 * @param workerIdBits bits of worker ID
	 * @param sequenceBits bits of sequence within a millisecond
	 * @param workerId the worker ID the generator issues under, or {@code null} when it has none (refusing IDs)
	 * @param lastTimestamp the timestamp of the last ID issued (or reserved), or {@code null} before the first
	 * @param issuedCount the IDs issued since start
	 * @param clockBackwards what the generator does when the clock moves backwards
	 * @param lease the worker-ID lease, or {@code null} for a fixed worker ID
	 */
	public record SnowflakeDescriptor(String layout, Instant epoch, int timestampBits, int workerIdBits,
			int sequenceBits, @Nullable Integer workerId, @Nullable Instant lastTimestamp, long issuedCount,
			String clockBackwards, @Nullable LeaseDescriptor lease) {
	}

	/**
	 * State of the worker-ID lease.
	 *
	 * @param state {@code NOT_STARTED}, {@code ACTIVE}, {@code RENEWAL_FAILING}, {@code CLOCK_SKEWED}, {@code LOST}
	 * or {@code CLOSED}
	 * @param namespace the lease namespace
	 * @param workerId the worker ID held or last held, or {@code null} if none yet
	 * @param expiry when the store lets the lease expire unless it is renewed, by this node's clock
	 * @param issuingUntil when this node stops issuing unless the lease is renewed, by this node's clock
	 * @param remainingMillis milliseconds until {@code issuingUntil}; 0 while IDs are refused (lost, clock skewed)
	 * @param lastRenewal when the lease was last borrowed or renewed
	 * @param consecutiveFailures store calls that failed in a row since the last success
	 * @param clockOffsetMillis the store's clock minus this node's, in milliseconds
	 */
	public record LeaseDescriptor(String state, String namespace, @Nullable Integer workerId,
			@Nullable Instant expiry, @Nullable Instant issuingUntil, @Nullable Long remainingMillis,
			@Nullable Instant lastRenewal, int consecutiveFailures, @Nullable Long clockOffsetMillis) {
	}

	/**
	 * State of the segment generator.
	 *
	 * @param keys every known key, sorted by name; a periodic key's periods appear as {@code <key>:<stamp>}
	 * @param periodic the periodic keys, by name; empty without any
	 */
	public record SegmentsDescriptor(Map<String, KeyDescriptor> keys, Map<String, PeriodicDescriptor> periodic) {

		/**
		 * Creates the state of a segment generator without periodic keys.
		 * @param keys every known key, sorted by name
		 */
		public SegmentsDescriptor(Map<String, KeyDescriptor> keys) {
			this(keys, Map.of());
		}

	}

	/**
	 * A periodic key.
	 *
	 * @param reset {@code DAILY}, {@code MONTHLY} or {@code YEARLY}
	 * @param format the format of its strings
	 * @param zone the zone whose midnight starts a period
	 * @param currentSegmentKey the segment key of the period the clock is in now, {@code <key>:<stamp>}
	 * @param firstId the first number of each period
	 * @param step the step of each period's segment key
	 * @param retention how long after its end a period's segment key is kept
	 */
	public record PeriodicDescriptor(String reset, String format, String zone, String currentSegmentKey,
			long firstId, int step, Duration retention) {
	}

	/**
	 * State of one segment key's double buffer.
	 *
	 * @param key the key
	 * @param current the segment IDs are taken from, or {@code null} if the key has not been used yet
	 * @param next the segment fetched ahead, or {@code null} if there is none yet
	 * @param step the size requested at the latest fetch (the dynamic step)
	 * @param configuredStep the key's step in the store
	 * @param remaining the numbers left in memory, in both segments
	 * @param lastFetchTime when the latest successful fetch finished, or {@code null}
	 * @param lastFetchMillis how long the latest successful store call took, in milliseconds, or {@code null}
	 * @param issuedCount the IDs this instance handed out for the key
	 * @param fetchInFlight whether a fetch of the next segment is running or waiting to retry
	 * @param lastErrorCode the kind of the store's error since the latest successful fetch
	 * ({@link SegmentBufferView#lastErrorCode()}), or {@code null}; its text, which may name tables, hosts and
	 * connection URLs, is in the log only
	 * @param lastErrorTime when that error happened, or {@code null}
	 */
	public record KeyDescriptor(String key, @Nullable SegmentDescriptor current, @Nullable SegmentDescriptor next,
			int step, int configuredStep, long remaining, @Nullable Instant lastFetchTime,
			@Nullable Long lastFetchMillis, long issuedCount, boolean fetchInFlight, @Nullable String lastErrorCode,
			@Nullable Instant lastErrorTime) implements OperationResponseBody {

		static KeyDescriptor of(SegmentBufferView view) {
			SegmentDescriptor current = SegmentDescriptor.of(view.current());
			SegmentDescriptor next = SegmentDescriptor.of(view.next());
			long remaining = ((current != null) ? current.remaining() : 0) + ((next != null) ? next.remaining() : 0);
			Duration fetch = view.lastFetchDuration();
			return new KeyDescriptor(view.key(), current, next, view.step(), view.configuredStep(), remaining,
					view.lastFetchTime(), (fetch != null) ? fetch.toMillis() : null, view.issuedCount(),
					view.fetchInFlight(), view.lastErrorCode(), view.lastErrorTime());
		}

	}

	/**
	 * A segment: the numbers {@code [start, end)}.
	 *
	 * @param start first number (inclusive)
	 * @param end first number past the segment (exclusive)
	 * @param nextValue the number handed out next
	 * @param remaining numbers left
	 */
	public record SegmentDescriptor(long start, long end, long nextValue, long remaining) {

		static @Nullable SegmentDescriptor of(@Nullable SegmentView view) {
			if (view == null) {
				return null;
			}
			return new SegmentDescriptor(view.start(), view.end(), Math.min(view.nextValue(), view.end()),
					Math.max(view.remaining(), 0));
		}

	}

}
