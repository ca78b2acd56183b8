package io.idstarter.lease;

import java.time.Instant;

/**
 * Thrown by {@link ISequenceManager#renew} when a program outside the lease protocol (a Leaf Snowflake node, for one)
 * claims the worker ID this lease holds: the lease is lost, and IDs of that worker ID may have been issued twice, so
 * the keeper raises an alarm (an ERROR log and health {@code DOWN}) that stays until the node restarts.
 */
public class WorkerIdConflictException extends LeaseLostException {

	private static final long serialVersionUID = 1L;

	public WorkerIdConflictException(String message) {
		super(message);
	}

	/**
	 * Returns the refusal of a renewal whose worker ID another program claims.
	 * @param lease the lease the caller holds
	 * @param store where the slot is, for the operator
	 * @param claim who claims it, and how the store knows
	 * @param heldSince since when the lease's owner held the worker ID
	 * @return the exception
	 */
	public static WorkerIdConflictException claimedOutside(WorkerLease lease, String store, String claim,
			Instant heldSince) {
		return new WorkerIdConflictException(LeaseLostException.notHeldMessage(lease, store, claim) + ". IDs of worker ID "
				+ lease.workerId() + " may have been issued by both since " + heldSince
				+ "; stop the other program and check those IDs");
	}

}
