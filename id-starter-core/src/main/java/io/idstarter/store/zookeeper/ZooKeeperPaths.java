package io.idstarter.store.zookeeper;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * The rule for the root path of {@link ZooKeeperLeaseStore}, stated once for the store and for the setting that
 * names it.
 */
public final class ZooKeeperPaths {

	/** Absolute, elements separated by single slashes, no trailing slash, no white space. */
	private static final Pattern ROOT_PATH = Pattern.compile("(/[^/\\s]+)+");

	private ZooKeeperPaths() {
	}

	/**
	 * Checks a root path.
	 * @param path the path
	 * @return the path
	 * @throws IllegalArgumentException if it is not an absolute path such as
	 * {@value ZooKeeperLeaseStore#DEFAULT_ROOT_PATH}, or has a trailing or double slash or white space
	 */
	public static String checkRootPath(String path) {
		Objects.requireNonNull(path, "rootPath");
		if (!ROOT_PATH.matcher(path).matches()) {
			throw new IllegalArgumentException("rootPath must be an absolute ZooKeeper path such as '"
					+ ZooKeeperLeaseStore.DEFAULT_ROOT_PATH + "' (no trailing or double slash, no white space): '"
					+ path + "'");
		}
		return path;
	}

}
