package io.idstarter.autoconfigure.kubernetes;

import io.idstarter.store.kubernetes.KubernetesAccessDeniedException;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;

/**
 * Explains a {@link KubernetesAccessDeniedException}: the verb, resource and namespace refused, and the {@code Role}
 * that grants them. Ordered before the generic store analyzer, whose report would not name the verb.
 */
@Order(Ordered.HIGHEST_PRECEDENCE)
class KubernetesAccessDeniedFailureAnalyzer extends AbstractFailureAnalyzer<KubernetesAccessDeniedException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, KubernetesAccessDeniedException cause) {
		return new FailureAnalysis("The Snowflake generator leases its worker ID as Kubernetes Lease objects, but the "
				+ "API server refused to " + cause.getVerb() + " " + cause.getResource() + " in namespace '"
				+ cause.getNamespace() + "' for this pod's service account.",
				"Grant the pod's service account the verbs get, list, create and update on leases (API group "
						+ "coordination.k8s.io) in namespace '" + cause.getNamespace() + "' with a Role and a "
						+ "RoleBinding, as docs/kubernetes.md shows; check with kubectl auth can-i "
						+ cause.getVerb() + " leases.coordination.k8s.io -n " + cause.getNamespace()
						+ " --as=system:serviceaccount:" + cause.getNamespace() + ":<service account>. To keep the "
						+ "objects in another namespace, set id-worker.kubernetes.namespace.",
				cause);
	}

}
