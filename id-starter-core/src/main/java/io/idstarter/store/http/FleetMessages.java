package io.idstarter.store.http;

import java.time.Duration;
import java.util.List;
import java.util.Set;

import io.idstarter.lease.LeaseRequest;
import io.idstarter.lease.SlotMark;
import io.idstarter.lease.WorkerLease;
import io.idstarter.segment.SegmentAllocation;
import io.idstarter.snowflake.RecordedLayout;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import org.jspecify.annotations.Nullable;

/**
 * The JSON bodies of the fleet API, written by the ID server ({@code id-starter-sample}) and by its client
 * ({@link IdServerClient}, {@link HttpSegmentStore}, {@link HttpLeaseStore}). Times are milliseconds (since the Unix
 * epoch for instants), so that every client reads them the same way. The constraint annotations are the server's
 * checks of a request; without Jakarta Validation on the class path they are ignored.
 */
public final class FleetMessages {

	/** Longest lease a client may ask for. */
	public static final long MAX_TTL_MILLIS = 3_600_000;

	/** What a request ID may look like: a UUID or any short token without spaces. */
	public static final String REQUEST_ID = "[A-Za-z0-9._:-]{8,64}";

	/** Most slots one borrow may exclude. */
	public static final int MAX_EXCLUDED_WORKER_IDS = 1024;

	private FleetMessages() {
	}

	/**
	 * The client the credentials of a call belong to ({@code GET /api/fleet/whoami}).
	 *
	 * @param client the client's name in the server's {@code id-server.clients}
	 */
	public record ClientName(String client) {
	}

	/**
	 * A request for the next range of a key ({@code POST /api/fleet/segments/{key}/ranges}).
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

		/**
		 * Returns an allocation as JSON.
		 * @param allocation the store's allocation
		 * @return the range
		 */
		public static Range of(SegmentAllocation allocation) {
			return new Range(allocation.key(), allocation.start(), allocation.end(), allocation.configuredStep());
		}

