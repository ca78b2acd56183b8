/**
 * Worker-ID leases as Kubernetes {@code coordination.k8s.io/v1} {@code Lease} objects, through the fabric8
 * Kubernetes client.
 */
@NullMarked
package io.idstarter.store.kubernetes;

import org.jspecify.annotations.NullMarked;
