package io.idstarter.sample.fleet;

/**
 * Thrown at start when the fleet API would lease worker IDs from a store whose leases end only with this server's
 * own connection; {@link FleetLeaseStoreFailureAnalyzer} reports it.
 */
public class FleetLeaseStoreException extends IllegalStateException {

	private static final long serialVersionUID = 1L;

	private final String store;

	FleetLeaseStoreException(String store, int clients) {
		super("The fleet API has " + clients + " client(s) (id-server.clients), but the lease store " + store
				+ " holds every lease in this server's own connection: a client that dies would keep its worker ID "
				+ "until this server restarts");
		this.store = store;
	}

	/**
	 * Returns the class of the lease store that was refused.
	 * @return the class name
	 */
	public String store() {
		return this.store;
	}

}
