package io.idstarter.store.redis;

import org.springframework.data.redis.connection.RedisConnectionFactory;

/**
 * The former name of {@link RedisLeaseStore}.
 *
 * @deprecated lease stores are named {@code *LeaseStore} so that they read apart from the sequences of
 * {@code io.idstarter.sequence}; use {@link RedisLeaseStore}, which takes the same arguments
 */
@Deprecated(since = "0.1.0", forRemoval = true)
public class RedisSequenceManager extends RedisLeaseStore {

	public RedisSequenceManager(RedisConnectionFactory factory) {
		super(factory);
	}

	public RedisSequenceManager(RedisConnectionFactory factory, String keyPrefix) {
		super(factory, keyPrefix);
	}

	public RedisSequenceManager(RedisConnectionFactory factory, String keyPrefix, RedisDurability durability) {
		super(factory, keyPrefix, durability);
	}

}
