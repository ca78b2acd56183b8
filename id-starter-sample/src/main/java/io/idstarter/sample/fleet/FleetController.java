package io.idstarter.sample.fleet;

import java.security.Principal;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import io.idstarter.lease.ISequenceManager;
import io.idstarter.lease.LeaseRequest;
import io.idstarter.lease.WorkerLease;
import io.idstarter.sample.fleet.FleetMessages.BorrowRequest;
import io.idstarter.sample.fleet.FleetMessages.Keys;
import io.idstarter.sample.fleet.FleetMessages.Lease;
import io.idstarter.sample.fleet.FleetMessages.Range;
import io.idstarter.sample.fleet.FleetMessages.RangeRequest;
import io.idstarter.sample.fleet.FleetMessages.ReleaseRequest;
import io.idstarter.sample.fleet.FleetMessages.RenewRequest;
import io.idstarter.sample.web.InvalidParameterException;
import io.idstarter.sample.web.LogSafe;
import io.idstarter.segment.SegmentAllocation;
import io.idstarter.segment.SegmentStore;
import jakarta.validation.Valid;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The fleet API, for applications in client mode ({@code id-worker.segment.store=http}, {@code IdWorkerMode.HTTP}):
 * segment ranges and worker-ID leases from this server's own store, exactly as {@link SegmentStore} and
 * {@link ISequenceManager} give them. Every call needs a configured client's credentials
 * ({@link FleetSecurityConfiguration}). Several servers may share one store: any of them answers any client.
 */
@RestController
@RequestMapping("/api/fleet")
public class FleetController {

	private static final Logger logger = LoggerFactory.getLogger(FleetController.class);

	/** How long a range's answer is kept for a retry with the same request ID. */
	private static final Duration RANGE_REPLAY = Duration.ofMinutes(5);

	/** Longest instance name kept; the stores cut longer ones too. */
	private static final int MAX_INSTANCE = 255;

	private static final int MAX_KEY_LENGTH = 128;

	private final SegmentStore segments;

	private final ISequenceManager leases;

	private final FleetActivity activity;

	private final IdempotentRequests requests = new IdempotentRequests();

	FleetController(SegmentStore segments, ISequenceManager leases, FleetActivity activity) {
		this.segments = segments;
		this.leases = leases;
		this.activity = activity;
	}

	/**
	 * Names the client the credentials belong to; lets a client check its credentials at start-up.
	 * @param client the authenticated client
	 * @return {@code {"client": name}}
	 */
	@GetMapping("/whoami")
	public Map<String, String> whoami(Principal client) {
		return Map.of("client", client.getName());
	}

	/**
	 * Lists the segment keys of the store.
	 * @return the keys, sorted
	 */
	@GetMapping("/segments")
	public Keys keys() {
		return new Keys(List.copyOf(new TreeSet<>(this.segments.keys())));
	}

	/**
	 * Allocates the next range of a key: {@link SegmentStore#allocate(String, int)}.
	 * @param key the key
	 * @param request the step (the key's own when absent) and the client's request ID
	 * @param client the authenticated client
	 * @return the range {@code [start, end)}
	 */
	@PostMapping("/segments/{key}/ranges")
	public Range allocate(@PathVariable String key, @Valid @RequestBody(required = false) @Nullable RangeRequest request,
			Principal client) {
		if (key.isBlank() || key.length() > MAX_KEY_LENGTH) {
			throw new InvalidParameterException("key", key, "must be 1 to " + MAX_KEY_LENGTH + " characters");
		}
		Integer step = (request != null) ? request.step() : null;
		String requestId = (request != null) ? request.requestId() : null;
		if (requestId == null) {
			return draw(client.getName(), key, step);
		}
		return this.requests.once(client.getName() + "/range/" + key + "/" + step + "/" + requestId, RANGE_REPLAY,
				() -> draw(client.getName(), key, step));
	}

	/**
	 * Borrows a worker ID: {@link ISequenceManager#borrow(LeaseRequest)}. With a request ID, a retry that reaches
	 * this server gets the same lease.
	 * @param request the lease request
	 * @param client the authenticated client
	 * @return the lease
	 */
	@PostMapping("/leases")
	public Lease borrow(@Valid @RequestBody BorrowRequest request, Principal client) {
		if (request.preferredWorkerId() > request.maxWorkerId()) {
			throw new InvalidParameterException("preferredWorkerId", request.preferredWorkerId(),
					"must be -1 or at most maxWorkerId (" + request.maxWorkerId() + ")");
		}
		if (request.excludedWorkerIds() != null && request.excludedWorkerIds().contains(request.preferredWorkerId())) {
			throw new InvalidParameterException("excludedWorkerIds", request.excludedWorkerIds(),
					"must not contain preferredWorkerId (" + request.preferredWorkerId() + ")");
		}
		String instance = instance(client.getName(), request.instance());
		LeaseRequest leaseRequest = new LeaseRequest(request.namespace(), request.maxWorkerId(),
				Duration.ofMillis(request.ttlMillis()), request.preferredWorkerId(), instance,
				request.timestampCeiling(),
				(request.excludedWorkerIds() != null) ? request.excludedWorkerIds() : Set.of());
		if (request.requestId() == null) {
			return Lease.of(borrow(client.getName(), leaseRequest));
		}
		return Lease.of(this.requests.once(client.getName() + "/lease/" + request.requestId(), leaseRequest.ttl(),
				() -> borrow(client.getName(), leaseRequest)));
	}

	/**
	 * Renews a lease: {@link ISequenceManager#renew(WorkerLease, long)}. Repeating a renewal is harmless.
	 * @param request the lease and the wanted ceiling
	 * @param client the authenticated client
	 * @return the renewed lease
	 */
	@PostMapping("/leases/renew")
	public Lease renew(@Valid @RequestBody RenewRequest request, Principal client) {
		WorkerLease renewed = this.leases.renew(request.lease().toWorkerLease(), request.timestampCeiling());
		this.activity.renewed(client.getName(), renewed);
		return Lease.of(renewed);
	}

	/**
	 * Gives a lease back: {@link ISequenceManager#release(WorkerLease, long)}. Repeating a release is harmless.
	 * @param request the lease and the last timestamp issued under it
	 * @param client the authenticated client
	 * @return 204
	 */
	@PostMapping("/leases/release")
	public ResponseEntity<Void> release(@Valid @RequestBody ReleaseRequest request, Principal client) {
		WorkerLease lease = request.lease().toWorkerLease();
		this.leases.release(lease, request.lastIssuedTimestamp());
		this.activity.released(lease);
		logger.info("Client '{}' released worker ID {} of namespace '{}'", client.getName(), lease.workerId(),
				LogSafe.escape(lease.namespace()));
		return ResponseEntity.noContent().build();
	}

	private Range draw(String client, String key, @Nullable Integer step) {
		SegmentAllocation range = (step != null) ? this.segments.allocate(key, step) : this.segments.allocate(key);
		this.activity.drew(client, range);
		return Range.of(range);
	}

	private WorkerLease borrow(String client, LeaseRequest request) {
		WorkerLease lease = this.leases.borrow(request);
		this.activity.leased(client, request.instance(), lease);
		logger.info("Client '{}' ({}) borrowed worker ID {} of namespace '{}'", client,
				LogSafe.escape(request.instance()), lease.workerId(), LogSafe.escape(lease.namespace()));
		return lease;
	}

	private static String instance(String client, String instance) {
		String named = client + ":" + instance;
		return (named.length() <= MAX_INSTANCE) ? named : named.substring(0, MAX_INSTANCE);
	}

}
