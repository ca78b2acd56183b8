package io.idstarter.autoconfigure.kubernetes;

import java.time.Duration;

import io.idstarter.store.kubernetes.KubernetesLeaseStore;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Settings of KUBERNETES mode, bound only when that mode is selected.
 *
 * @since 0.1.0
 */
@ConfigurationProperties("id-worker.kubernetes")
public class IdWorkerKubernetesProperties {

	/**
	 * Kubernetes namespace holding the Lease objects. The pod's own namespace (from its service account, or the
	 * kubeconfig's context) when not set.
	 */
	private @Nullable String namespace;

	/**
	 * First part of each Lease object's name, followed by the lease namespace and the worker ID.
	 */
	private String namePrefix = KubernetesLeaseStore.DEFAULT_NAME_PREFIX;

	/**
	 * Whether a StatefulSet's pod prefers its ordinal as its worker ID when the worker ID it held before is unknown.
	 */
	private boolean preferPodOrdinal = true;

	/**
	 * Worker ID this pod prefers. By default the StatefulSet ordinal: the POD_INDEX environment variable (the
	 * apps.kubernetes.io/pod-index label through the Downward API), else the number that ends the host name.
	 */
	private @Nullable Integer podOrdinal;

	/**
	 * URL of the Kubernetes API server. By default that of the in-cluster service account, or else of the kubeconfig.
	 */
	private @Nullable String masterUrl;

	/**
	 * Kubeconfig context to use outside a cluster. The kubeconfig's current context when not set.
	 */
	private @Nullable String context;

	/**
	 * How long one call to the API server may take.
	 */
	private Duration callTimeout = KubernetesLeaseStore.DEFAULT_CALL_TIMEOUT;

	public @Nullable String getNamespace() {
		return this.namespace;
	}

	public void setNamespace(@Nullable String namespace) {
		this.namespace = namespace;
	}

	public String getNamePrefix() {
		return this.namePrefix;
	}

	public void setNamePrefix(String namePrefix) {
		this.namePrefix = namePrefix;
	}

	public boolean isPreferPodOrdinal() {
		return this.preferPodOrdinal;
	}

	public void setPreferPodOrdinal(boolean preferPodOrdinal) {
		this.preferPodOrdinal = preferPodOrdinal;
	}

	public @Nullable Integer getPodOrdinal() {
		return this.podOrdinal;
	}

	public void setPodOrdinal(@Nullable Integer podOrdinal) {
		this.podOrdinal = podOrdinal;
	}

	public @Nullable String getMasterUrl() {
		return this.masterUrl;
	}

	public void setMasterUrl(@Nullable String masterUrl) {
		this.masterUrl = masterUrl;
	}

	public @Nullable String getContext() {
		return this.context;
	}

	public void setContext(@Nullable String context) {
		this.context = context;
	}

	public Duration getCallTimeout() {
		return this.callTimeout;
	}

	public void setCallTimeout(Duration callTimeout) {
		this.callTimeout = callTimeout;
	}

}
