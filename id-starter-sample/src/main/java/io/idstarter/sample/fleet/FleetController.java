package io.idstarter.sample.fleet;

import java.security.Principal;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import io.idstarter.lease.ISequenceManager;
import io.idstarter.lease.LeaseRequest;
import io.idstarter.lease.WorkerLease;
import io.idstarter.sample.IdServerProperties;
import io.idstarter.sample.web.LogSafe;
import io.idstarter.sample.web.error.InvalidParameterException;
import io.idstarter.segment.SegmentAllocation;
import io.idstarter.segment.SegmentKeys;
import io.idstarter.segment.SegmentStore;
import io.idstarter.snowflake.RecordedLayout;
import io.idstarter.store.http.FleetMessages.BorrowRequest;
import io.idstarter.store.http.FleetMessages.ClientName;
import io.idstarter.store.http.FleetMessages.Keys;
import io.idstarter.store.http.FleetMessages.Lease;
import io.idstarter.store.http.FleetMessages.Range;
import io.idstarter.store.http.FleetMessages.RangeRequest;
import io.idstarter.store.http.FleetMessages.ReleaseRequest;
import io.idstarter.store.http.FleetMessages.RenewRequest;
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
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The fleet API, for applications in client mode ({@code id-worker.segment.store=http}, {@code IdWorkerMode.HTTP}):
 * segment ranges and worker-ID leases from this server's own store, exactly as {@link SegmentStore} and
 * {@link ISequenceManager} give them, to configured clients ({@link FleetSecurityConfiguration}) and only in the
 * namespaces and keys granted to each ({@link FleetGrants}). The server, not the client, bounds what reaches the
 * store: the greatest worker ID, the timestamp ceiling, the floor a release may lower a mark to, and each client's
 * leases and ranges per second. Several servers may share one store: any of them answers any client.
 */
@RestController
@RequestMapping("/api/fleet")
public class FleetController {

	private static final Logger logger = LoggerFactory.getLogger(FleetController.class);

	/** How long a range's answer is kept for a retry with the same request ID. */
	private static final Duration RANGE_REPLAY = Duration.ofMinutes(5);

	/** Longest instance name kept; the stores cut longer ones too. */
	private static final int MAX_INSTANCE = 255;

	private final SegmentStore segments;

	private final ISequenceManager leases;

	private final FleetActivity activity;

	private final FleetGrants grants;

	private final IdServerProperties.Fleet limits;

	private final IdempotentRequests requests = new IdempotentRequests();

	private final LeaseLedger ledger = new LeaseLedger();

	private final RangeRate rangeRate = new RangeRate();

	private final RangeLedger ranges;

	FleetController(SegmentStore segments, ISequenceManager leases, FleetActivity activity, FleetGrants grants,
			RangeLedger ranges, IdServerProperties properties) {
		this.segments = segments;
		this.ranges = ranges;
		this.leases = leases;
		this.activity = activity;
		this.grants = grants;
		this.limits = properties.getFleet();
	}

	/**
	 * Names the client the credentials belong to; lets a client check its credentials at start-up.
	 * @param client the authenticated client
	 * @return {@code {"client": name}}
	 */
	@GetMapping("/whoami")
	public ClientName whoami(Principal client) {
		return new ClientName(client.getName());
	}

	/**
	 * Lists the segment keys of the store that are granted to the client; with {@code key}, only that key if the store
	 * has it and it is granted ({@link SegmentStore#containsKey}), so that a client looking up one key it does not
	 * know yet costs one lookup, not the whole list. A server without the parameter answers the whole list, which
	 * holds the same answer.
	 * @param key the one key to look up, or {@code null} for all
	 * @param client the authenticated client
	 * @return the keys, sorted
	 */
	@GetMapping("/segments")
	public Keys keys(@RequestParam(required = false) @Nullable String key, Principal client) {
		if (key != null) {
			boolean found = this.grants.mayDraw(client.getName(), key) && this.segments.containsKey(key);
			return new Keys(found ? List.of(key) : List.of());
		}
		TreeSet<String> granted = new TreeSet<>();
		for (String stored : this.segments.keys()) {
			if (this.grants.mayDraw(client.getName(), stored)) {
				granted.add(stored);
			}
		}
		return new Keys(List.copyOf(granted));
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
		if (key.isBlank() || key.length() > SegmentKeys.MAX_KEY_LENGTH) {
			throw new InvalidParameterException("key", key,
					"must be 1 to " + SegmentKeys.MAX_KEY_LENGTH + " characters");
		}
		this.grants.checkKey(client.getName(), key);
		Integer step = (request != null) ? request.step() : null;
		String requestId = (request != null) ? request.requestId() : null;
		if (requestId == null) {
			return draw(client.getName(), key, step);
		}
		return this.requests.once(client.getName() + "/range/" + key + "/" + requestId, request, RANGE_REPLAY,
				() -> draw(client.getName(), key, step));
	}

