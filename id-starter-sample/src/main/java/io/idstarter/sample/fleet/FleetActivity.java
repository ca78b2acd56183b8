package io.idstarter.sample.fleet;

import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

import io.idstarter.lease.WorkerLease;
import io.idstarter.segment.SegmentAllocation;
import org.jspecify.annotations.Nullable;

import org.springframework.stereotype.Component;

/**
 * What this server has done for its fleet clients, for the monitor page: which client holds which worker ID (as
 * granted or renewed through this server), and which keys each client draws ranges of. In memory, per server: a
 * client whose calls went to another server shows there.
 */
@Component
public class FleetActivity {

	/** Most holders and most draws kept, so that the monitor's answer stays bounded whatever clients do. */
	static final int MAX_RECORDS = 1_000;

	/**
	 * The latest grant or renewal per slot ("namespace/workerId"); removed on a release that went through, expired
	 * ones swept when there are more than {@link #MAX_RECORDS}.
	 */
	private final ConcurrentHashMap<String, WorkerHolder> holders = new ConcurrentHashMap<>();

	/** Draws per client and key ("client/key"), only updated by compute; none added beyond {@link #MAX_RECORDS}. */
	private final ConcurrentHashMap<String, KeyDraws> draws = new ConcurrentHashMap<>();

	void leased(String client, String instance, WorkerLease lease) {
		sweepIfFull();
		long expiry = lease.storeTimeMillis() + lease.ttl().toMillis();
		this.holders.put(slot(lease), new WorkerHolder(client, instance, lease.namespace(), lease.workerId(),
				Instant.now(), Instant.ofEpochMilli(expiry)));
	}

	void renewed(String client, WorkerLease lease) {
		sweepIfFull();
		long expiry = lease.storeTimeMillis() + lease.ttl().toMillis();
		this.holders.compute(slot(lease), (slot, holder) -> new WorkerHolder(client,
				(holder != null) ? holder.instance() : "", lease.namespace(), lease.workerId(), Instant.now(),
				Instant.ofEpochMilli(expiry)));
	}

	void released(WorkerLease lease) {
		this.holders.remove(slot(lease));
	}

	void drew(String client, SegmentAllocation range) {
		if (this.draws.size() >= MAX_RECORDS && !this.draws.containsKey(client + "/" + range.key())) {
			return;
		}
		this.draws.compute(client + "/" + range.key(), (id, previous) -> new KeyDraws(client, range.key(),
				range.start(), range.end(), ((previous != null) ? previous.ranges() : 0) + 1,
				((previous != null) ? previous.ids() : 0) + range.size(), Instant.now()));
	}

	/**
	 * Returns the worker IDs held through this server whose lease has not expired (by the store's clock at the
	 * latest grant or renewal), by namespace and worker ID.
	 * @return the holders
	 */
	public List<WorkerHolder> holders() {
		Instant now = Instant.now();
		return this.holders.values()
			.stream()
			.filter((holder) -> holder.expiry().isAfter(now))
			.sorted(Comparator.comparing(WorkerHolder::namespace).thenComparingInt(WorkerHolder::workerId))
			.toList();
	}

	/**
	 * Returns, per client and key, the ranges drawn through this server.
	 * @return the draws, by key and client
	 */
	public List<KeyDraws> draws() {
		return this.draws.values()
			.stream()
			.sorted(Comparator.comparing(KeyDraws::key).thenComparing(KeyDraws::client))
			.toList();
	}

	/** Drops expired holders once the map is full; past the bound, the holder seen longest ago goes too. */
	private void sweepIfFull() {
		if (this.holders.size() < MAX_RECORDS) {
			return;
		}
		Instant now = Instant.now();
		this.holders.values().removeIf((holder) -> !holder.expiry().isAfter(now));
		while (this.holders.size() >= MAX_RECORDS) {
			this.holders.entrySet()
				.stream()
				.min(Comparator.comparing((entry) -> entry.getValue().lastSeen()))
				.ifPresent((oldest) -> this.holders.remove(oldest.getKey(), oldest.getValue()));
		}
	}

	private static String slot(WorkerLease lease) {
		return lease.namespace() + "/" + lease.workerId();
	}

	/**
	 * A worker ID a client holds.
	 *
	 * @param client the client's configured name
	 * @param instance the host and process the client named
	 * @param namespace the slot space
	 * @param workerId the worker ID
	 * @param lastSeen when this server granted or renewed it
	 * @param expiry when the lease runs out without another renewal, by the store's clock
	 */
	public record WorkerHolder(String client, String instance, String namespace, int workerId, Instant lastSeen,
			Instant expiry) {
	}

	/**
	 * The ranges of one key a client drew through this server.
	 *
	 * @param client the client's configured name
	 * @param key the segment key
	 * @param lastStart first ID of the latest range
	 * @param lastEnd first ID past the latest range
	 * @param ranges how many ranges
	 * @param ids how many IDs they held
	 * @param lastDraw when the latest range was drawn
	 */
	public record KeyDraws(String client, String key, long lastStart, long lastEnd, long ranges, long ids,
			@Nullable Instant lastDraw) {
	}

}
