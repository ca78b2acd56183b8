package io.idstarter.autoconfigure;

import io.idstarter.lease.LeaseStoreException;

/**
 * Thrown at start when the ZooKeeper ensemble or etcd cluster that worker IDs are leased from does not answer.
 *
 * @since 0.1.0
 */
public class CoordinationServiceUnreachableException extends LeaseStoreException {

	private static final long serialVersionUID = 1L;

	private final String service;

	private final String address;

	private final String property;

	/**
	 * Creates an exception.
	 * @param service "ZooKeeper" or "etcd"
	 * @param address where it was looked for
	 * @param property the property that names it
	 * @param detail what happened
	 * @param cause the client's failure, if any
	 */
	public CoordinationServiceUnreachableException(String service, String address, String property, String detail,
			Throwable cause) {
		super("no " + service + " reachable at " + address + ": " + detail, cause);
		this.service = service;
		this.address = address;
		this.property = property;
	}

	public String getService() {
		return this.service;
	}

	public String getAddress() {
		return this.address;
	}

	public String getProperty() {
		return this.property;
	}

}
