package io.idstarter.crossprocess;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

import org.jspecify.annotations.Nullable;

/**
 * The worker-ID leases of a drill, rebuilt from the events {@link RecordingLeaseStore} wrote in each process,
 * and the two checks that no slot was ever shared.
 *
 * <p>A lease is <em>held</em> from the return of the borrow that granted it until its owner began to give it back,
 * learnt it was lost, or died (the kill time; for a process that ended without giving it back, its exit), and never
 * beyond the moment its last confirmed call (borrow or renewal) started plus the TTL. The store may hand the slot to
 * someone else only once the lease is <em>free</em>: given back, or expired by the store's clock, which is no earlier
 * than the start of the last confirmed call plus the TTL. All processes ran on this machine, as did the stores (or
 * the in-JVM MongoDB server), so these wall-clock times are comparable.
 */
final class LeaseHistory {

	/** Rounding between the stores' clocks (database, Redis and Java milliseconds) and the recorded times. */
	private static final long CLOCK_SLACK_MILLIS = 2;

	private final Duration ttl;

	private final List<Lease> leases;

	private LeaseHistory(Duration ttl, List<Lease> leases) {
		this.ttl = ttl;
		this.leases = leases;
	}

	/**
	 * Rebuilds the leases.
	 * @param ttl the lease TTL every process used
	 * @param sources the events of each process or node
	 * @return the history
	 */
	static LeaseHistory of(Duration ttl, List<Source> sources) {
		List<Lease> leases = new ArrayList<>();
		for (Source source : sources) {
			leases.addAll(leasesOf(source));
		}
		leases.sort(Comparator.comparingLong(Lease::grantedAt));
		return new LeaseHistory(ttl, leases);
	}

	private static List<Lease> leasesOf(Source source) {
		List<Lease> leases = new ArrayList<>();
		Map<String, Lease> open = new LinkedHashMap<>();
		Map<String, Long> renewStarts = new HashMap<>();
		long borrowStart = -1;
		for (DrillEvent event : source.events) {
			String token = event.field("token");
			switch (event.kind()) {
				case "lease-borrow-start" -> borrowStart = event.at();
				case "lease-borrow-ok" -> open.put(Objects.requireNonNull(token), new Lease(source.name,
						event.intField("worker"), token, event.at(), borrowStart, event.longField("floor"),
						event.longField("ceiling")));
				case "lease-renew-start" -> renewStarts.put(Objects.requireNonNull(token), event.at());
				case "lease-renew-ok" -> {
					Lease lease = open.get(token);
					if (lease != null) {
						lease.lastConfirmedStart = Objects.requireNonNull(renewStarts.get(token));
						lease.ceiling = event.longField("ceiling");
					}
				}
				case "lease-renew-lost" -> end(open, leases, token, End.LOST, event.at());
				case "lease-release-start" -> end(open, leases, token, End.RELEASED, event.at());
				default -> {
				}
			}
		}
		for (Lease lease : open.values()) {
			lease.end = (source.killedAt != null) ? End.KILLED : End.EXITED;
			lease.endedAt = (source.killedAt != null) ? source.killedAt : source.endedAt;
			leases.add(lease);
		}
		return leases;
	}

	private static void end(Map<String, Lease> open, List<Lease> leases, @Nullable String token, End end, long at) {
		Lease lease = open.remove(token);
		if (lease != null) {
			lease.end = end;
			lease.endedAt = at;
			leases.add(lease);
		}
	}

	/**
	 * Returns every lease, by grant time.
	 * @return the leases
	 */
	List<Lease> leases() {
		return this.leases;
	}

	/**
	 * Returns the leases of one process, by grant time.
	 * @param source the process
	 * @return its leases
	 */
	List<Lease> leasesOf(String source) {
		return this.leases.stream().filter((lease) -> lease.source.equals(source)).toList();
	}

