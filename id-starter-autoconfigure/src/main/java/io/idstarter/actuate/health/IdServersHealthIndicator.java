package io.idstarter.actuate.health;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.idstarter.store.http.IdServerStatus;
import io.idstarter.store.http.IdServerStatuses;

import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;

/**
 * {@link HealthIndicator} of the ID servers a client-mode application takes its ranges and worker ID from:
 * {@code UP} while at least one server answered its latest call, {@code DOWN} when none did. The details name the
 * server in use and, per server, the calls, the failed calls and the latest error. While it is {@code DOWN} the
 * generators still serve the IDs they hold in memory; the {@code idWorker} contributor says whether they can.
 *
 * @since 0.1.0
 */
public class IdServersHealthIndicator extends AbstractHealthIndicator {

	private final IdServerStatuses servers;

	/**
	 * Creates the indicator.
	 * @param servers the client's servers
	 */
	public IdServersHealthIndicator(IdServerStatuses servers) {
		super("ID servers health check failed");
		this.servers = servers;
	}

	@Override
	protected void doHealthCheck(Health.Builder builder) {
		List<IdServerStatus> statuses = this.servers.servers();
		boolean answering = false;
		Map<String, Object> details = new LinkedHashMap<>();
		for (IdServerStatus server : statuses) {
			answering |= server.answering();
			Map<String, Object> detail = new LinkedHashMap<>();
			detail.put("answering", server.answering());
			detail.put("calls", server.calls());
			detail.put("failures", server.failures());
			if (server.lastSuccess() != null) {
				detail.put("lastSuccess", server.lastSuccess().toString());
			}
			if (server.lastFailure() != null) {
				detail.put("lastFailure", server.lastFailure().toString());
				detail.put("lastError", server.lastError());
			}
			details.put(server.url(), detail);
		}
		builder.status(answering ? Status.UP : Status.DOWN)
			.withDetail("current", this.servers.currentServer())
			.withDetail("servers", details);
	}

}
