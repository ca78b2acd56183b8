package io.idstarter.store.kubernetes;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

/**
 * The ordinal of a StatefulSet's pod: the worker ID such a pod prefers, so that its IDs keep their worker ID across
 * restarts and reschedules even when its worker-ID cache file is gone with its {@code emptyDir}.
 */
public final class StatefulSetOrdinal {

	/** The pod label that Kubernetes 1.28 and later set on a StatefulSet's pods. */
	public static final String POD_INDEX_LABEL = "apps.kubernetes.io/pod-index";

	/** A StatefulSet pod's host name: {@code <statefulset name>-<ordinal>}. */
	private static final Pattern HOST_NAME = Pattern.compile("^[a-z0-9]([-a-z0-9.]*[a-z0-9])?-(0|[1-9][0-9]{0,8})$");

	private static final Pattern ORDINAL = Pattern.compile("0|[1-9][0-9]{0,8}");

	private StatefulSetOrdinal() {
	}

	/**
	 * Returns the pod's ordinal: the {@value #POD_INDEX_LABEL} label (passed in through the Downward API) when given,
	 * else the number at the end of the host name.
	 * @param podIndexLabel the label's value, or {@code null} if not passed in
	 * @param hostName the pod's host name, or {@code null} if unknown
	 * @return the ordinal, or {@code -1} if neither names one
	 */
	public static int of(@Nullable String podIndexLabel, @Nullable String hostName) {
		if (podIndexLabel != null && ORDINAL.matcher(podIndexLabel.trim()).matches()) {
			return Integer.parseInt(podIndexLabel.trim());
		}
		if (hostName != null) {
			Matcher matcher = HOST_NAME.matcher(hostName.trim());
			if (matcher.matches()) {
				return Integer.parseInt(matcher.group(2));
			}
		}
		return -1;
	}

}