		/**
		 * Returns the allocation this range stands for.
		 * @return the allocation
		 */
		public SegmentAllocation toAllocation() {
			return new SegmentAllocation(this.key, this.start, this.end, this.configuredStep);
		}

	}

	/**
	 * The store's keys granted to the client ({@code GET /api/fleet/segments}).
	 *
	 * @param keys the key names, sorted
	 */
	public record Keys(List<String> keys) {
	}

	/**
	 * A request to give back the unused tail {@code [cursor, end)} of a range
	 * ({@code POST /api/fleet/segments/{key}/give-back}): {@code SegmentStore.giveBack} over HTTP.
	 *
	 * @param cursor the first number of the range that was not handed out
	 * @param end the end of the range, as the server returned it
	 * @param requestId chosen by the client: a request that reaches the server again gets the first attempt's
	 * answer, and the give-back is not run a second time
	 */
	public record GiveBackRequest(@NotNull @Min(0) Long cursor, @NotNull @Min(0) Long end,
			@Nullable @Pattern(regexp = REQUEST_ID) String requestId) {
	}

	/**
	 * The answer to a give-back.
	 *
	 * @param key the key
	 * @param givenBack whether this request moved the key's {@code max_id} from the range's end back to its cursor;
	 * {@code false} when someone allocated after the range, the key is unknown, or the server did not hand this range
	 * to this client (or gave it back already): the tail is then a gap
	 */
	public record GiveBackResult(String key, boolean givenBack) {
	}

	/**
	 * A request to borrow a worker ID ({@code POST /api/fleet/leases}): {@link LeaseRequest} as JSON.
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
	 * @param layout the client's layout in {@link RecordedLayout#format() stored form}, or {@code null} for a client
	 * that names none (before 0.2.0); the server refuses the borrow when the namespace's recorded layout differs
	 * (409 {@code layout-differs}), and one that names none in a namespace with a record (409
	 * {@code layout-required})
	 */
	public record BorrowRequest(@NotBlank @Size(max = LeaseRequest.MAX_NAMESPACE_LENGTH) String namespace,
			@Min(0) int maxWorkerId,
			@Min(1000) @Max(MAX_TTL_MILLIS) long ttlMillis, @Min(-1) int preferredWorkerId,
			@NotNull @Size(max = 256) String instance, long timestampCeiling,
			@Nullable @Size(max = MAX_EXCLUDED_WORKER_IDS) Set<Integer> excludedWorkerIds,
			@Nullable @Pattern(regexp = REQUEST_ID) String requestId,
			@Nullable @Size(min = 1, max = RecordedLayout.MAX_LENGTH) String layout) {

		/**
		 * Returns a lease request as JSON.
		 * @param request the request, with the borrower's layout
		 * @param requestId the client's request ID, the same on every retry
		 * @return the body
		 */
		public static BorrowRequest of(LeaseRequest request, String requestId) {
			return new BorrowRequest(request.namespace(), request.maxWorkerId(), request.ttl().toMillis(),
					request.preferredWorkerId(), request.instance(), request.timestampCeiling(),
					request.excludedWorkerIds(), requestId, request.layout());
		}

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
	public record Lease(@NotBlank @Size(max = LeaseRequest.MAX_NAMESPACE_LENGTH) String namespace, @Min(0) int workerId,
			@NotBlank @Size(max = 128) String ownerToken, @Min(1000) @Max(MAX_TTL_MILLIS) long ttlMillis,
			long timestampFloor, long timestampCeiling, long storeTimeMillis) {

		/**
		 * Returns a lease as JSON.
		 * @param lease the lease
		 * @return the body
		 */
		public static Lease of(WorkerLease lease) {
			return new Lease(lease.namespace(), lease.workerId(), lease.ownerToken(), lease.ttl().toMillis(),
					lease.timestampFloor(), lease.timestampCeiling(), lease.storeTimeMillis());
		}

		/**
		 * Returns the lease this body stands for.
		 * @return the lease
		 */
		public WorkerLease toWorkerLease() {
			return toWorkerLease(this.timestampFloor);
		}

		/**
		 * Returns the lease this body stands for, with another floor.
		 * @param floor the floor to use instead of the body's
		 * @return the lease
		 */
		public WorkerLease toWorkerLease(long floor) {
			return new WorkerLease(this.namespace, this.workerId, this.ownerToken, Duration.ofMillis(this.ttlMillis),
					floor, this.timestampCeiling, this.storeTimeMillis);
		}

	}

	/**
	 * A request to renew a lease ({@code POST /api/fleet/leases/renew}).
	 *
	 * @param lease the lease held now
	 * @param timestampCeiling the greatest timestamp the owner wants to issue until its next renewal
	 */
	public record RenewRequest(@NotNull @Valid Lease lease, long timestampCeiling) {
	}

	/**
	 * A request to give a lease back ({@code POST /api/fleet/leases/release}).
	 *
	 * @param lease the lease held now
	 * @param lastIssuedTimestamp the greatest timestamp issued under it, or -1 if unknown
	 */
	public record ReleaseRequest(@NotNull @Valid Lease lease, @Min(-1) long lastIssuedTimestamp) {
	}

	/**
	 * A request to record a namespace's layout unless one is recorded ({@code POST /api/fleet/layouts}).
	 *
	 * @param namespace the slot space
	 * @param layout the client's layout, in {@link RecordedLayout#format() stored form}
	 */
	public record LayoutRequest(@NotBlank @Size(max = LeaseRequest.MAX_NAMESPACE_LENGTH) String namespace,
			@NotNull @Size(min = 1, max = RecordedLayout.MAX_LENGTH) String layout) {
	}

	/**
	 * A namespace's recorded layout.
	 *
	 * @param namespace the slot space
	 * @param layout the recorded layout, or {@code null} if the server's store keeps no layouts
	 */
	public record Layout(String namespace, @Nullable String layout) {
	}

	/**
	 * A request to replace a namespace's layout if it is still the expected one
	 * ({@code POST /api/fleet/layouts/replace}).
	 *
	 * @param namespace the slot space
	 * @param expected the layout recorded now
	 * @param replacement the new layout
	 * @param requestId chosen by the client, the same on every retry: a retry that reaches this server again gets the
	 * first attempt's answer; {@code null} for none
	 */
	public record LayoutReplaceRequest(@NotBlank @Size(max = LeaseRequest.MAX_NAMESPACE_LENGTH) String namespace,
			@NotNull @Size(min = 1, max = RecordedLayout.MAX_LENGTH) String expected,
			@NotNull @Size(min = 1, max = RecordedLayout.MAX_LENGTH) String replacement,
			@Nullable @Pattern(regexp = REQUEST_ID) String requestId) {
	}

	/**
	 * Whether a namespace's recorded layout is the replacement now.
	 *
	 * @param replaced {@code true} if this request (or its first attempt, for a retry with the same request ID that
	 * reached the same server) found the expected layout and replaced it
	 */
	public record LayoutReplaced(boolean replaced) {
	}

	/**
	 * A namespace's slots as the server's store has them ({@code GET /api/fleet/slot-marks?namespace=}).
	 *
	 * @param namespace the slot space
	 * @param slots each slot's mark and whether a lease holds it
	 */
	public record SlotMarks(String namespace, List<SlotMark> slots) {
	}

}
