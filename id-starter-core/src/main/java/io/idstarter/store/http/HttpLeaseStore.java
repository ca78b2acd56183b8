package io.idstarter.store.http;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

import io.idstarter.lease.ISequenceManager;
import io.idstarter.lease.LeaseLostException;
import io.idstarter.lease.LeaseRequest;
import io.idstarter.lease.LeaseStoreException;
import io.idstarter.lease.NoFreeWorkerIdException;
import io.idstarter.lease.SlotMark;
import io.idstarter.lease.WorkerLease;
import io.idstarter.store.http.IdServerClient.Problem;
import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpMethod;

/**
 * An {@link ISequenceManager} that leases worker IDs from the ID servers ({@code /api/fleet/leases}); the servers
 * keep the leases in their shared store, so the slot order, the owner token and the timestamp marks are the store's.
 * A borrow carries a request ID, the same on every retry: a retry that reaches the same server after a lost answer
 * gets the same lease; one that reaches another server takes a second slot and the first, never renewed, expires
 * after its TTL. Renewals and releases are safe to repeat.
 *
 * <p>Layouts are recorded in the servers' store ({@code /api/fleet/layouts}). The store remembers the layout it was
 * asked to record for each namespace (its node's own, whatever the servers answered) and sends it with every borrow:
 * a server refuses a borrow whose layout differs from the namespace's record with 409 {@code layout-differs}, thrown
 * as an {@link IdServerLayoutConflictException}. Recording and reading are safe to repeat; so is a replacement, since
 * the servers answer {@code true} to one whose replacement is recorded already (its first attempt succeeded and the
 * answer was lost).
 */
public class HttpLeaseStore implements ISequenceManager {

	private final IdServerClient client;

	/** The layout this store was asked to record for each namespace, sent with each borrow. */
	private final Map<String, String> layouts = new ConcurrentHashMap<>();

	/**
	 * Creates the manager.
	 * @param client the ID servers
	 */
	public HttpLeaseStore(IdServerClient client) {
		this.client = client;
	}

	@Override
	public WorkerLease borrow(LeaseRequest request) {
		String layout = this.layouts.get(request.namespace());
		FleetMessages.Lease answer = this.client.call(
				"lease a worker ID of namespace '" + request.namespace() + "'", HttpMethod.POST, "api/fleet/leases",
				FleetMessages.BorrowRequest.of(request, UUID.randomUUID().toString(), layout),
				FleetMessages.Lease.class, (problem) -> refusal(problem, request, null, layout),
				LeaseStoreException::new);
		return lease(answer);
	}

	/**
	 * {@inheritDoc}
	 * <p>Returns {@code null}, as a store that keeps no layouts does, when the servers' store keeps none or the servers
	 * predate the layout calls (they answer 404).
	 */
	@Override
	public @Nullable String recordLayout(String namespace, String layout) {
		Objects.requireNonNull(layout, "layout");
		FleetMessages.Layout answer;
		try {
			answer = this.client.call("record the layout of namespace '" + namespace + "'", HttpMethod.POST,
					"api/fleet/layouts", new FleetMessages.LayoutRequest(namespace, layout), FleetMessages.Layout.class,
					(problem) -> refusal(problem, null, null, null), LeaseStoreException::new);
		}
		catch (UnsupportedOperationException ex) {
			return null;
		}
		if (answer == null || answer.layout() == null) {
			return null;
		}
		this.layouts.put(namespace, layout);
		return answer.layout();
	}

	/**
	 * {@inheritDoc}
	 * <p>Throws {@link UnsupportedOperationException} when the servers' store keeps no layouts or the servers predate
	 * the layout calls (they answer 404).
	 */
	@Override
	public @Nullable String readLayout(String namespace) {
		FleetMessages.Layout answer = this.client.call("read the layout of namespace '" + namespace + "'",
				HttpMethod.GET, "api/fleet/layouts?namespace=" + URLEncoder.encode(namespace, StandardCharsets.UTF_8),
				null, FleetMessages.Layout.class, (problem) -> refusal(problem, null, null, null),
				LeaseStoreException::new);
		if (answer == null) {
			throw new LeaseStoreException("ID server answered no layout for namespace '" + namespace + "'");
		}
		return answer.layout();
	}

	@Override
	public boolean replaceLayout(String namespace, String expected, String replacement) {
		FleetMessages.LayoutReplaced answer = this.client.call(
				"replace the layout of namespace '" + namespace + "'", HttpMethod.POST, "api/fleet/layouts/replace",
				new FleetMessages.LayoutReplaceRequest(namespace, expected, replacement),
				FleetMessages.LayoutReplaced.class, (problem) -> refusal(problem, null, null, null),
				LeaseStoreException::new);
		boolean replaced = answer != null && answer.replaced();
		if (replaced) {
			this.layouts.put(namespace, replacement);
		}
		return replaced;
	}

