package io.idstarter.autoconfigure.kubernetes;

import io.idstarter.autoconfigure.IdWorkerStoreDescriptor;
import org.jspecify.annotations.Nullable;

/**
 * The Kubernetes API ({@code coordination.k8s.io} {@code Lease} objects) through the application's fabric8
 * {@code KubernetesClient}, or one configured from the pod's service account or the kubeconfig; worker-ID leases
 * only.
 *
 * @since 0.1.0
 */
public final class KubernetesStoreDescriptor implements IdWorkerStoreDescriptor {

	@Override
	public String name() {
		return "kubernetes";
	}

	@Override
	public String description() {
		return "the Kubernetes API";
	}

	@Override
	public String corePackage() {
		return "io.idstarter.store.kubernetes";
	}

	@Override
	public String beanType() {
		return "io.fabric8.kubernetes.client.KubernetesClient";
	}

	@Override
	public String dependency() {
		return "io.fabric8:kubernetes-client";
	}

	@Override
	public @Nullable String managedVersionKey() {
		return "kubernetes-client.version";
	}

	@Override
	public String connectionProperty() {
		return "id-worker.kubernetes.master-url (in a pod, its service account is used)";
	}

	@Override
	public String failureAction() {
		return "Check that the Kubernetes API server answers this pod (its service account, or the kubeconfig, or "
				+ "id-worker.kubernetes.master-url) and that the Lease objects under id-worker.kubernetes.name-prefix "
				+ "in id-worker.kubernetes.namespace were written by id-starter.";
	}

	@Override
	public @Nullable String leaseConfiguration() {
		return "io.idstarter.autoconfigure.kubernetes.KubernetesLeaseStoreConfiguration";
	}

}
