package io.idstarter.autoconfigure.kubernetes;

import io.idstarter.store.kubernetes.KubernetesApiUnreachableException;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;

/**
 * Explains a {@link KubernetesApiUnreachableException}: which API server did not answer, and where its address comes
 * from. Ordered before the generic store analyzer, whose report would not say where the address comes from.
 */
@Order(Ordered.HIGHEST_PRECEDENCE)
class KubernetesApiUnreachableFailureAnalyzer extends AbstractFailureAnalyzer<KubernetesApiUnreachableException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, KubernetesApiUnreachableException cause) {
		return new FailureAnalysis("The Snowflake generator leases its worker ID as Kubernetes Lease objects, but the "
				+ "API server at " + cause.getApiServer() + " did not answer: " + cause.getMessage(),
				"Inside a cluster, check the pod's network policy toward the API server (kubernetes.default.svc) and "
						+ "that its service account token is mounted (automountServiceAccountToken). Outside, check "
						+ "the kubeconfig's current context, or set id-worker.kubernetes.context or "
						+ "id-worker.kubernetes.master-url. A KubernetesClient bean the application defines is used "
						+ "as it is: check its settings instead.",
				cause);
	}

}
