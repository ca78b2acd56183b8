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

	/**
	 * Returns the mark a release of this lease leaves on its slot: what the owner reports it issued, but never below
	 * this lease's floor, since the previous owners may have issued up to it.
	 * @param lastIssuedTimestamp the greatest timestamp issued under this lease, or {@code -1} if unknown
	 * @return {@code max(lastIssuedTimestamp, timestampFloor)}, or {@code -1} when the last timestamp is unknown (the
	 * store then keeps the slot's mark as it is)
	 */
	public long releaseMark(long lastIssuedTimestamp) {
		return (lastIssuedTimestamp >= 0) ? Math.max(lastIssuedTimestamp, this.timestampFloor) : -1;
	}

}
