package io.idstarter.autoconfigure.http;

import io.idstarter.autoconfigure.IdWorkerStoreDescriptor;
import org.jspecify.annotations.Nullable;

/**
 * The ID servers (id-starter-sample's fleet API) over HTTP, through Spring's {@code RestClient}; the servers keep
 * the segments and leases in their own shared store.
 *
 * @since 0.1.0
 */
public final class HttpStoreDescriptor implements IdWorkerStoreDescriptor {

	@Override
	public String name() {
		return "http";
	}

	@Override
	public String description() {
		return "the ID servers over HTTP";
	}

	@Override
	public String corePackage() {
		return "io.idstarter.store.http";
	}

	@Override
	public String beanType() {
		return "org.springframework.web.client.RestClient";
	}

	@Override
	public String dependency() {
		return "spring-boot-starter-restclient (or spring-web)";
	}

	@Override
	public String connectionProperty() {
		return "id-worker.http.servers";
	}

	@Override
	public String failureAction() {
		return "Check that the ID servers of id-worker.http.servers answer, and that this client's credentials "
				+ "(id-worker.http.token, or username and password) are among their id-server.clients.";
	}

	@Override
	public @Nullable String leaseConfiguration() {
		return "io.idstarter.autoconfigure.http.HttpLeaseStoreConfiguration";
	}

	@Override
	public @Nullable String segmentConfiguration() {
		return "io.idstarter.autoconfigure.http.HttpSegmentStoreConfiguration";
	}

}
