package io.idstarter.lease;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.locks.ReentrantLock;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import io.idstarter.snowflake.RecordedLayout;
import io.idstarter.time.TimeSource;
import org.jspecify.annotations.Nullable;

/**
 * Thread-safe {@link ISequenceManager} that keeps its slots in memory: the reference implementation of the contract,
 * for tests and for a single JVM. It stands for a shared store; its {@link TimeSource} is the <em>store's</em> clock,
 * which alone decides when a lease expires. Test hooks simulate an outage ({@link #setAvailable}) and let a lease
 * expire early so another owner can take the slot ({@link #expire}).
 *
 * <p>The contract, as this class implements it (the JDBC, Redis and MongoDB stores do the same in one atomic step):
 * <ul>
 * <li><b>borrow</b>: the preferred slot if it is free, else a slot never used, else the slot that has been free for
 * longest (released, or expired by the store's clock), never one of the request's excluded slots; a fresh random owner token; lease expiry = store time + TTL.
 * The lease's floor is the slot's high-water mark before the call ({@code -1} if never used); the mark is raised to
 * the requested ceiling, and the lease's ceiling is the raised mark.</li>
 * <li><b>renew</b>: only with the slot's current owner token (otherwise {@link LeaseLostException}); a lease that
 * expired but whose slot nobody took since is still renewed, since nobody else issued under the slot; expiry = store
 * time + TTL; the mark is raised to the requested ceiling, never lowered.</li>
 * <li><b>release</b>: only with the current owner token (otherwise nothing happens); the slot is free at once, and
 * its mark becomes what the owner reports it really issued (never below the lease's floor), or stays as it is for
 * {@code -1}.</li>
 * </ul>
 *
 * <p>Its {@link #identity()} is unknown (empty): its slots die with the process, so an identity of its own would make
 * the worker-ID cache file a restart finds name a store that is gone, and refuse every restart.
 */
public class InMemoryLeaseStore implements ISequenceManager {

	/** Where the slots are, in messages. */
	private static final String STORE = "in-memory lease store";

	private final TimeSource storeClock;

	private final ReentrantLock lock = new ReentrantLock();

	/** Slots by namespace and worker ID; each slot is read and changed only under the lock. */
	@GuardedBy("lock")
	private final Map<String, Map<Integer, Slot>> namespaces = new HashMap<>();

	/** The recorded layout of each namespace that has one, in stored form. */
	@GuardedBy("lock")
	private final Map<String, String> layouts = new HashMap<>();

	/** Whether calls succeed; {@code false} simulates an outage. */
	private volatile boolean available = true;

	/**
	 * Creates a store on the system clock.
	 */
	public InMemoryLeaseStore() {
		this(TimeSource.system());
	}

	/**
	 * Creates a store on the given clock.
	 * @param storeClock the store's clock, which decides lease expiry
	 */
	public InMemoryLeaseStore(TimeSource storeClock) {
		this.storeClock = Objects.requireNonNull(storeClock, "storeClock");
	}

	@Override
	public WorkerLease borrow(LeaseRequest request) {
		Objects.requireNonNull(request, "request");
		this.lock.lock();
		try {
			checkAvailable();
			long now = this.storeClock.currentTimeMillis();
			Map<Integer, Slot> slots = this.namespaces.computeIfAbsent(request.namespace(), (name) -> new HashMap<>());
			int workerId = choose(slots, request, now);
			Slot slot = slots.computeIfAbsent(workerId, (id) -> new Slot());
			long floor = slot.maxTimestamp;
			slot.ownerToken = UUID.randomUUID().toString();
			slot.instance = request.instance();
			slot.expiresAt = now + request.ttl().toMillis();
			slot.maxTimestamp = Math.max(floor, request.timestampCeiling());
			return new WorkerLease(request.namespace(), workerId, slot.ownerToken, request.ttl(), floor,
					slot.maxTimestamp, now);
		}
		finally {
			this.lock.unlock();
		}
	}

	private int choose(Map<Integer, Slot> slots, LeaseRequest request, long now) {
		List<SlotOrder.UsedSlot<Slot>> used = new ArrayList<>();
		slots.forEach((id, slot) -> used.add(new SlotOrder.UsedSlot<>(id, isFree(slot, now), slot.freeSince(), slot)));
		SlotOrder.Candidate<Slot> first = SlotOrder.first(SlotOrder.candidates(request, used));
		if (first == null) {
			throw NoFreeWorkerIdException.allHeld(request, STORE);
		}
		return first.workerId();
	}

	private static boolean isFree(@Nullable Slot slot, long now) {
		return slot == null || slot.ownerToken == null || now >= slot.expiresAt;
	}

	@Override
	public WorkerLease renew(WorkerLease lease, long timestampCeiling) {
		Objects.requireNonNull(lease, "lease");
		this.lock.lock();
		try {
			checkAvailable();
			long now = this.storeClock.currentTimeMillis();
			Slot slot = slot(lease.namespace(), lease.workerId());
			if (slot == null || !lease.ownerToken().equals(slot.ownerToken)) {
				throw lost(lease, slot);
			}
			slot.expiresAt = now + lease.ttl().toMillis();
			slot.maxTimestamp = Math.max(slot.maxTimestamp, timestampCeiling);
			return new WorkerLease(lease.namespace(), lease.workerId(), lease.ownerToken(), lease.ttl(),
					lease.timestampFloor(), slot.maxTimestamp, now);
		}
		finally {
			this.lock.unlock();
		}
	}

