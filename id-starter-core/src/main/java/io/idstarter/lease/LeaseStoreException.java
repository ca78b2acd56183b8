package io.idstarter.lease;

import io.idstarter.IdGenerationException;

/**
 * Thrown when the lease store cannot be reached or is not set up (for example, its table is missing). The message
 * names the store and what to do.
 */
public class LeaseStoreException extends IdGenerationException {

	private static final long serialVersionUID = 1L;

	public LeaseStoreException(String message) {
		super(message);
	}

	public LeaseStoreException(String message, Throwable cause) {
		super(message, cause);
	}

	/**
	 * Returns the failure of a borrow whose candidates were all taken by concurrent borrowers, scan after scan: the
	 * slots may be free, but the store is too busy to say which.
	 * @param action what was tried, such as "borrow a worker ID of namespace 'orders'"
	 * @param store the store, for the operator
	 * @param attempts how many scans were lost
	 * @return the exception
	 */
	public static LeaseStoreException racesLost(String action, String store, int attempts) {
		return new LeaseStoreException("could not " + action + " on " + store + ": lost " + attempts
				+ " races in a row to other nodes borrowing at the same time; retry later");
	}

}
