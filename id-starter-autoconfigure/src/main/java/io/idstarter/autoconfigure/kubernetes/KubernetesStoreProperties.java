package io.idstarter.autoconfigure.kubernetes;

import java.time.Duration;

import io.idstarter.autoconfigure.PropertyRules;
import io.idstarter.store.kubernetes.KubernetesLeaseStore;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.InitializingBean;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Kubernetes lease store settings, under {@code id-worker.kubernetes} ({@code @EnableIdWorker(mode = KUBERNETES)});
 * the client is configured from them unless the application defines a fabric8 {@code KubernetesClient} bean. Bound
 * only in that mode.
 *
 * @since 0.1.0
 */
@ConfigurationProperties(prefix = "id-worker.kubernetes", ignoreUnknownFields = false)
public class KubernetesStoreProperties implements InitializingBean {

	/**
	 * Kubernetes namespace holding the Lease objects. The pod's own namespace (from its service account, or the
	 * kubeconfig's context) when not set.
	 */
	private @Nullable String namespace;

	/**
	 * First part of each Lease object's name, followed by the lease namespace and the worker ID.
	 */
	private String namePrefix = "id-worker";

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
	private Duration callTimeout = Duration.ofSeconds(5);

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

	@Override
	public void afterPropertiesSet() {
		if (this.namespace != null) {
			String namespace = this.namespace;
			PropertyRules.check("id-worker.kubernetes.namespace", namespace,
					() -> KubernetesLeaseStore.requireNamespace(namespace));
		}
		PropertyRules.check("id-worker.kubernetes.name-prefix", this.namePrefix,
				() -> KubernetesLeaseStore.requireNamePrefix(this.namePrefix));
		PropertyRules.requirePositive("id-worker.kubernetes.call-timeout", this.callTimeout);
		if (this.podOrdinal != null && this.podOrdinal < 0) {
			throw PropertyRules.invalid("id-worker.kubernetes.pod-ordinal", this.podOrdinal,
					"must be a worker ID (0 or more)");
		}
	}

}
