package io.idstarter.metrics;

import java.util.List;

import io.idstarter.store.http.IdServerStatus;
import io.idstarter.store.http.IdServerStatuses;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;

/**
 * Micrometer meters of a client-mode application's calls to the ID servers, per server (tag {@code server}, the
 * base URL): calls ({@value #CALLS}), failed calls ({@value #FAILURES}) and whether calls go to it first
 * ({@value #CURRENT}). Read from the client's counters when the registry is scraped; nothing on the ID path.
 *
 * @since 0.1.0
 */
public class IdServerMetrics implements MeterBinder {

	/** Function counter of the calls sent to a server. */
	public static final String CALLS = "idworker.http.calls";

	/** Function counter of the calls that did not reach a server or that it could not serve. */
	public static final String FAILURES = "idworker.http.failures";

	/** Gauge: 1 for the server calls go to first, 0 for the others. */
	public static final String CURRENT = "idworker.http.current";

	private final IdServerStatuses servers;

	/**
	 * Creates the meters' binder.
	 * @param servers the client's servers
	 */
	public IdServerMetrics(IdServerStatuses servers) {
		this.servers = servers;
	}

	@Override
	public void bindTo(MeterRegistry registry) {
		for (IdServerStatus server : this.servers.servers()) {
			String url = server.url();
			FunctionCounter.builder(CALLS, this.servers, (servers) -> find(servers.servers(), url).calls())
				.description("Calls sent to an ID server")
				.tag("server", url)
				.register(registry);
			FunctionCounter.builder(FAILURES, this.servers, (servers) -> find(servers.servers(), url).failures())
				.description("Calls that did not reach an ID server or that it could not serve")
				.tag("server", url)
				.register(registry);
			Gauge.builder(CURRENT, this.servers, (servers) -> servers.currentServer().equals(url) ? 1 : 0)
				.description("1 for the ID server calls go to first")
				.tag("server", url)
				.register(registry);
		}
	}

	private static IdServerStatus find(List<IdServerStatus> servers, String url) {
		for (IdServerStatus server : servers) {
			if (server.url().equals(url)) {
				return server;
			}
		}
		throw new IllegalStateException("unknown ID server " + url);
	}

}
