package io.idstarter.lease;

import java.time.Duration;
import java.util.Objects;
import java.util.Set;

import org.jspecify.annotations.Nullable;

/**
 * What a node asks for when it borrows a worker ID.
 *
 * @param namespace the slot space: instances that share IDs (one application, one cluster) use the same namespace
 * @param maxWorkerId the greatest worker ID the Snowflake layout can hold; slots are {@code [0, maxWorkerId]}
 * @param ttl how long the lease lasts without renewal, measured by the store's clock
 * @param preferredWorkerId the slot this instance held before (from its local cache), or {@code -1} for none
 * @param instance who borrows, for operators (host name and process ID)
 * @param timestampCeiling the greatest timestamp (milliseconds since the Unix epoch) the node wants to be allowed to
 * issue until its first renewal
 * @param excludedWorkerIds slots the store must not hand out to this request, even when free: the ones the settings
 * exclude (an old fleet still uses them), and ones this node has just given back because it could not use them (their
 * floor is out of its clock's reach)
 * @param layout the borrower's Snowflake layout in {@link io.idstarter.snowflake.RecordedLayout#format() stored form},
 * or {@code null} if not known: a store that leases for other processes (the ID servers) refuses a borrow whose
 * layout differs from the namespace's record; the lease keeper checks the record itself
 */
public record LeaseRequest(String namespace, int maxWorkerId, Duration ttl, int preferredWorkerId, String instance,
		long timestampCeiling, Set<Integer> excludedWorkerIds, @Nullable String layout) {

	/** Longest namespace a store must accept. */
	public static final int MAX_NAMESPACE_LENGTH = 128;

	public LeaseRequest {
		Objects.requireNonNull(namespace, "namespace");
		Objects.requireNonNull(ttl, "ttl");
		Objects.requireNonNull(instance, "instance");
		excludedWorkerIds = Set.copyOf(Objects.requireNonNull(excludedWorkerIds, "excludedWorkerIds"));
		if (namespace.isBlank() || namespace.length() > MAX_NAMESPACE_LENGTH) {
			throw new IllegalArgumentException(
					"namespace must be 1 to " + MAX_NAMESPACE_LENGTH + " characters, not blank: '" + namespace + "'");
		}
		if (maxWorkerId < 0) {
			throw new IllegalArgumentException("maxWorkerId must not be negative: " + maxWorkerId);
		}
		if (ttl.compareTo(Duration.ofSeconds(1)) < 0) {
			throw new IllegalArgumentException("ttl must be at least 1s: " + ttl);
		}
		if (preferredWorkerId < -1 || preferredWorkerId > maxWorkerId) {
			throw new IllegalArgumentException(
					"preferredWorkerId must be -1 or in [0, " + maxWorkerId + "]: " + preferredWorkerId);
		}
		if (excludedWorkerIds.contains(preferredWorkerId)) {
			throw new IllegalArgumentException("preferredWorkerId " + preferredWorkerId + " is also excluded");
		}
	}

	/**
	 * Creates a request that names no layout.
	 */
	public LeaseRequest(String namespace, int maxWorkerId, Duration ttl, int preferredWorkerId, String instance,
			long timestampCeiling, Set<Integer> excludedWorkerIds) {
		this(namespace, maxWorkerId, ttl, preferredWorkerId, instance, timestampCeiling, excludedWorkerIds, null);
	}

	/**
	 * Creates a request that excludes no slot and names no layout.
	 */
	public LeaseRequest(String namespace, int maxWorkerId, Duration ttl, int preferredWorkerId, String instance,
			long timestampCeiling) {
		this(namespace, maxWorkerId, ttl, preferredWorkerId, instance, timestampCeiling, Set.of(), null);
	}

	/**
	 * Returns whether the store may hand out this slot to the request.
	 * @param workerId the slot
	 * @return {@code false} if it is one of {@link #excludedWorkerIds()}
	 */
	public boolean allows(int workerId) {
		return !this.excludedWorkerIds.contains(workerId);
	}

}
