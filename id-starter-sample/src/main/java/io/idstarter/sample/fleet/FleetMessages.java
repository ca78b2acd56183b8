package io.idstarter.sample.fleet;

import java.util.Set;
import java.time.Duration;

import io.idstarter.lease.WorkerLease;
import io.idstarter.segment.SegmentAllocation;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import org.jspecify.annotations.Nullable;

/**
 * The JSON bodies of the fleet API. Times are milliseconds (since the Unix epoch for instants), so that every client
 * reads them the same way.
 */
public final class FleetMessages {

	/** Longest lease a client may ask for. */
	static final long MAX_TTL_MILLIS = 3_600_000;

	/** What a request ID may look like: a UUID or any short token without spaces. */
	static final String REQUEST_ID = "[A-Za-z0-9._:-]{8,64}";

	/** Most slots one borrow may exclude. */
	static final int MAX_EXCLUDED_WORKER_IDS = 1024;

	private FleetMessages() {
	}

	/**
	 * A request for the next range of a key.
	 *
	 * @param step the size of the range; the key's step in the store when absent
	 * @param requestId chosen by the client, the same on every retry of one request: a retry that reaches this
	 * server again gets the range of the first attempt
	 */
	public record RangeRequest(@Nullable @Min(1) @Max(1_000_000_000) Integer step,
			@Nullable @Pattern(regexp = REQUEST_ID) String requestId) {
	}

	/**
	 * A range of a key: {@code [start, end)}.
	 *
	 * @param key the key
	 * @param start first ID of the range
	 * @param end first ID past the range
	 * @param configuredStep the key's step in the store
	 */
	public record Range(String key, long start, long end, int configuredStep) {

		static Range of(SegmentAllocation allocation) {
			return new Range(allocation.key(), allocation.start(), allocation.end(), allocation.configuredStep());
		}

	}

	/**
	 * The store's keys.
	 *
	 * @param keys the key names, sorted
	 */
	public record Keys(java.util.List<String> keys) {
	}

	/**
	 * A request to borrow a worker ID: {@link io.idstarter.lease.LeaseRequest} as JSON.
	 *
	 * @param namespace the slot space
	 * @param maxWorkerId the greatest worker ID of the client's layout; at most the server's
	 * @param ttlMillis lease duration without renewal
	 * @param preferredWorkerId the slot the client held before, or -1
	 * @param instance who borrows (host and process)
	 * @param timestampCeiling the greatest timestamp the client wants to issue until its first renewal; at most the
	 * server's clock plus the TTL plus its clock allowance
	 * @param excludedWorkerIds slots the store must not hand out to this request (none if absent)
	 * @param requestId chosen by the client, the same on every retry: a retry that reaches this server again gets the
	 * lease of the first attempt instead of a second worker ID
	 */
	public record BorrowRequest(@NotBlank @Size(max = 128) String namespace, @Min(0) int maxWorkerId,
			@Min(1000) @Max(MAX_TTL_MILLIS) long ttlMillis, @Min(-1) int preferredWorkerId,
			@NotNull @Size(max = 256) String instance, long timestampCeiling,
			@Nullable @Size(max = MAX_EXCLUDED_WORKER_IDS) Set<Integer> excludedWorkerIds,
			@Nullable @Pattern(regexp = REQUEST_ID) String requestId) {
	}

	/**
	 * A worker lease: {@link WorkerLease} as JSON.
	 *
	 * @param namespace the slot space
	 * @param workerId the slot
	 * @param ownerToken the token that proves ownership on renew and release
	 * @param ttlMillis lease duration without renewal
	 * @param timestampFloor the greatest timestamp a previous owner may have issued
	 * @param timestampCeiling the greatest timestamp the owner may issue until its next renewal
	 * @param storeTimeMillis the store's clock when it granted or renewed the lease
	 */
	public record Lease(@NotBlank @Size(max = 128) String namespace, @Min(0) int workerId,
			@NotBlank @Size(max = 128) String ownerToken, @Min(1000) @Max(MAX_TTL_MILLIS) long ttlMillis,
			long timestampFloor, long timestampCeiling, long storeTimeMillis) {

		static Lease of(WorkerLease lease) {
			return new Lease(lease.namespace(), lease.workerId(), lease.ownerToken(), lease.ttl().toMillis(),
					lease.timestampFloor(), lease.timestampCeiling(), lease.storeTimeMillis());
		}

		WorkerLease toWorkerLease(long floor) {
			return new WorkerLease(this.namespace, this.workerId, this.ownerToken, Duration.ofMillis(this.ttlMillis),
					floor, this.timestampCeiling, this.storeTimeMillis);
		}

	}

	/**
	 * A request to renew a lease.
	 *
	 * @param lease the lease held now
	 * @param timestampCeiling the greatest timestamp the owner wants to issue until its next renewal
	 */
	public record RenewRequest(@NotNull @Valid Lease lease, long timestampCeiling) {
	}

	/**
	 * A request to give a lease back.
	 *
	 * @param lease the lease held now
	 * @param lastIssuedTimestamp the greatest timestamp issued under it, or -1 if unknown
	 */
	public record ReleaseRequest(@NotNull @Valid Lease lease, @Min(-1) long lastIssuedTimestamp) {
	}

}