	/**
	 * Finds two leases of different processes held at the same time on one worker ID.
	 * @return one line per pair
	 */
	List<String> overlappingHolds() {
		List<String> problems = new ArrayList<>();
		byWorker().forEach((worker, leases) -> {
			for (int i = 0; i < leases.size(); i++) {
				for (int j = i + 1; j < leases.size(); j++) {
					Lease before = leases.get(i);
					Lease after = leases.get(j);
					if (!before.source.equals(after.source) && after.grantedAt < holdEnd(before)) {
						problems.add("worker " + worker + " was held by " + before + " until " + holdEnd(before)
								+ " and granted to " + after);
					}
				}
			}
		});
		return problems;
	}

	/**
	 * Finds a slot granted while an earlier lease on it was still live in the store (not given back and not yet
	 * expired by the store's clock): for a killed process, the next owner must wait out its TTL.
	 * @return one line per such grant
	 */
	List<String> grantsWhileLive() {
		List<String> problems = new ArrayList<>();
		byWorker().forEach((worker, leases) -> {
			for (int i = 0; i < leases.size(); i++) {
				for (int j = i + 1; j < leases.size(); j++) {
					Lease before = leases.get(i);
					Lease after = leases.get(j);
					if (after.grantedAt < freeFrom(before) - CLOCK_SLACK_MILLIS) {
						problems.add("worker " + worker + " was granted to " + after + " though " + before
								+ " was live in the store until at least " + freeFrom(before));
					}
				}
			}
		});
		return problems;
	}

	/**
	 * Returns when a lease stopped being held.
	 * @param lease the lease
	 * @return wall-clock ms
	 */
	long holdEnd(Lease lease) {
		long expiry = lease.lastConfirmedStart + this.ttl.toMillis();
		return (lease.end == End.RELEASED) ? lease.endedAt : Math.min(lease.endedAt, expiry);
	}

	/**
	 * Returns the earliest time the store could free a lease's slot.
	 * @param lease the lease
	 * @return wall-clock ms
	 */
	long freeFrom(Lease lease) {
		return (lease.end == End.RELEASED) ? lease.endedAt : lease.lastConfirmedStart + this.ttl.toMillis();
	}

	private Map<Integer, List<Lease>> byWorker() {
		Map<Integer, List<Lease>> byWorker = new TreeMap<>();
		for (Lease lease : this.leases) {
			byWorker.computeIfAbsent(lease.workerId, (worker) -> new ArrayList<>()).add(lease);
		}
		return byWorker;
	}

	/**
	 * The events of one process or node, and how it ended.
	 *
	 * @param name the process
	 * @param events its events, in order
	 * @param killedAt when it was killed (after it was seen dead), or {@code null} if it was not
	 * @param endedAt when it exited, or now if it still runs
	 */
	record Source(String name, List<DrillEvent> events, @Nullable Long killedAt, long endedAt) {
	}

	/**
	 * How a lease ended.
	 */
	enum End {

		/** Its owner gave it back. */
		RELEASED,

		/** Its owner learnt at a renewal that another owner had it. */
		LOST,

		/** Its owner was killed. */
		KILLED,

		/** Its owner exited, or the drill ended, without giving it back. */
		EXITED

	}

	/**
	 * One lease, from grant to end.
	 */
	static final class Lease {

		final String source;

		final int workerId;

		final String token;

		/** When the borrow that granted it returned. */
		final long grantedAt;

		/** The slot's high-water mark when it was granted. */
		final long floor;

		/** When the last successful borrow or renewal of it was sent. */
		long lastConfirmedStart;

		/** The greatest timestamp the store allowed under it. */
		long ceiling;

		End end = End.EXITED;

		long endedAt;

		Lease(String source, int workerId, String token, long grantedAt, long borrowStart, long floor, long ceiling) {
			this.source = source;
			this.workerId = workerId;
			this.token = token;
			this.grantedAt = grantedAt;
			this.lastConfirmedStart = borrowStart;
			this.floor = floor;
			this.ceiling = ceiling;
		}

		long grantedAt() {
			return this.grantedAt;
		}

		@Override
		public String toString() {
			return this.source + " (worker " + this.workerId + ", token " + this.token + ", granted " + this.grantedAt
					+ ", last confirmed " + this.lastConfirmedStart + ", " + this.end + " at " + this.endedAt + ")";
		}

	}

}
