package io.idstarter.sample;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

import io.idstarter.actuate.endpoint.IdWorkerEndpoint;
import io.idstarter.fleetclient.ClientApplication;
import io.idstarter.segment.SegmentIdGenerator;
import io.idstarter.snowflake.SnowflakeIdGenerator;
import io.idstarter.store.http.IdServerAuthenticationException;
import io.idstarter.store.http.IdServerClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.test.context.TestPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Applications in client mode against a real ID server: segment IDs from ranges drawn over HTTP, Snowflake IDs under
 * a worker ID leased over HTTP, failover past a server that is down, and a start that fails with the property to fix
 * when the credentials are wrong or missing.
 */
@TestPropertySource(properties = { "id-server.clients[0].name=shop", "id-server.clients[0].token=shop-token-0123456789",
		"id-server.clients[0].namespaces=fleet-client", "id-server.clients[0].segment-keys=client-order,client-refused",
		"id-worker.segment.keys.client-order.step=50", "id-worker.segment.keys.client-refused.step=50" })
@ExtendWith(OutputCaptureExtension.class)
class ClientModeTests extends AbstractIdServerTests {

	private static final String TOKEN = "shop-token-0123456789";

	@Test
	void takesSegmentAndSnowflakeIdsFromTheServer() {
		try (ConfigurableApplicationContext client = ClientApplication.start(server(), "id-worker.http.token",
				TOKEN)) {
			SegmentIdGenerator segments = client.getBean(SegmentIdGenerator.class);
			SnowflakeIdGenerator snowflake = client.getBean(SnowflakeIdGenerator.class);
			Set<Long> ids = new HashSet<>();
			for (int i = 0; i < 500; i++) {
				assertThat(ids.add(segments.nextId("client-order"))).isTrue();
			}
			assertThat(ids).contains(1L, 500L);
			long first = snowflake.nextId();
			assertThat(snowflake.nextId()).isGreaterThan(first);
			assertThat(snowflake.workerId()).isPresent();

			HealthIndicator servers = client.getBean("idServersHealthIndicator", HealthIndicator.class);
			assertThat(servers.health(true).getStatus()).isEqualTo(Status.UP);
			IdWorkerEndpoint.IdWorkerDescriptor endpoint = client.getBean(IdWorkerEndpoint.class).idWorker();
			assertThat(endpoint.servers()).isNotNull();
			assertThat(endpoint.servers().current()).isEqualTo(server() + "/");

			String monitor = this.http.get("/api/monitor").body();
			assertThat(monitor).contains("\"clients\":1").doesNotContain("\"shop\"", "fleet-client");
		}
	}

	@Test
	void failsOverPastAServerThatIsDown() {
		String down = "http://127.0.0.1:" + TestPorts.closed();
		try (ConfigurableApplicationContext client = ClientApplication.start(down + "," + server(),
				"id-worker.http.token", TOKEN, "id-worker.http.retry.initial-backoff", "10ms",
				"id-worker.http.spread-load", "false")) {
			SegmentIdGenerator segments = client.getBean(SegmentIdGenerator.class);
			for (int i = 0; i < 200; i++) {
				segments.nextId("client-order");
			}
			assertThat(client.getBean(SnowflakeIdGenerator.class).nextId()).isPositive();
			IdServerClient servers = client.getBean(IdServerClient.class);
			assertThat(servers.currentServer()).isEqualTo(server() + "/");
			assertThat(servers.servers()).filteredOn((status) -> status.url().startsWith(down))
				.singleElement()
				.satisfies((status) -> assertThat(status.lastError()).isNotNull());
		}
	}

	@Test
	void wrongCredentialsFailTheStartNamingTheProperty(CapturedOutput output) {
		List<Long> before = drawnRange();
		assertThatThrownBy(() -> ClientApplication.start(server(), "id-worker.http.token", "wrong-token-0123456789"))
			.hasRootCauseInstanceOf(IdServerAuthenticationException.class)
			.rootCause()
			.hasMessageContaining("id-worker.http.token");
		assertThat(output).contains("Action:", "id-worker.http.token");
		List<Long> after = drawnRange();
		assertThat(after.get(0)).as("the refused client drew no range").isEqualTo(before.get(1));
	}

	@Test
	void missingCredentialsFailTheStartNamingTheProperty() {
		assertThatThrownBy(() -> ClientApplication.start(server()))
			.hasRootCauseInstanceOf(InvalidConfigurationPropertyValueException.class)
			.rootCause()
			.hasMessageContaining("id-worker.http.token");
	}

	/** Draws a range of the key no client uses, through the fleet API, to see where the key's high mark is. */
	private List<Long> drawnRange() {
		var response = this.http.send("POST", "/api/fleet/segments/client-refused/ranges",
				"{\"step\":1}", "Authorization", "Bearer " + TOKEN);
		var json = HttpTestClient.json(response);
		return List.of(json.read("$.start", Long.class), json.read("$.end", Long.class));
	}

	private String server() {
		return "http://127.0.0.1:" + this.port;
	}

}
