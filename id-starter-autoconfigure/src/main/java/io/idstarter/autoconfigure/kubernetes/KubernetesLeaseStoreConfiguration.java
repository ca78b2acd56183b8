package io.idstarter.autoconfigure.kubernetes;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.idstarter.lease.ISequenceManager;
import io.idstarter.store.kubernetes.KubernetesLeaseStore;
import io.idstarter.store.kubernetes.StatefulSetOrdinal;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * Worker-ID leases as Kubernetes {@code Lease} objects, through the application's fabric8 {@code KubernetesClient}
 * or one configured from the in-cluster service account (or else the kubeconfig); selected by
 * {@code @EnableIdWorker(mode = KUBERNETES)}.
 *
 * @since 0.1.0
 */
@AutoConfiguration
@ConditionalOnClass(KubernetesClient.class)
@EnableConfigurationProperties(KubernetesStoreProperties.class)
public final class KubernetesLeaseStoreConfiguration {

	/** Environment variable the manifests of docs/kubernetes.md fill from the pod-index label. */
	static final String POD_INDEX = "POD_INDEX";

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnMissingBean(KubernetesClient.class)
	static class ClientConfiguration {

		@Bean(destroyMethod = "close")
		KubernetesClient idWorkerKubernetesClient(KubernetesStoreProperties properties) {
			// fabric8's own discovery: the service account's token and CA inside a pod, else the kubeconfig.
			Config config = Config.autoConfigure(properties.getContext());
			if (properties.getMasterUrl() != null) {
				config.setMasterUrl(properties.getMasterUrl());
			}
			return new KubernetesClientBuilder().withConfig(config).build();
		}

	}

	// Declared here, not in a nested class: the outer class's beans are registered after its nested classes' ones,
	// so the client built above is seen.
	@Bean
	@ConditionalOnSingleCandidate(KubernetesClient.class)
	@ConditionalOnMissingBean(ISequenceManager.class)
	KubernetesLeaseStore kubernetesLeaseStore(KubernetesClient client, KubernetesStoreProperties properties,
			Environment environment) {
		// The properties were checked when bound; a namespace taken from the client is checked by the store.
		String namespace = (properties.getNamespace() != null) ? properties.getNamespace()
				: (client.getNamespace() != null) ? client.getNamespace() : "default";
		Integer ordinal = properties.getPodOrdinal();
		int preferred = !properties.isPreferPodOrdinal() ? -1 : (ordinal != null) ? ordinal
				: StatefulSetOrdinal.of(environment.getProperty(POD_INDEX), environment.getProperty("HOSTNAME"));
		KubernetesLeaseStore store = new KubernetesLeaseStore(client, namespace, properties.getNamePrefix(), preferred,
				properties.getCallTimeout());
		// A missing permission or an API server that does not answer stops the start here, with an analysis.
		store.checkAccess();
		return store;
	}

}
