package io.idstarter.store.kubernetes;

import io.idstarter.lease.LeaseStoreException;

/**
 * Thrown when the API server refuses a call on {@code Lease} objects (HTTP 403): the pod's service account lacks a
 * permission. Names the verb, the resource and the namespace that a {@code Role} must grant.
 */
public class KubernetesAccessDeniedException extends LeaseStoreException {

	private static final long serialVersionUID = 1L;

	/** The resource every call of the store is on. */
	public static final String RESOURCE = "leases.coordination.k8s.io";

	private final String verb;

	private final String namespace;

	/**
	 * Creates an exception.
	 * @param verb the verb refused ({@code list}, {@code get}, {@code create}, {@code update})
	 * @param namespace the Kubernetes namespace of the call
	 * @param serverMessage what the API server said
	 */
	public KubernetesAccessDeniedException(String verb, String namespace, String serverMessage) {
		super("the Kubernetes API server refused to " + verb + " " + RESOURCE + " in namespace '" + namespace
				+ "' (403: " + serverMessage + "); grant the pod's service account the verbs get, list, create and "
				+ "update on leases (API group coordination.k8s.io) in that namespace with a Role and a RoleBinding "
				+ "(docs/kubernetes.md has both)");
		this.verb = verb;
		this.namespace = namespace;
	}

	/**
	 * Returns the verb that was refused.
	 * @return {@code list}, {@code get}, {@code create} or {@code update}
	 */
	public String getVerb() {
		return this.verb;
	}

	/**
	 * Returns the resource of the refused call.
	 * @return {@value #RESOURCE}
	 */
	public String getResource() {
		return RESOURCE;
	}

	/**
	 * Returns the Kubernetes namespace of the refused call.
	 * @return the namespace
	 */
	public String getNamespace() {
		return this.namespace;
	}

}
