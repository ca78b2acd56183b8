package io.idstarter.lease;

import java.util.TreeSet;

import io.idstarter.IdGenerationException;

/**
 * Thrown when every worker ID of a namespace is held by a live lease. The message names the namespace, the range of
 * slots and the store; use more worker bits, a separate namespace, or fewer instances.
 */
public class NoFreeWorkerIdException extends IdGenerationException {

	private static final long serialVersionUID = 1L;

	public NoFreeWorkerIdException(String message) {
		super(message);
	}

	public NoFreeWorkerIdException(String message, Throwable cause) {
		super(message, cause);
	}

	/**
	 * Returns the refusal of a borrow that found no slot it may take: the one wording every store uses.
	 * @param request the borrow
	 * @param store where the slots are, for the operator: the table and database, the Redis server and key, the
	 * collection, the ensemble and path
	 * @return the exception
	 */
	public static NoFreeWorkerIdException allHeld(LeaseRequest request, String store) {
		return allHeld(request, store, "");
	}

	/**
	 * Returns the refusal of a borrow that found no slot it may take: the one wording every store uses.
	 * @param request the borrow
	 * @param store where the slots are, for the operator
	 * @param alsoHeld who else holds slots or why the free ones were missed, starting with its own separator (such as
	 * {@code " or by Leaf (3 worker IDs under /snowflake/x/forever)"}), or empty
	 * @return the exception
	 */
	public static NoFreeWorkerIdException allHeld(LeaseRequest request, String store, String alsoHeld) {
		String excluded = request.excludedWorkerIds().isEmpty() ? ""
				: " or excluded by this node (" + new TreeSet<>(request.excludedWorkerIds()) + ")";
		return new NoFreeWorkerIdException("no free worker ID in namespace '" + request.namespace() + "': all "
				+ (request.maxWorkerId() + 1L) + " slots [0, " + request.maxWorkerId() + "] are held by live leases"
				+ excluded + alsoHeld + " (" + store + "); use more worker bits, a separate namespace, or fewer "
				+ "instances (a stopped instance's worker ID is free again when its lease expires, within "
				+ LeaseSettings.format(request.ttl()) + ")");
	}

}
