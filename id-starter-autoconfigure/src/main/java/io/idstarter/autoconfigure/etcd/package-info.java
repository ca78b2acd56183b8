/**
 * Worker-ID leases on an etcd cluster, through a jetcd client the application defines or one built from
 * {@code id-worker.etcd.*}.
 */
@NullMarked
package io.idstarter.autoconfigure.etcd;

import org.jspecify.annotations.NullMarked;
