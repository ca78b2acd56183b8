package io.idstarter.sample.fleet;

import java.security.Principal;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import io.idstarter.lease.ISequenceManager;
import io.idstarter.lease.LayoutChangeCheck;
import io.idstarter.lease.LeaseRequest;
import io.idstarter.lease.WorkerLease;
import io.idstarter.sample.IdServerProperties;
import io.idstarter.sample.web.LogSafe;
import io.idstarter.sample.web.error.InvalidParameterException;
import io.idstarter.segment.SegmentAllocation;
import io.idstarter.segment.SegmentKeys;
import io.idstarter.segment.SegmentStore;
import io.idstarter.snowflake.RecordedLayout;
import io.idstarter.store.http.FleetMessages;
import io.idstarter.store.http.FleetMessages.BorrowRequest;
import io.idstarter.store.http.FleetMessages.ClientName;
import io.idstarter.store.http.FleetMessages.Keys;
import io.idstarter.store.http.FleetMessages.Layout;
import io.idstarter.store.http.FleetMessages.LayoutReplaceRequest;
import io.idstarter.store.http.FleetMessages.LayoutReplaced;
import io.idstarter.store.http.FleetMessages.LayoutRequest;
import io.idstarter.store.http.FleetMessages.Lease;
import io.idstarter.store.http.FleetMessages.Range;
import io.idstarter.store.http.FleetMessages.RangeRequest;
import io.idstarter.store.http.FleetMessages.ReleaseRequest;
import io.idstarter.store.http.FleetMessages.RenewRequest;
import io.idstarter.store.http.FleetMessages.SlotMarks;
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

	/** How long a layout replacement's answer is kept for a retry with the same request ID. */
	private static final Duration LAYOUT_REPLAY = Duration.ofMinutes(5);

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
		return this.requests.once(client.getName() + "/range/" + key + "/" + step + "/" + requestId, RANGE_REPLAY,
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
		return Lease.of(this.requests.once(client.getName() + "/lease/" + request.requestId(), leaseRequest.ttl(),
				() -> borrow(client.getName(), leaseRequest)));
	}

	/**
	 * Records a namespace's layout unless one is recorded: {@link ISequenceManager#recordLayout(String, String)}. A
	 * text that is no recorded layout, or a pending one, is 400.
	 * @param request the namespace and the client's layout
	 * @param client the authenticated client
	 * @return the recorded layout, or none if this server's store keeps no layouts
	 */
	@PostMapping("/layouts")
	public Layout recordLayout(@Valid @RequestBody LayoutRequest request, Principal client) {
		this.grants.checkNamespace(client.getName(), request.namespace());
		if (parseLayout("layout", request.layout()).pending()) {
			throw new InvalidParameterException("layout", request.layout(), "must not be pending ('replacing='): only "
					+ "a planned change, which replaces a recorded layout, records one");
		}
		return new Layout(request.namespace(), this.leases.recordLayout(request.namespace(), request.layout()));
	}

	/**
	 * Reads a namespace's recorded layout: {@link ISequenceManager#readLayout(String)}.
	 * @param namespace the namespace
	 * @param client the authenticated client
	 * @return the recorded layout, or none if none is recorded
	 */
	@GetMapping("/layouts")
	public Layout readLayout(@RequestParam String namespace, Principal client) {
		checkNamespace(namespace, client);
		return new Layout(namespace, this.leases.readLayout(namespace));
	}

	/**
	 * Replaces a namespace's layout if it is still the expected one:
	 * {@link ISequenceManager#replaceLayout(String, String, String)}, for one step of a planned layout change, which
	 * this server judges by the namespace's slots as a lease keeper judges its own ({@link LayoutChangeCheck}): the
	 * new layout marked pending, replacing the recorded one, when no slot is held and its IDs sort above the old
	 * layout's in time; the pending change completed, when no slot is held and its floor-id is at least the greatest
	 * ID the old layout allows under the slots' marks; or the replaced record put back. Anything else is refused (409
	 * {@code layout-change-refused}), a text that is no recorded layout is 400. With a request ID, a retry that reaches
	 * this server gets the first attempt's answer.
	 * @param request the namespace, the layout recorded now, the new one, and the client's request ID
	 * @param client the authenticated client
	 * @return whether the expected layout was recorded and is replaced now
	 */
	@PostMapping("/layouts/replace")
	public LayoutReplaced replaceLayout(@Valid @RequestBody LayoutReplaceRequest request, Principal client) {
		this.grants.checkNamespace(client.getName(), request.namespace());
		RecordedLayout expected = parseLayout("expected", request.expected());
		RecordedLayout replacement = parseLayout("replacement", request.replacement());
		if (request.requestId() == null) {
			return replace(client.getName(), request, expected, replacement);
		}
		return this.requests.once(client.getName() + "/layout/" + request.requestId(), LAYOUT_REPLAY,
				() -> replace(client.getName(), request, expected, replacement));
	}

	private LayoutReplaced replace(String client, LayoutReplaceRequest request, RecordedLayout expected,
			RecordedLayout replacement) {
		checkChange(request.namespace(), expected, replacement);
		boolean replaced = this.leases.replaceLayout(request.namespace(), request.expected(), request.replacement());
		if (replaced) {
			logger.info("Client '{}' replaced the layout of namespace '{}' by '{}'", client,
					LogSafe.escape(request.namespace()), LogSafe.escape(request.replacement()));
		}
		return new LayoutReplaced(replaced);
	}

	/**
	 * Refuses a replacement that is no step of a planned change, or that the namespace's slots do not allow.
	 */
	private void checkChange(String namespace, RecordedLayout expected, RecordedLayout replacement) {
		RecordedLayout replaced = expected.replacing();
		long horizon = System.currentTimeMillis() + FleetMessages.MAX_TTL_MILLIS
				+ this.limits.getClockAllowance().toMillis();
		if (replaced == null) {
			RecordedLayout asReplaced = new RecordedLayout(expected.layout(), null, expected.floorId(), null);
			if (!replacement.pending() || !asReplaced.equals(replacement.replacing())) {
				throw FleetRefusedException.layoutChangeRefused(namespace, "a planned change first records the new "
						+ "layout pending, replacing the recorded one ('replacing=' its epoch, widths and floor-id)");
			}
			LayoutChangeCheck check = LayoutChangeCheck.of(expected.layout(), replacement.layout(),
					this.leases.slotMarks(namespace));
			refuseHeld(namespace, check);
			if (!check.sortsAboveBy(horizon)) {
				throw FleetRefusedException.layoutChangeRefused(namespace, "the new layout's IDs sort above ID "
						+ check.floorId() + ", the greatest the recorded layout allows under the slots' marks, only "
						+ "from " + when(check.notBefore()) + ", later than this server's clock plus the longest "
						+ "lease TTL plus id-server.fleet.clock-allowance");
			}
		}
		else if (!replacement.pending() && replacement.sameLayoutAs(expected)) {
			LayoutChangeCheck check = LayoutChangeCheck.of(replaced.layout(), replacement.layout(),
					this.leases.slotMarks(namespace));
			refuseHeld(namespace, check);
			if (replacement.floorId() < check.floorId()) {
				throw FleetRefusedException.layoutChangeRefused(namespace, "the completed record's floor-id "
						+ replacement.floorId() + " is below " + check.floorId() + ", the greatest ID the replaced "
						+ "layout allows under the slots' marks");
			}
			long notBefore = LayoutChangeCheck.notBefore(replacement.layout(), replacement.floorId());
			if (notBefore > horizon) {
				throw FleetRefusedException.layoutChangeRefused(namespace, "the new layout's IDs sort above the "
						+ "floor-id only from " + when(notBefore) + ", later than this server's clock plus the "
						+ "longest lease TTL plus id-server.fleet.clock-allowance");
			}
		}
		else if (replacement.pending() || !replacement.layout().equals(replaced.layout())
				|| replacement.floorId() != replaced.floorId()) {
			throw FleetRefusedException.layoutChangeRefused(namespace, "a pending change is completed (the new "
					+ "layout with its floor-id) or put back (the replaced layout with its floor-id), nothing else");
		}
	}

	private static void refuseHeld(String namespace, LayoutChangeCheck check) {
		if (check.slotsHeld()) {
			throw FleetRefusedException.layoutChangeRefused(namespace, "worker IDs " + check.held()
					+ " are held: a layout is changed only when no node of the old layout can issue any more");
		}
	}

	private static String when(long millis) {
		return (millis == Long.MAX_VALUE) ? "never (the new layout runs out first)"
				: Instant.ofEpochMilli(millis).toString();
	}

	/**
	 * Reads a layout text as a recorded layout, or refuses it as a bad request naming the field.
	 */
	private static RecordedLayout parseLayout(String field, String text) {
		try {
			return RecordedLayout.parse(text);
		}
		catch (IllegalArgumentException ex) {
			throw new InvalidParameterException(field, text, "must be a recorded Snowflake layout ("
					+ "epoch=...;timestamp-bits=...;worker-id-bits=...;sequence-bits=...): " + ex.getMessage());
		}
	}

	/**
	 * Reads a namespace's slots with their marks: {@link ISequenceManager#slotMarks(String)}.
	 * @param namespace the namespace
	 * @param client the authenticated client
	 * @return the slots
	 */
	@GetMapping("/slot-marks")
	public SlotMarks slotMarks(@RequestParam String namespace, Principal client) {
		checkNamespace(namespace, client);
		return new SlotMarks(namespace, this.leases.slotMarks(namespace));
	}

	/**
	 * Checks a namespace given as a query parameter, as the request bodies' namespaces are checked, and that it is
	 * granted to the client.
	 */
	private void checkNamespace(String namespace, Principal client) {
		if (namespace.isBlank() || namespace.length() > LeaseRequest.MAX_NAMESPACE_LENGTH) {
			throw new InvalidParameterException("namespace", namespace, "must be 1 to "
					+ LeaseRequest.MAX_NAMESPACE_LENGTH + " characters");
		}
		this.grants.checkNamespace(client.getName(), namespace);
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
	 * Refuses a borrow whose layout differs from the namespace's recorded one, and one that names no layout in a
	 * namespace with a record: a client before 0.2.0, which checks no record, of whatever layout. Where nothing is
	 * recorded (or this server's store keeps no layouts) every borrow goes on; the client's own keeper records its
	 * layout before it borrows.
	 */
	private void checkLayout(String namespace, @Nullable String layout) {
		RecordedLayout own = (layout != null) ? parseLayout("layout", layout) : null;
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
		if (!sameLayout(recorded, own)) {
			logger.info("Refused a borrow in namespace '{}' on layout '{}': the namespace records '{}'",
					LogSafe.escape(namespace), LogSafe.escape(layout), LogSafe.escape(recorded));
			throw FleetRefusedException.layoutDiffers(namespace, recorded, layout);
		}
	}

	private static boolean sameLayout(String recorded, RecordedLayout own) {
		try {
			return RecordedLayout.parse(recorded).sameLayoutAs(own);
		}
		catch (IllegalArgumentException ex) {
			return false;
		}
	}

	private static String instance(String client, String instance) {
		String named = client + ":" + instance;
		return (named.length() <= MAX_INSTANCE) ? named : named.substring(0, MAX_INSTANCE);
	}

}
