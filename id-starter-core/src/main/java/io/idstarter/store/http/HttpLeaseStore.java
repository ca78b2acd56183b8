package io.idstarter.store.http;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Objects;
import java.util.UUID;

import io.idstarter.lease.ISequenceManager;
import io.idstarter.lease.LayoutChangeRefusedException;
import io.idstarter.lease.LeaseLostException;
import io.idstarter.lease.LeaseRequest;
import io.idstarter.lease.LeaseStoreException;
import io.idstarter.lease.NoFreeWorkerIdException;
import io.idstarter.lease.SlotMark;
import io.idstarter.lease.WorkerLease;
import io.idstarter.snowflake.RecordedLayout;
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
 * <p>Layouts are recorded in the servers' store ({@code /api/fleet/layouts}). A borrow names the borrower's layout
 * ({@link LeaseRequest#layout()}): a server refuses one whose layout differs from the namespace's record with 409
 * {@code layout-differs}, and one under a planned change not yet complete with 409 {@code layout-change-pending}, both
 * thrown as an {@link IdServerLayoutConflictException}. Recording and reading are safe to repeat. A replacement
 * carries a request ID, the same on every retry: a retry that reaches the same server after a lost answer gets the
 * first attempt's answer; one that reaches another server answers {@code false}, and the lease keeper reads the record
 * again. The servers judge a planned change themselves and refuse one the slots do not allow
 * (409 {@code layout-change-refused}, thrown as a {@link LayoutChangeRefusedException}); a step whose expected record
 * is no longer recorded answers {@code false}, as on every store. A server that keeps no layouts, or predates the
 * layout calls (404), makes a layout call throw {@link UnsupportedOperationException}; the keeper asks again at its
 * next call.
 */
public class HttpLeaseStore implements ISequenceManager {

	private final IdServerClient client;

	/**
	 * Creates the manager.
	 * @param client the ID servers
	 */
	public HttpLeaseStore(IdServerClient client) {
		this.client = client;
	}

	@Override
	public WorkerLease borrow(LeaseRequest request) {
		FleetMessages.Lease answer = this.client.call(
				"lease a worker ID of namespace '" + request.namespace() + "'", HttpMethod.POST, "api/fleet/leases",
				FleetMessages.BorrowRequest.of(request, UUID.randomUUID().toString()), FleetMessages.Lease.class,
				(problem) -> borrowRefusal(problem, request), LeaseStoreException::new);
		return lease(answer);
	}

	/**
	 * {@inheritDoc}
	 * <p>Returns {@code null}, as a store that keeps no layouts does, when the servers' store keeps none or the servers
	 * predate the layout calls (they answer 404).
	 */
	@Override
	public @Nullable String recordLayout(String namespace, String layout) {
		RecordedLayout.requireStorable("layout", layout);
		FleetMessages.Layout answer;
		try {
			answer = this.client.call("record the layout of namespace '" + namespace + "'", HttpMethod.POST,
					"api/fleet/layouts", new FleetMessages.LayoutRequest(namespace, layout), FleetMessages.Layout.class,
					HttpLeaseStore::layoutRefusal, LeaseStoreException::new);
		}
		catch (UnsupportedOperationException ex) {
			return null;
		}
		return (answer != null) ? answer.layout() : null;
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
				null, FleetMessages.Layout.class, HttpLeaseStore::layoutRefusal, LeaseStoreException::new);
		if (answer == null) {
			throw new LeaseStoreException("ID server answered no layout for namespace '" + namespace + "'");
		}
		return answer.layout();
	}

	@Override
	public boolean replaceLayout(String namespace, String expected, String replacement) {
		RecordedLayout.requireStorable("replacement", replacement);
		FleetMessages.LayoutReplaced answer = this.client.call(
				"replace the layout of namespace '" + namespace + "'", HttpMethod.POST, "api/fleet/layouts/replace",
				new FleetMessages.LayoutReplaceRequest(namespace, expected, replacement, UUID.randomUUID().toString()),
				FleetMessages.LayoutReplaced.class, HttpLeaseStore::layoutRefusal, LeaseStoreException::new);
		return answer != null && answer.replaced();
	}

	@Override
	public List<SlotMark> slotMarks(String namespace) {
		FleetMessages.SlotMarks answer = this.client.call("read the slot marks of namespace '" + namespace + "'",
				HttpMethod.GET, "api/fleet/slot-marks?namespace=" + URLEncoder.encode(namespace, StandardCharsets.UTF_8),
				null, FleetMessages.SlotMarks.class, HttpLeaseStore::layoutRefusal, LeaseStoreException::new);
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
				FleetMessages.Lease.class, (problem) -> leaseRefusal(problem, lease), LeaseStoreException::new);
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
					(problem) -> leaseRefusal(problem, lease), LeaseStoreException::new);
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
	 * Returns the exception for a refused borrow, or {@code null} to try another server.
	 */
	private static @Nullable RuntimeException borrowRefusal(Problem problem, LeaseRequest request) {
		String layout = request.layout();
		if (("layout-differs".equals(problem.code()) || "layout-change-pending".equals(problem.code()))
				&& layout != null) {
			return new IdServerLayoutConflictException(request.namespace(), layout, "ID server refused to lease a "
					+ "worker ID of namespace '" + request.namespace() + "': " + problem.detail());
		}
		if ("no-free-worker-id".equals(problem.code())) {
			return NoFreeWorkerIdException.allHeld(request, "ID server: " + problem.detail());
		}
		return invalid(problem);
	}

	/**
	 * Returns the exception for a refused renewal or release, or {@code null} to try another server.
	 */
	private static @Nullable RuntimeException leaseRefusal(Problem problem, WorkerLease lease) {
		if ("lease-lost".equals(problem.code())) {
			return LeaseLostException.notHeld(lease, "ID server: " + problem.detail(),
					"the ID server does not see it held with its owner token");
		}
		return invalid(problem);
	}

	/**
	 * Returns the exception for a refused layout call (record, read, replace, slot marks), or {@code null} to try
	 * another server. A server that keeps no layouts, or has no layout calls (404: older than this client), makes the
	 * call throw {@link UnsupportedOperationException}, which the lease keeper takes as "not checked this time".
	 */
	private static @Nullable RuntimeException layoutRefusal(Problem problem) {
		if ("layouts-not-kept".equals(problem.code())) {
			return new UnsupportedOperationException("ID server: " + problem.detail());
		}
		if (problem.status() == 404) {
			return new UnsupportedOperationException("the ID server has no layout calls (404: " + problem.detail()
					+ "); it is older than this client: upgrade the ID servers to have layouts recorded");
		}
		if ("layout-change-refused".equals(problem.code())) {
			return new LayoutChangeRefusedException("ID server: " + problem.detail());
		}
		return invalid(problem);
	}

	private static @Nullable RuntimeException invalid(Problem problem) {
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
