package io.idstarter.store.etcd;

import java.util.Objects;

/**
 * The rule for the key prefix of {@link EtcdLeaseStore}, stated once for the store and for the setting that names it.
 */
public final class EtcdKeyPrefix {

	/** Longest prefix accepted: it is repeated in every key the store writes. */
	public static final int MAX_LENGTH = 256;

	private EtcdKeyPrefix() {
	}

	/**
	 * Checks a key prefix.
	 * @param prefix the prefix
	 * @return the prefix
	 * @throws IllegalArgumentException if it is blank or longer than {@value #MAX_LENGTH} characters
	 */
	public static String check(String prefix) {
		Objects.requireNonNull(prefix, "prefix");
		if (prefix.isBlank() || prefix.length() > MAX_LENGTH) {
			throw new IllegalArgumentException("prefix must be 1 to " + MAX_LENGTH + " characters and not blank; use "
					+ "something like '" + EtcdLeaseStore.DEFAULT_PREFIX + "': '" + prefix + "'");
		}
		return prefix;
	}

}
