package io.idstarter.store.redis;

import java.util.Objects;

/**
 * The rule for the key prefix of the Redis stores, stated once for the stores and for the setting that names it.
 */
public final class RedisKeyPrefix {

	/** Longest prefix accepted: it is repeated in every key the stores write. */
	public static final int MAX_LENGTH = 128;

	private RedisKeyPrefix() {
	}

	/**
	 * Checks a key prefix.
	 * @param keyPrefix the prefix
	 * @return the prefix
	 * @throws IllegalArgumentException if it is blank or longer than {@value #MAX_LENGTH} characters
	 */
	public static String check(String keyPrefix) {
		Objects.requireNonNull(keyPrefix, "keyPrefix");
		if (keyPrefix.isBlank() || keyPrefix.length() > MAX_LENGTH) {
			throw new IllegalArgumentException("keyPrefix must be 1 to " + MAX_LENGTH + " characters and not blank; the"
					+ " default is '" + RedisSupport.DEFAULT_KEY_PREFIX + "' (on Redis Cluster use a hash tag, for "
					+ "example '{id-starter}:'): '" + keyPrefix + "'");
		}
		return keyPrefix;
	}

}