	private static LeaseLostException lost(WorkerLease lease, @Nullable Slot slot) {
		if (slot == null || slot.ownerToken == null) {
			return LeaseLostException.notHeld(lease, STORE, "it was released");
		}
		return LeaseLostException.notHeld(lease, STORE, "instance '" + slot.instance + "' holds it now (this lease "
				+ "expired at " + Instant.ofEpochMilli(lease.storeTimeMillis() + lease.ttl().toMillis())
				+ " by the store's clock, or earlier)");
	}

	@Override
	public void release(WorkerLease lease, long lastIssuedTimestamp) {
		Objects.requireNonNull(lease, "lease");
		this.lock.lock();
		try {
			checkAvailable();
			Slot slot = slot(lease.namespace(), lease.workerId());
			if (slot == null || !lease.ownerToken().equals(slot.ownerToken)) {
				return;
			}
			long now = this.storeClock.currentTimeMillis();
			slot.ownerToken = null;
			slot.releasedAt = now;
			long mark = lease.releaseMark(lastIssuedTimestamp);
			if (mark >= 0) {
				slot.maxTimestamp = mark;
			}
		}
		finally {
			this.lock.unlock();
		}
	}

	@Override
	public String recordLayout(String namespace, String layout) {
		Objects.requireNonNull(namespace, "namespace");
		RecordedLayout.requireStorable("layout", layout);
		this.lock.lock();
		try {
			checkAvailable();
			return this.layouts.computeIfAbsent(namespace, (name) -> layout);
		}
		finally {
			this.lock.unlock();
		}
	}

	@Override
	public @Nullable String readLayout(String namespace) {
		Objects.requireNonNull(namespace, "namespace");
		this.lock.lock();
		try {
			checkAvailable();
			return this.layouts.get(namespace);
		}
		finally {
			this.lock.unlock();
		}
	}

	@Override
	public boolean replaceLayout(String namespace, String expected, String replacement) {
		RecordedLayout.requireStorable("replacement", replacement);
		this.lock.lock();
		try {
			checkAvailable();
			return this.layouts.replace(namespace, expected, replacement);
		}
		finally {
			this.lock.unlock();
		}
	}

	@Override
	public List<SlotMark> slotMarks(String namespace) {
		this.lock.lock();
		try {
			checkAvailable();
			long now = this.storeClock.currentTimeMillis();
			List<SlotMark> marks = new ArrayList<>();
			this.namespaces.getOrDefault(namespace, Map.of())
				.forEach((id, slot) -> marks.add(new SlotMark(id, slot.maxTimestamp, !isFree(slot, now))));
			return marks;
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * Makes calls succeed or fail, to simulate an outage.
	 * @param available {@code false} to make every call throw {@link LeaseStoreException}
	 */
	public void setAvailable(boolean available) {
		this.available = available;
	}

	/**
	 * Deletes a namespace's layout record, as a store that lost it would (Redis without persistence, a failover to a
	 * replica that missed it, a delete by hand).
	 * @param namespace the namespace
	 */
	public void forgetLayout(String namespace) {
		this.lock.lock();
		try {
			this.layouts.remove(namespace);
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * Ends a lease now by the store's clock, as if its holder had stopped renewing: the slot is free for another owner.
	 * Once another owner has taken it, the old holder's next renewal fails with {@link LeaseLostException}; until
	 * then the old holder may still renew it. The high-water mark stays.
	 * @param namespace the namespace
	 * @param workerId the slot
	 */
	public void expire(String namespace, int workerId) {
		this.lock.lock();
		try {
			Slot slot = slot(namespace, workerId);
			if (slot != null && slot.ownerToken != null) {
				slot.expiresAt = Math.min(slot.expiresAt, this.storeClock.currentTimeMillis());
			}
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * Returns the slot's high-water mark: the greatest timestamp its owners were allowed to issue.
	 * @param namespace the namespace
	 * @param workerId the slot
	 * @return milliseconds since the Unix epoch, or {@code -1} if the slot was never used
	 */
	public long highWaterMark(String namespace, int workerId) {
		this.lock.lock();
		try {
			Slot slot = slot(namespace, workerId);
			return (slot != null) ? slot.maxTimestamp : -1;
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * Returns who holds a slot under a live lease.
	 * @param namespace the namespace
	 * @param workerId the slot
	 * @return the holder's instance name, or empty if the slot is free
	 */
	public Optional<String> holder(String namespace, int workerId) {
		this.lock.lock();
		try {
			Slot slot = slot(namespace, workerId);
			return (slot == null || isFree(slot, this.storeClock.currentTimeMillis())) ? Optional.empty()
					: Optional.ofNullable(slot.instance);
		}
		finally {
			this.lock.unlock();
		}
	}

	@GuardedBy("lock")
	private @Nullable Slot slot(String namespace, int workerId) {
		Map<Integer, Slot> slots = this.namespaces.get(namespace);
		return (slots != null) ? slots.get(workerId) : null;
	}

	private void checkAvailable() {
		if (!this.available) {
			throw new LeaseStoreException(STORE + " is unavailable (simulated outage); "
					+ "call setAvailable(true) to end it");
		}
	}

	/**
	 * One worker ID of a namespace; mutated only under the manager's lock.
	 */
	private static final class Slot {

		/** Token of the current owner, or {@code null} after release. */
		@Nullable String ownerToken;

		@Nullable String instance;

		/** Store time at which the current lease expires. */
		long expiresAt;

		/** Store time of the last release. */
		long releasedAt = Long.MIN_VALUE;

		/** Greatest timestamp an owner was allowed to issue; {@code -1} before the first borrow. */
		long maxTimestamp = -1;

		/** Store time since when the slot has been free (valid only while it is free). */
		long freeSince() {
			return (this.ownerToken == null) ? this.releasedAt : this.expiresAt;
		}

	}

}
