package io.idstarter.lease;

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

}