	/**
	 * Borrows a worker ID: {@link ISequenceManager#borrow(LeaseRequest)}, in a namespace granted to the client, up to
	 * its lease quota. With a request ID, a retry that reaches this server gets the same lease.
	 * @param request the lease request
	 * @param client the authenticated client
	 * @return the lease
	 */
	@PostMapping("/leases")
	public Lease borrow(@Valid @RequestBody BorrowRequest request, Principal client) {
		this.grants.checkNamespace(client.getName(), request.namespace());
		if (request.maxWorkerId() > this.limits.getMaxWorkerId()) {
			throw new InvalidParameterException("maxWorkerId", request.maxWorkerId(), "must be at most "
					+ this.limits.getMaxWorkerId() + ", the greatest worker ID this server serves "
					+ "(id-server.fleet.max-worker-id); use a layout with fewer worker-ID bits");
		}
		if (request.preferredWorkerId() > request.maxWorkerId()) {
			throw new InvalidParameterException("preferredWorkerId", request.preferredWorkerId(),
					"must be -1 or at most maxWorkerId (" + request.maxWorkerId() + ")");
		}
		if (request.excludedWorkerIds() != null && request.excludedWorkerIds().contains(request.preferredWorkerId())) {
			throw new InvalidParameterException("excludedWorkerIds", request.excludedWorkerIds(),
					"must not contain preferredWorkerId (" + request.preferredWorkerId() + ")");
		}
		checkTimestamp("timestampCeiling", request.timestampCeiling(), request.ttlMillis());
		checkLayout(request.namespace(), request.layout());
		String instance = instance(client.getName(), request.instance());
		LeaseRequest leaseRequest = new LeaseRequest(request.namespace(), request.maxWorkerId(),
				Duration.ofMillis(request.ttlMillis()), request.preferredWorkerId(), instance,
				request.timestampCeiling(),
				(request.excludedWorkerIds() != null) ? request.excludedWorkerIds() : Set.of(), request.layout());
		if (request.requestId() == null) {
			return Lease.of(borrow(client.getName(), leaseRequest));
		}
		return Lease.of(this.requests.once(client.getName() + "/lease/" + request.requestId(), request,
				leaseRequest.ttl(), () -> borrow(client.getName(), leaseRequest)));
	}

	/**
	 * Renews a lease: {@link ISequenceManager#renew(WorkerLease, long)}. Repeating a renewal is harmless.
	 * @param request the lease and the wanted ceiling
	 * @param client the authenticated client
	 * @return the renewed lease
	 */
	@PostMapping("/leases/renew")
	public Lease renew(@Valid @RequestBody RenewRequest request, Principal client) {
		Lease lease = request.lease();
		this.grants.checkNamespace(client.getName(), lease.namespace());
		checkTimestamp("timestampCeiling", request.timestampCeiling(), lease.ttlMillis());
		LeaseLedger.Grant grant = ownGrant(client.getName(), lease);
		long floor = (grant != null) ? grant.floor() : lease.timestampFloor();
		WorkerLease renewed = this.leases.renew(lease.toWorkerLease(floor), request.timestampCeiling());
		this.ledger.renewed(renewed);
		this.activity.renewed(client.getName(), renewed);
		return Lease.of(renewed);
	}

	/**
	 * Gives a lease back: {@link ISequenceManager#release(WorkerLease, long)}, only with the owner token that holds
	 * the slot (otherwise 409 {@code lease-lost}, as for a release repeated after it went through). The mark falls
	 * to the reported last timestamp only within {@code [floor, mark]}, the floor being this server's record of the
	 * grant; without a record (the lease was granted by another server) the mark is never lowered. A report above
	 * the mark raises it, as a renewal would, within the same bound.
	 * @param request the lease and the last timestamp issued under it
	 * @param client the authenticated client
	 * @return 204
	 */
	@PostMapping("/leases/release")
	public ResponseEntity<Void> release(@Valid @RequestBody ReleaseRequest request, Principal client) {
		Lease lease = request.lease();
		this.grants.checkNamespace(client.getName(), lease.namespace());
		long reported = request.lastIssuedTimestamp();
		checkTimestamp("lastIssuedTimestamp", reported, lease.ttlMillis());
		LeaseLedger.Grant grant = ownGrant(client.getName(), lease);
		if (grant != null && reported >= 0 && reported < grant.floor()) {
			throw new InvalidParameterException("lastIssuedTimestamp", reported, "must be -1 or at least the lease's "
					+ "floor (" + grant.floor() + "), the slot's mark when this server granted it");
		}
		// A renewal proves the owner token holds the slot (LeaseLostException otherwise) and reads the slot's mark.
		WorkerLease held = this.leases.renew(lease.toWorkerLease(lease.timestampFloor()), Math.max(0, reported));
		long floor = (grant != null) ? grant.floor() : held.timestampCeiling();
		this.leases.release(new WorkerLease(held.namespace(), held.workerId(), held.ownerToken(), held.ttl(), floor,
				held.timestampCeiling(), held.storeTimeMillis()), reported);
		this.ledger.released(held);
		this.activity.released(held);
		logger.info("Client '{}' released worker ID {} of namespace '{}'", client.getName(), held.workerId(),
				LogSafe.escape(held.namespace()));
		return ResponseEntity.noContent().build();
	}

