package io.idstarter.lease;

import java.time.Duration;
import java.time.Instant;

import org.jspecify.annotations.Nullable;

/**
 * A snapshot of a {@link WorkerLeaseKeeper}, for health checks and the actuator endpoint.
 *
 * @param state what the keeper is doing
 * @param namespace the lease namespace
 * @param workerId the worker ID held or last held, or {@code -1} if none yet
 * @param leaseExpiry when the store will consider the lease expired unless it is renewed, translated to this node's
 * clock with the measured offset; {@code null} without a lease
 * @param issuingUntil when this node stops issuing unless the lease is renewed (a safety margin before the expiry),
 * by this node's clock; {@code null} without a lease
 * @param lastRenewal when the lease was last borrowed or renewed successfully, by this node's clock; {@code null}
 * before that
 * @param consecutiveFailures store calls that failed in a row since the last success
 * @param clockOffset the store's clock minus this node's, measured at the midpoint of the last successful call;
 * {@code null} before that
 */
public record LeaseStatus(State state, String namespace, int workerId, @Nullable Instant leaseExpiry,
		@Nullable Instant issuingUntil, @Nullable Instant lastRenewal, int consecutiveFailures,
		@Nullable Duration clockOffset) {

	LeaseStatus withState(State state) {
		return new LeaseStatus(state, this.namespace, this.workerId, this.leaseExpiry, this.issuingUntil,
				this.lastRenewal, this.consecutiveFailures, this.clockOffset);
	}

	/**
	 * What a keeper is doing.
	 */
	public enum State {

		/** Created, {@code start()} not called (or it failed): IDs are refused. */
		NOT_STARTED,

		/** A lease is held and its last renewal succeeded: IDs are issued. */
		ACTIVE,

		/** A lease is held but renewals are failing: IDs are issued until {@code issuingUntil}, retried meanwhile. */
		RENEWAL_FAILING,

		/** A lease is held, but this node's clock is further from the store's than the allowed skew: IDs are refused
		 * until a renewal finds it back within bounds. */
		CLOCK_SKEWED,

		/** No valid lease (taken by another node, or run out while renewals failed): IDs are refused until one is
		 * held again, which the keeper keeps trying. */
		LOST,

		/** The store answered with a slot mark below one this node was granted before (kept on local disk): the store
		 * lost writes. IDs are refused from that answer; the keeper tells the store the mark it knows and retries. */
		STORE_REGRESSED,

		/** Closed, lease given back: IDs are refused for good. */
		CLOSED

	}

}
