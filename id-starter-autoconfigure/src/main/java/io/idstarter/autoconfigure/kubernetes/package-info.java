/**
 * Auto-configuration of worker-ID leases as Kubernetes {@code Lease} objects ({@code @EnableIdWorker(mode =
 * KUBERNETES)}).
 */
@NullMarked
package io.idstarter.autoconfigure.kubernetes;

import org.jspecify.annotations.NullMarked;
