package io.idstarter.lease;

import java.nio.file.Path;

import io.idstarter.IdGenerationException;

/**
 * Thrown at the start of a lease keeper when this node's worker-ID cache file, or the slot marks file beside it,
 * records another lease store for the keeper's namespace: two deployments (staging and production, say) share the
 * file, and each would take the other's marks as its store's and refuse healthy slots, or prefer a worker ID of the
 * other's store. Nothing was borrowed.
 */
public class LeaseFileOfAnotherStoreException extends IdGenerationException {

	private static final long serialVersionUID = 1L;

	private final transient Path file;

	private final String namespace;

	private final String recorded;

	private final String identity;

	/**
	 * Creates the exception.
	 * @param file the file that records another store
	 * @param namespace the lease namespace
	 * @param recorded the store the file records for the namespace
	 * @param identity the store this node uses
	 */
	public LeaseFileOfAnotherStoreException(Path file, String namespace, String recorded, String identity) {
		super("The file " + file + " records worker leases of namespace '" + namespace + "' from " + recorded
				+ ", and this node uses " + identity + ". Two deployments must not share it: give each its own "
				+ "id-worker.lease.cache-file (the slot marks file lives beside it); if this deployment really moved "
				+ "to the new store, delete both files: the worker-ID cache file and id-worker-slot-marks beside it");
		this.file = file;
		this.namespace = namespace;
		this.recorded = recorded;
		this.identity = identity;
	}

	public Path file() {
		return this.file;
	}

	public String namespace() {
		return this.namespace;
	}

	/**
	 * Returns the store the file records.
	 * @return its identity
	 */
	public String recorded() {
		return this.recorded;
	}

	/**
	 * Returns the store this node uses.
	 * @return its identity
	 */
	public String identity() {
		return this.identity;
	}

}