	/**
	 * Returns this server's record of the lease, refusing a lease this server granted to another client.
	 */
	private LeaseLedger.@Nullable Grant ownGrant(String client, Lease lease) {
		LeaseLedger.Grant grant = this.ledger.find(lease.namespace(), lease.workerId(), lease.ownerToken());
		if (grant != null && !grant.client().equals(client)) {
			throw FleetRefusedException.notGranted(client, "the lease of worker ID " + lease.workerId()
					+ " in namespace", lease.namespace(), "the borrow of client '" + grant.client() + "'");
		}
		return grant;
	}

	/**
	 * Refuses a timestamp beyond what a lease of this TTL may reach by this server's clock.
	 */
	private void checkTimestamp(String name, long timestamp, long ttlMillis) {
		long limit = System.currentTimeMillis() + ttlMillis + this.limits.getClockAllowance().toMillis();
		if (timestamp < -1 || timestamp > limit) {
			throw new InvalidParameterException(name, timestamp, "must be -1 or a timestamp no later than this "
					+ "server's clock plus the lease TTL plus id-server.fleet.clock-allowance (" + limit + " now)");
		}
	}

	private Range draw(String client, String key, @Nullable Integer step) {
		this.rangeRate.acquire(client, this.grants.maxRangesPerSecond(client));
		SegmentAllocation range = (step != null) ? this.segments.allocate(key, step) : this.segments.allocate(key);
		this.ranges.drew(client, range);
		this.activity.drew(client, range);
		return Range.of(range);
	}

	private WorkerLease borrow(String client, LeaseRequest request) {
		WorkerLease lease = this.ledger.borrow(client, this.grants.maxLeases(client),
				() -> this.leases.borrow(request));
		this.activity.leased(client, request.instance(), lease);
		logger.info("Client '{}' ({}) borrowed worker ID {} of namespace '{}'", client,
				LogSafe.escape(request.instance()), lease.workerId(), LogSafe.escape(lease.namespace()));
		return lease;
	}

	/**
	 * Refuses a borrow whose layout differs from the namespace's recorded one, one under a pending record (a planned
	 * change not yet complete, under which no node may issue), and one that names no layout in a namespace with a
	 * record: a client before 0.2.0, which checks no record, of whatever layout. Where nothing is recorded (or this
	 * server's store keeps no layouts) every borrow goes on; the client's own keeper records its layout before it
	 * borrows.
	 */
	private void checkLayout(String namespace, @Nullable String layout) {
		RecordedLayout own = (layout != null) ? FleetLayoutController.parseLayout("layout", layout) : null;
		String recorded;
		try {
			recorded = this.leases.readLayout(namespace);
		}
		catch (UnsupportedOperationException ex) {
			return;
		}
		if (recorded == null) {
			return;
		}
		if (own == null) {
			throw FleetRefusedException.layoutRequired(namespace, recorded);
		}
		RecordedLayout record = parseOrNull(recorded);
		if (record != null && record.pending()) {
			throw FleetRefusedException.layoutChangePending(namespace, recorded);
		}
		if (record == null || !record.sameLayoutAs(own)) {
			logger.info("Refused a borrow in namespace '{}' on layout '{}': the namespace records '{}'",
					LogSafe.escape(namespace), LogSafe.escape(layout), LogSafe.escape(recorded));
			throw FleetRefusedException.layoutDiffers(namespace, recorded, layout);
		}
	}

	private static @Nullable RecordedLayout parseOrNull(String recorded) {
		try {
			return RecordedLayout.parse(recorded);
		}
		catch (IllegalArgumentException ex) {
			return null;
		}
	}

	private static String instance(String client, String instance) {
		String named = client + ":" + instance;
		return (named.length() <= MAX_INSTANCE) ? named : named.substring(0, MAX_INSTANCE);
	}

}
