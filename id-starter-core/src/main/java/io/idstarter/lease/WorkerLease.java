package io.idstarter.lease;

import java.time.Duration;
import java.util.Objects;

/**
 * A worker ID held by this node, as the store recorded it.
 *
 * @param namespace the slot space
 * @param workerId the slot
 * @param ownerToken random token that proves ownership on renew and release
 * @param ttl lease duration without renewal, by the store's clock
 * @param timestampFloor the greatest timestamp any previous owner of the slot may have issued; this owner must issue
 * strictly above it ({@code -1} for a slot never used)
 * @param timestampCeiling the greatest timestamp this owner may issue until its next successful renewal, as stored
 * @param storeTimeMillis the store's clock when it granted or renewed the lease (for clock-skew checks)
 */
public record WorkerLease(String namespace, int workerId, String ownerToken, Duration ttl, long timestampFloor,
		long timestampCeiling, long storeTimeMillis) {

	public WorkerLease {
		Objects.requireNonNull(namespace, "namespace");
		Objects.requireNonNull(ownerToken, "ownerToken");
		Objects.requireNonNull(ttl, "ttl");
	}

}
