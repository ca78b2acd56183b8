package io.idstarter.store.redis;

/**
 * Thrown (as the cause of a {@code LeaseStoreException} or {@code SegmentStoreException}) when Redis does not give
 * the durability a store was configured to demand ({@link RedisDurability}): no append-only file, or a write that
 * fewer replicas acknowledged than required. The message names the server, what was found and what to set.
 */
public class RedisDurabilityException extends RuntimeException {

	private static final long serialVersionUID = 1L;

	private final Reason reason;

	public RedisDurabilityException(Reason reason, String message) {
		super(message);
		this.reason = reason;
	}

	public Reason reason() {
		return this.reason;
	}

	/**
	 * Why the store refused.
	 */
	public enum Reason {

		/** The server keeps no append-only file: a restart would lose leases and segment marks. */
		NOT_PERSISTENT,

		/** A write was acknowledged by fewer replicas than {@link RedisDurability#waitReplicas()}. */
		NOT_ACKNOWLEDGED,

		/** Replica acknowledgement was asked for where it cannot be given (Redis Cluster without Lettuce). */
		UNSUPPORTED

	}

}