	@Override
	public List<SlotMark> slotMarks(String namespace) {
		FleetMessages.SlotMarks answer = this.client.call("read the slot marks of namespace '" + namespace + "'",
				HttpMethod.GET, "api/fleet/slot-marks?namespace=" + URLEncoder.encode(namespace, StandardCharsets.UTF_8),
				null, FleetMessages.SlotMarks.class, (problem) -> refusal(problem, null, null, null),
				LeaseStoreException::new);
		if (answer == null || answer.slots() == null) {
			throw new LeaseStoreException("ID server answered no slot marks for namespace '" + namespace + "'");
		}
		return List.copyOf(answer.slots());
	}

	@Override
	public WorkerLease renew(WorkerLease lease, long timestampCeiling) {
		FleetMessages.Lease answer = this.client.call(
				"renew worker ID " + lease.workerId() + " of namespace '" + lease.namespace() + "'", HttpMethod.POST,
				"api/fleet/leases/renew",
				new FleetMessages.RenewRequest(FleetMessages.Lease.of(lease), timestampCeiling),
				FleetMessages.Lease.class, (problem) -> refusal(problem, null, lease, null), LeaseStoreException::new);
		return lease(answer);
	}

	/**
	 * {@inheritDoc}
	 * <p>A report below the lease's floor is sent as the floor, which is what the mark becomes either way (the servers
	 * refuse a lower one). A lease the servers no longer see held with its owner token (a release repeated after a
	 * lost answer, or one that expired and was taken) has nothing to release.
	 */
	@Override
	public void release(WorkerLease lease, long lastIssuedTimestamp) {
		long reported = lease.releaseMark(lastIssuedTimestamp);
		try {
			this.client.call("release worker ID " + lease.workerId() + " of namespace '" + lease.namespace() + "'",
					HttpMethod.POST, "api/fleet/leases/release",
					new FleetMessages.ReleaseRequest(FleetMessages.Lease.of(lease), reported), Void.class,
					(problem) -> refusal(problem, null, lease, null), LeaseStoreException::new);
		}
		catch (LeaseLostException ex) {
			// not held with this token: nothing to release, as with every store
		}
	}

	@Override
	public String identity() {
		// Unknown: the ID servers of a fleet change as it scales, and where they keep the slots is their own store.
		return "";
	}

	/**
	 * Returns the ID servers this manager calls.
	 * @return the client
	 */
	public IdServerClient client() {
		return this.client;
	}

	/**
	 * Returns the exception for a refusal of a borrow ({@code request}, sent with {@code layout}), of a call on a
	 * lease ({@code lease}) or of a layout call (neither).
	 */
	private static @Nullable RuntimeException refusal(Problem problem, @Nullable LeaseRequest request,
			@Nullable WorkerLease lease, @Nullable String layout) {
		String code = problem.code();
		String store = "ID server: " + problem.detail();
		if ("layout-differs".equals(code) && request != null && layout != null) {
			return new IdServerLayoutConflictException(request.namespace(), layout, "ID server refused to lease a "
					+ "worker ID of namespace '" + request.namespace() + "': " + problem.detail());
		}
		if ("layouts-not-kept".equals(code)) {
			return new UnsupportedOperationException("ID server: " + problem.detail());
		}
		if (problem.status() == 404 && request == null && lease == null) {
			return new UnsupportedOperationException("the ID server has no layout calls (404: " + problem.detail()
					+ "); it is older than this client: upgrade the ID servers to have layouts recorded");
		}
		if ("lease-lost".equals(code) && lease != null) {
			return LeaseLostException.notHeld(lease, store, "the ID server does not see it held with its owner token");
		}
		if ("no-free-worker-id".equals(code) && request != null) {
			return NoFreeWorkerIdException.allHeld(request, store);
		}
		if (problem.status() == 400) {
			return new LeaseStoreException("ID server refused the request as invalid: " + problem.detail());
		}
		return null;
	}

	private static WorkerLease lease(FleetMessages.@Nullable Lease answer) {
		try {
			return Objects.requireNonNull(answer, "no lease").toWorkerLease();
		}
		catch (RuntimeException ex) {
			throw new LeaseStoreException("ID server answered an invalid lease: " + ex.getMessage(), ex);
		}
	}

}
