/**
 * Client mode: segment ranges and worker-ID leases taken over HTTP from a set of ID servers (the fleet API of
 * {@code id-starter-sample}), with failover between them. Needs {@code spring-web} (Spring's {@code RestClient}).
 */
@NullMarked
package io.idstarter.store.http;

import org.jspecify.annotations.NullMarked;
