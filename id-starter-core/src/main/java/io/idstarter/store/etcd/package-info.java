/**
 * Worker-ID leases on an etcd cluster (v3 API) through jetcd, held by etcd's own leases.
 */
@NullMarked
package io.idstarter.store.etcd;

import org.jspecify.annotations.NullMarked;
