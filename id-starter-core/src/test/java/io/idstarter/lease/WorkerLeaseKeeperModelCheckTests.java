package io.idstarter.lease;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import io.idstarter.IdWorkerListener;
import io.idstarter.snowflake.ClockBackwardsPolicy;
import io.idstarter.snowflake.SnowflakeId;
import io.idstarter.snowflake.SnowflakeIdGenerator;
import io.idstarter.snowflake.SnowflakeLayout;
import io.idstarter.snowflake.WorkerIdUnavailableException;
import io.idstarter.time.ManualTimeSource;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.jetbrains.lincheck.datastructures.ThreadIdGen;
import org.jetbrains.lincheck.datastructures.Validate;
import org.jetbrains.lincheck.datastructures.verifier.EpsilonVerifier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Model-checks {@link WorkerLeaseKeeper} with its generator over the in-memory store: callers of {@code nextId} race
 * the keeper's heartbeat (renewal, or borrowing again), a store outage, time passing (a heartbeat's worth, so grants
 * run out), a clock step beyond the skew bound, another node taking the slot over, and {@code close()}. Lincheck
 * explores the thread interleavings; after each execution {@link #properties()} checks:
 * <ul>
 * <li>no ID twice, and each thread's IDs increase;</li>
 * <li>every ID issued under a worker ID has a timestamp at or below the floor the node that took the slot over got
 * (what keeps two owners of one slot apart);</li>
 * <li>every ID issued under a worker ID has a timestamp at or below the floor the store hands the slot's next owner
 * (after the lease expired or was released);</li>
 * <li>after {@code close()} returned, the generator issues nothing.</li>
 * </ul>
 */
@Timeout(120)
public class WorkerLeaseKeeperModelCheckTests {

	private static final Instant START = Instant.parse("2026-01-01T00:00:00Z");

	/** Two worker IDs. */
	private static final SnowflakeLayout TWO_WORKERS = SnowflakeLayout.of(SnowflakeLayout.DEFAULT_EPOCH, 50, 1, 12);

	private static final Duration TTL = Duration.ofSeconds(60);

	private static final Duration HEARTBEAT = Duration.ofSeconds(20);

	private static final String NAMESPACE = "model";

	private static final int MAX_THREADS = 4;

	private final ManualTimeSource storeClock = new ManualTimeSource(START);

	private final ManualTimeSource nodeClock = new ManualTimeSource(START);

	private final InMemoryLeaseStore store = new InMemoryLeaseStore(this.storeClock);

	private final SnowflakeIdGenerator generator = new SnowflakeIdGenerator(TWO_WORKERS, this.nodeClock,
			ClockBackwardsPolicy.defaults(), IdWorkerListener.NONE);

	private final WorkerLeaseKeeper keeper;

	/** IDs returned to each thread, in order; each list is written only by its own thread. */
	@SuppressWarnings("unchecked")
	private final List<Long>[] issued = new List[MAX_THREADS];

	// Touched only by the "owner" operations, which never run in parallel with each other.

	/** Floor the other node got when it took a slot over, by worker ID. */
	private final Map<Integer, Long> takeOverFloors = new TreeMap<>();

	private boolean closed;

	public WorkerLeaseKeeperModelCheckTests() {
		for (int i = 0; i < MAX_THREADS; i++) {
			this.issued[i] = new ArrayList<>();
		}
		LeaseSettings settings = LeaseSettings.builder()
			.namespace(NAMESPACE)
			.ttl(TTL)
			.heartbeat(HEARTBEAT)
			.safetyMargin(Duration.ofSeconds(5))
			.instance("node-a")
			.build();
		this.keeper = new WorkerLeaseKeeper(this.store, this.generator, settings, this.nodeClock,
				IdWorkerListener.NONE);
		this.keeper.startLease(/* heartbeatThread= */ false);
	}

	@Operation
	public long nextId(@Param(gen = ThreadIdGen.class) int thread) {
		try {
			long id = this.generator.nextId();
			this.issued[thread].add(id);
			return id;
		}
		catch (WorkerIdUnavailableException ex) {
			return -1;
		}
	}

	/** The keeper's thread: renew, or borrow again after a loss. */
	@Operation(nonParallelGroup = "owner")
	public void heartbeat() {
		this.keeper.heartbeat();
	}

	/** A heartbeat's worth of time passes on both clocks, without a heartbeat. */
	@Operation(nonParallelGroup = "owner")
	public void timePasses() {
		this.nodeClock.advance(HEARTBEAT);
		this.storeClock.advance(HEARTBEAT);
	}

	/** The store goes away, or comes back. */
	@Operation(nonParallelGroup = "owner")
	public void storeOutageToggles() {
		this.outage = !this.outage;
		this.store.setAvailable(!this.outage);
	}

	private boolean outage;

	/** This node's wall clock steps 3 s ahead, beyond the 2 s skew bound. */
	@Operation(nonParallelGroup = "owner")
	public void clockStepsAhead() {
		this.nodeClock.stepWallClock(Duration.ofSeconds(3));
	}

	/** The store lets this node's lease end and another node takes the slot, for longer than the scenario. */
	@Operation(nonParallelGroup = "owner")
	public void anotherNodeTakesTheSlot() {
		int workerId = this.keeper.status().workerId();
		if (workerId < 0 || this.outage) {
			return;
		}
		this.store.expire(NAMESPACE, workerId);
		WorkerLease taken = this.store.borrow(new LeaseRequest(NAMESPACE, TWO_WORKERS.maxWorkerId(),
				Duration.ofHours(1), workerId, "node-b", this.storeClock.currentTimeMillis()));
		if (taken.workerId() == workerId) {
			this.takeOverFloors.putIfAbsent(workerId, taken.timestampFloor());
		}
		else {
			this.store.release(taken, -1);
		}
	}

	@Operation(nonParallelGroup = "owner")
	public void close() {
		this.keeper.close();
		this.closed = true;
	}

	@Validate
	public void properties() {
		Set<Long> seen = new HashSet<>();
		Map<Integer, Long> greatestTimestamp = new TreeMap<>();
		for (int thread = 0; thread < MAX_THREADS; thread++) {
			long previous = 0;
			for (long id : this.issued[thread]) {
				SnowflakeId parsed = this.generator.parse(id);
				if (!seen.add(id)) {
					throw new AssertionError("ID " + id + " (" + parsed + ") was returned twice");
				}
				if (id <= previous) {
					throw new AssertionError("thread " + thread + " got " + id + " after " + previous);
				}
				previous = id;
				greatestTimestamp.merge(parsed.workerId(), parsed.timestamp().toEpochMilli(), Math::max);
			}
		}
		greatestTimestamp.forEach((workerId, timestamp) -> {
			Long takeOver = this.takeOverFloors.get(workerId);
			if (takeOver != null && timestamp > takeOver) {
				throw new AssertionError("worker ID " + workerId + " issued at " + timestamp
						+ ", above the floor " + takeOver + " of the node that took it over");
			}
		});
		if (this.closed) {
			try {
				this.generator.nextId();
				throw new AssertionError("the generator issued after close() returned");
			}
			catch (WorkerIdUnavailableException expected) {
				// refused, as it must be
			}
		}
		// the next owner of each slot starts above everything issued under it
		this.store.setAvailable(true);
		greatestTimestamp.forEach((workerId, timestamp) -> {
			this.store.expire(NAMESPACE, workerId);
			WorkerLease next = this.store.borrow(new LeaseRequest(NAMESPACE, TWO_WORKERS.maxWorkerId(),
					Duration.ofHours(1), workerId, "node-c", 0));
			if (next.workerId() == workerId && next.timestampFloor() < timestamp) {
				throw new AssertionError("worker ID " + workerId + " issued at " + timestamp
						+ ", above the floor " + next.timestampFloor() + " its next owner got");
			}
		});
	}

	/**
	 * Bounded for CI: 5 scenarios of 2 threads with 3 operations each, 60 explored interleavings each.
	 */
	@Test
	void heartbeatOutageExpirySkewTakeOverAndCloseRacingCallersKeepEveryProperty() {
		new ModelCheckingOptions().iterations(5)
			.invocationsPerIteration(60)
			.threads(2)
			.actorsPerThread(3)
			.actorsBefore(0)
			.actorsAfter(0)
			.verifier(EpsilonVerifier.class)
			.check(getClass());
	}

}
