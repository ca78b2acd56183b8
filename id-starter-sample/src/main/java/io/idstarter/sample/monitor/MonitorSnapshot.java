package io.idstarter.sample.monitor;

import java.time.Instant;
import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;
import org.jspecify.annotations.Nullable;

/**
 * What {@code GET /api/monitor} answers: the state of every segment key and of the Snowflake generator and its worker
 * lease. Open to anyone, it leaves out what only operators may see (a store error's text, which fleet client holds
 * what in which namespace); the admin API's {@code GET /api/admin/monitor} has those too.
 *
 * @param time when the snapshot was taken
 * @param segmentKeys the segment keys, sorted
 * @param snowflake the Snowflake generator
 * @param fleet the fleet clients served by this server
 * @param periodicKeys the periodic keys (numbers that start again every period), sorted; each period's segment key
 * is among {@code segmentKeys} once used
 */
public record MonitorSnapshot(Instant time, List<SegmentKey> segmentKeys, Snowflake snowflake, Fleet fleet,
		List<PeriodicKey> periodicKeys) {

	/**
	 * A key whose numbers start again every period.
	 *
	 * @param key the declared key
	 * @param reset {@code DAILY}, {@code MONTHLY} or {@code YEARLY}
	 * @param format the format of its strings
	 * @param zone the zone whose midnight starts a period
	 * @param currentSegmentKey the segment key of the period the clock is in now
	 * @param retention how long an ended period's segment key is kept, such as {@code 35d}
	 */
	public record PeriodicKey(String key, String reset, String format, String zone, String currentSegmentKey,
			String retention) {
	}

	/**
	 * What this server did for the applications in client mode (the fleet API): how many clients, worker IDs held
	 * and ranges drawn; for operators also which client holds which worker ID and draws which key, as granted through
	 * this server.
	 *
	 * @param clients clients that hold a worker ID or drew a range
	 * @param workersHeld worker IDs held by clients
	 * @param ranges ranges drawn by clients
	 * @param ids IDs in those ranges
	 * @param workers worker IDs held by clients, by namespace and worker ID; operators only
	 * @param draws ranges drawn per key and client; operators only
	 */
	public record Fleet(int clients, int workersHeld, long ranges, long ids,
			@JsonInclude(JsonInclude.Include.NON_NULL) @Nullable List<FleetWorker> workers,
			@JsonInclude(JsonInclude.Include.NON_NULL) @Nullable List<FleetDraws> draws) {
	}

	/**
	 * A worker ID a fleet client holds.
	 *
	 * @param client the client's configured name
	 * @param namespace the lease namespace
	 * @param workerId the worker ID
	 * @param lastSeen when this server granted or renewed it
	 * @param expiry when the lease runs out unless renewed
	 */
	public record FleetWorker(String client, String namespace, int workerId, Instant lastSeen, Instant expiry) {
	}

	/**
	 * The ranges of a key a fleet client drew through this server.
	 *
	 * @param client the client's configured name
	 * @param key the segment key
	 * @param lastStart first ID of the latest range
	 * @param lastEnd first ID past the latest range
	 * @param ranges how many ranges
	 * @param ids how many IDs they held
	 * @param lastDraw when the latest range was drawn
	 */
	public record FleetDraws(String client, String key, long lastStart, long lastEnd, long ranges, long ids,
			@Nullable Instant lastDraw) {
	}

	/**
	 * The double buffer of one segment key.
	 *
	 * @param key the key
	 * @param loaded whether the key has served an ID since the server started (ranges are fetched on first use)
	 * @param current the range IDs are taken from, or {@code null} before the first ID
	 * @param next the range fetched ahead, or {@code null} if none is ready
	 * @param step size requested at the latest fetch (the dynamic step)
	 * @param configuredStep the key's step in the store, the floor of the dynamic step
	 * @param remaining IDs left in memory: the rest of the current range plus the next range
	 * @param issuedCount IDs this server has handed out for the key since it loaded it
	 * @param idsPerSecond issue rate over the latest second
	 * @param lastFetchTime when the latest fetch from the store finished
	 * @param lastFetchMillis how long the latest fetch took, in milliseconds
	 * @param fetchInFlight whether a fetch is running (or waiting to retry)
	 * @param lastError the kind of the store's error since the latest successful fetch ({@code store-unavailable},
	 * ...), or {@code null}
	 * @param lastErrorTime when that error happened
	 * @param lastErrorMessage the error's text, which may name tables, hosts and connection URLs; operators only
	 */
	public record SegmentKey(String key, boolean loaded, @Nullable Range current, @Nullable Range next, int step,
			int configuredStep, long remaining, long issuedCount, double idsPerSecond, @Nullable Instant lastFetchTime,
			@Nullable Double lastFetchMillis, boolean fetchInFlight, @Nullable String lastError,
			@Nullable Instant lastErrorTime,
			@JsonInclude(JsonInclude.Include.NON_NULL) @Nullable String lastErrorMessage) {
	}

	/**
	 * A range of a segment key held in memory: {@code [start, end)}.
	 *
	 * @param start first ID of the range
	 * @param end first ID past the range
	 * @param nextValue the ID handed out next
	 * @param remaining IDs left
	 * @param size IDs in the range
	 */
	public record Range(long start, long end, long nextValue, long remaining, long size) {
	}

	/**
	 * The Snowflake generator.
	 *
	 * @param workerId the worker ID it issues under, or {@code null} when it holds none
	 * @param issuedCount IDs issued since the server started
	 * @param idsPerSecond issue rate over the latest second
	 * @param lastTimestamp time of the latest ID issued or reserved, or {@code null} before the first
	 * @param layout the bit layout and its capacity
	 * @param lease the worker lease, or {@code null} when the worker ID is not leased
	 */
	public record Snowflake(@Nullable Integer workerId, long issuedCount, double idsPerSecond,
			@Nullable Instant lastTimestamp, String layout, @Nullable Lease lease) {
	}

	/**
	 * The worker-ID lease of the Snowflake generator.
	 *
	 * @param state ACTIVE, RENEWAL_FAILING, LOST, CLOSED or NOT_STARTED
	 * @param namespace the lease namespace
	 * @param workerId the worker ID held or last held, -1 if none yet
	 * @param leaseExpiry when the store lets the lease expire unless it is renewed
	 * @param issuingUntil when this server stops issuing unless the lease is renewed
	 * @param lastRenewal when the lease was last borrowed or renewed
	 * @param consecutiveFailures store calls failed in a row
	 * @param clockOffsetMillis the store's clock minus this server's, in milliseconds
	 */
	public record Lease(String state, String namespace, int workerId, @Nullable Instant leaseExpiry,
			@Nullable Instant issuingUntil, @Nullable Instant lastRenewal, int consecutiveFailures,
			@Nullable Long clockOffsetMillis) {
	}

}
