package io.idstarter.store.redis;

import java.time.Duration;
import java.util.Objects;

/**
 * What the Redis stores demand of the server before they trust a write: that it keeps its data across a restart
 * (append-only file), and that enough replicas acknowledged each write ({@code WAIT}) before it counts, so that a
 * failover to one of them cannot lose it.
 *
 * <p>A write that fewer replicas acknowledge within the timeout fails as a store failure: a lease is not granted or
 * renewed, an allocated range is not served (the skipped numbers are a harmless gap). See docs/redis.md for which
 * setting gives which guarantee.
 *
 * @param waitReplicas replicas that must acknowledge each write ({@code WAIT}); 0 for none
 * @param waitTimeout how long a write waits for those acknowledgements, at least 1 ms
 * @param requirePersistence whether a server without an append-only file is refused (checked before the first call)
 */
public record RedisDurability(int waitReplicas, Duration waitTimeout, boolean requirePersistence) {

	/** Most replicas a write may wait for: more is a typo, not a deployment. */
	public static final int MAX_WAIT_REPLICAS = 64;

	/** Default time a write waits for replica acknowledgements. */
	public static final Duration DEFAULT_WAIT_TIMEOUT = Duration.ofSeconds(1);

	public RedisDurability {
		Objects.requireNonNull(waitTimeout, "waitTimeout");
		if (waitReplicas < 0 || waitReplicas > MAX_WAIT_REPLICAS) {
			throw new IllegalArgumentException("waitReplicas must be in [0, " + MAX_WAIT_REPLICAS + "]: " + waitReplicas);
		}
		if (waitTimeout.toMillis() < 1 || waitTimeout.compareTo(Duration.ofMinutes(10)) > 0) {
			// WAIT with timeout 0 blocks for ever; a store call must end.
			throw new IllegalArgumentException("waitTimeout must be in [1ms, 10m]: " + waitTimeout);
		}
	}

	/**
	 * Demands nothing: no persistence check and no {@code WAIT}. A restart without persistence or a failover may
	 * lose leases and segment marks; only for tests and for a Redis whose durability is ensured otherwise.
	 * @return the setting the stores' short constructors use
	 */
	public static RedisDurability unchecked() {
		return new RedisDurability(0, DEFAULT_WAIT_TIMEOUT, false);
	}

	/**
	 * Demands an append-only file and, when {@code waitReplicas > 0}, that many replica acknowledgements per write.
	 * @param waitReplicas replicas that must acknowledge each write
	 * @param waitTimeout how long a write waits for them
	 * @return the setting
	 */
	public static RedisDurability persistent(int waitReplicas, Duration waitTimeout) {
		return new RedisDurability(waitReplicas, waitTimeout, true);
	}

}
