package io.idstarter.sample.fleet;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import io.idstarter.lease.WorkerLease;
import org.jspecify.annotations.Nullable;

/**
 * The worker leases this server granted to fleet clients: per slot, the client, the owner token and the floor the
 * store granted it with. The floor is the lowest mark a release may leave; the count per client is its lease quota.
 * In memory, per server: a lease granted by another server, or before a restart, has no record here.
 */
final class LeaseLedger {

	/** Records kept before expired ones are swept. */
	private static final int SWEEP_ABOVE = 1_000;

	/** The latest grant per slot ("namespace/workerId"): a slot has one holder at a time, so a new grant replaces. */
	private final ConcurrentHashMap<String, Grant> grants = new ConcurrentHashMap<>();

	/** Borrows under way per client: counted against its quota until recorded or failed. */
	private final ConcurrentHashMap<String, AtomicInteger> borrowing = new ConcurrentHashMap<>();

	/**
	 * Borrows for a client within its quota and records the grant.
	 * @param client the client
	 * @param maxLeases the most leases it may hold
	 * @param store the borrow in the store
	 * @return the lease
	 * @throws FleetRefusedException (429) if the client holds its quota already
	 */
	WorkerLease borrow(String client, int maxLeases, Supplier<WorkerLease> store) {
		AtomicInteger pending = this.borrowing.computeIfAbsent(client, (name) -> new AtomicInteger());
		int underWay = pending.incrementAndGet();
		try {
			if (held(client) + underWay > maxLeases) {
				throw FleetRefusedException.overQuota(client, "holds " + maxLeases + " worker IDs through this "
						+ "server, its quota (max-leases); release one or let one expire first");
			}
			WorkerLease lease = store.get();
			sweepIfLarge();
			this.grants.put(slot(lease.namespace(), lease.workerId()), new Grant(client, lease.ownerToken(),
					lease.timestampFloor(), expiry(lease)));
			return lease;
		}
		finally {
			pending.decrementAndGet();
		}
	}

	/**
	 * Returns this server's record of a lease.
	 * @return the grant, or {@code null} if this server did not grant the slot to this owner token
	 */
	@Nullable Grant find(String namespace, int workerId, String ownerToken) {
		Grant grant = this.grants.get(slot(namespace, workerId));
		return (grant != null && grant.ownerToken.equals(ownerToken)) ? grant : null;
	}

	void renewed(WorkerLease lease) {
		this.grants.computeIfPresent(slot(lease.namespace(), lease.workerId()),
				(slot, grant) -> grant.ownerToken.equals(lease.ownerToken())
						? new Grant(grant.client, grant.ownerToken, grant.floor, expiry(lease)) : grant);
	}

	void released(WorkerLease lease) {
		this.grants.computeIfPresent(slot(lease.namespace(), lease.workerId()),
				(slot, grant) -> grant.ownerToken.equals(lease.ownerToken()) ? null : grant);
	}

	/** Leases the client holds through this server, by the store's expiry of their latest grant or renewal. */
	int held(String client) {
		long now = System.currentTimeMillis();
		int held = 0;
		for (Grant grant : this.grants.values()) {
			if (grant.client.equals(client) && grant.expiresAtMillis > now) {
				held++;
			}
		}
		return held;
	}

	int size() {
		return this.grants.size();
	}

	private void sweepIfLarge() {
		if (this.grants.size() > SWEEP_ABOVE) {
			long now = System.currentTimeMillis();
			this.grants.values().removeIf((grant) -> grant.expiresAtMillis <= now);
		}
	}

	private static long expiry(WorkerLease lease) {
		return lease.storeTimeMillis() + lease.ttl().toMillis();
	}

	private static String slot(String namespace, int workerId) {
		return namespace + "/" + workerId;
	}

	/**
	 * A lease as this server granted it.
	 *
	 * @param client the client it was granted to
	 * @param ownerToken the store's owner token
	 * @param floor the slot's mark when granted: the greatest timestamp a previous owner may have issued
	 * @param expiresAtMillis when it runs out without renewal, by the store's clock at its latest grant or renewal
	 */
	record Grant(String client, String ownerToken, long floor, long expiresAtMillis) {
	}

}
