package io.idstarter.lease;

import io.idstarter.IdGenerationException;

/**
 * Thrown when a worker lease can no longer be renewed because the slot is not held under its owner token any more
 * (it was released, or the lease expired and another node took it). The holder must stop issuing IDs at once.
 */
public class LeaseLostException extends IdGenerationException {

	private static final long serialVersionUID = 1L;

	public LeaseLostException(String message) {
		super(message);
	}

	public LeaseLostException(String message, Throwable cause) {
		super(message, cause);
	}

	/**
	 * Returns the refusal of a renewal whose slot is no longer held with the lease's owner token: the one wording
	 * every store uses.
	 * @param lease the lease the caller holds
	 * @param store where the slot is, for the operator
	 * @param why what the store found instead: "it was released", "instance 'host-b/12' holds it now"
	 * @return the exception
	 */
	public static LeaseLostException notHeld(WorkerLease lease, String store, String why) {
		return new LeaseLostException(notHeldMessage(lease, store, why));
	}

	static String notHeldMessage(WorkerLease lease, String store, String why) {
		return "worker ID " + lease.workerId() + " of namespace '" + lease.namespace()
				+ "' is no longer leased to this owner: " + why + " (" + store
				+ "); stop issuing IDs under it and borrow a worker ID again";
	}

}
