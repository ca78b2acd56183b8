package io.idstarter.sample;

import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import javax.sql.DataSource;

import com.jayway.jsonpath.DocumentContext;
import io.idstarter.sample.fleet.FleetActivity;
import org.junit.jupiter.api.Test;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A hostile tenant: a configured client ("alpha") and an anonymous caller send every lease and range call against
 * another client's ("beta") namespace and key, the server's own namespace and keys, and their own, with numbers at
 * the edges (negative, zero, {@code Long.MAX_VALUE}, beyond the layout) and another client's owner token. Every
 * request is refused with a 400, 401, 403 or 409 problem; beta's leases, marks and ranges, the server's own lease and
 * every key are read from the store before and after and have not changed; the server then restarts on the same
 * files and serves IDs.
 */
class HostileTenantIntegrationTests {

	private static final String[] ALPHA = { "Authorization", "Bearer alpha-token-0123456789" };

	private static final String[] BETA = { "Authorization", "Bearer beta-token-0123456789" };

	private static final String[] ANONYMOUS = {};

	private static final List<Long> EDGES = List.of(-2L, -1L, 0L, Long.MAX_VALUE, Long.MIN_VALUE);

	@Test
	void everyCallAgainstAnotherTenantOrTheServerIsRefusedAndChangesNothing() {
		Path dataDir = TestDataDirs.create("hostile-tenant");
		List<String> betaTokens = new ArrayList<>();
		Map<String, Object> before;
		try (ConfigurableApplicationContext server = start(dataDir)) {
			HttpTestClient http = new HttpTestClient(port(server));
			JdbcTemplate jdbc = new JdbcTemplate(server.getBean(DataSource.class));
			long now = System.currentTimeMillis();
			String betaBorrow = FleetTenancyTests.borrow("beta-ns", 7, -1, now + 5000)
				.replace("\"ttlMillis\":60000", "\"ttlMillis\":3600000");
			DocumentContext beta0 = ok(http.send("POST", "/api/fleet/leases", betaBorrow, BETA));
			DocumentContext beta1 = ok(http.send("POST", "/api/fleet/leases", betaBorrow, BETA));
			betaTokens.add(beta0.read("$.ownerToken", String.class));
			betaTokens.add(beta1.read("$.ownerToken", String.class));
			ok(http.send("POST", "/api/fleet/segments/beta-key/ranges", "{\"step\":10}", BETA));
			// alpha's own lease, on a slot with a floor: released once with a timestamp, then taken again
			DocumentContext first = ok(http.send("POST", "/api/fleet/leases",
					FleetTenancyTests.borrow("alpha-ns", 7, 3, now + 5000), ALPHA));
			assertThat(http.send("POST", "/api/fleet/leases/release",
					"{\"lease\":" + first.jsonString() + ",\"lastIssuedTimestamp\":" + (now + 1000) + "}", ALPHA)
				.statusCode()).isEqualTo(204);
			DocumentContext alpha = ok(http.send("POST", "/api/fleet/leases",
					FleetTenancyTests.borrow("alpha-ns", 7, 3, now), ALPHA));
			assertThat(alpha.read("$.timestampFloor", Long.class)).isEqualTo(now + 1000);

			before = state(jdbc);
			List<Attempt> attempts = new ArrayList<>();
			for (String[] caller : List.of(ALPHA, ANONYMOUS)) {
				attack(http, caller, beta0, alpha, attempts);
			}
			Map<String, Object> after = state(jdbc);

			Map<Integer, Integer> byStatus = new TreeMap<>();
			for (Attempt attempt : attempts) {
				byStatus.merge(attempt.status, 1, Integer::sum);
				assertThat(attempt.status).as(attempt.describe()).isIn(400, 401, 403, 409);
				assertThat(HttpTestClient.contentType(attempt.response)).as(attempt.describe())
					.isEqualTo("application/problem+json");
				assertThat(attempt.response.body()).as(attempt.describe())
					.doesNotContain(betaTokens.get(0), betaTokens.get(1), "\tat ");
			}
			long changes = before.keySet()
				.stream()
				.filter((key) -> !before.get(key).equals(after.get(key)))
				.count();
			System.out.printf("Hostile tenant: %d requests, %d refused %s, %d state changes%n", attempts.size(),
					attempts.size(), byStatus, changes);
			assertThat(after).as("beta's leases and marks, the server's lease, every key").isEqualTo(before);
			assertThat(attempts).hasSizeGreaterThan(500);
			assertThat(server.getBean(FleetActivity.class).holders())
				.filteredOn((holder) -> holder.namespace().equals("beta-ns"))
				.hasSize(2);
			assertThat(ok(http.get("/api/fleet/segments", ALPHA)).read("$.keys", List.class))
				.containsExactly("alpha-key");
		}
		try (ConfigurableApplicationContext restarted = start(dataDir)) {
			HttpTestClient http = new HttpTestClient(port(restarted));
			assertThat(http.get("/api/snowflake/get/order").statusCode()).isEqualTo(200);
			assertThat(http.get("/api/segment/get/order").statusCode()).isEqualTo(200);
			JdbcTemplate jdbc = new JdbcTemplate(restarted.getBean(DataSource.class));
			assertThat(jdbc.queryForList("SELECT owner_token FROM id_worker_lease WHERE namespace = 'beta-ns' "
					+ "ORDER BY worker_id", String.class)).as("beta still holds its worker IDs")
				.containsExactlyElementsOf(betaTokens);
			assertThat(ok(http.send("POST", "/api/fleet/segments/beta-key/ranges", "{\"step\":10}", BETA))
				.read("$.start", Long.class)).as("beta's key went on where beta left it").isEqualTo(11);
		}
	}

	private static void attack(HttpTestClient http, String[] caller, DocumentContext beta, DocumentContext alpha,
			List<Attempt> attempts) {
		long now = System.currentTimeMillis();
		String betaLease = beta.jsonString();
		String alphaLease = alpha.jsonString();
		int betaWorker = beta.read("$.workerId", Integer.class);
		String betaToken = beta.read("$.ownerToken", String.class);
		// Leases of another client, or with a token that does not hold the slot: every number is tried.
		List<String> foreign = List.of(betaLease, lease("id-server", 0, "made-up-owner-token"),
				lease("id-server", betaWorker, betaToken), lease("alpha-ns", betaWorker, betaToken),
				lease("alpha-ns", 3, betaToken), lease("alpha-ns", 3, "made-up-owner-token"),
				lease("beta-ns", betaWorker, "made-up-owner-token"), lease("beta-ns", -1, betaToken),
				lease("beta-ns", 65535, betaToken));
		// alpha's own lease with a forged field: only numbers outside what the server allows.
		List<String> forged = List.of(alphaLease.replaceAll("\"timestampFloor\":\\d+", "\"timestampFloor\":0"),
				alphaLease.replaceAll("\"ttlMillis\":\\d+", "\"ttlMillis\":" + Long.MAX_VALUE),
				alphaLease.replaceAll("\"workerId\":\\d+", "\"workerId\":-1"));
		// Borrows: other namespaces with any numbers, the own namespace with one number at an edge.
		for (String namespace : List.of("beta-ns", "id-server", "default", "beta-*")) {
			for (int maxWorkerId : List.of(0, 7, 1023, 65535, -1, Integer.MAX_VALUE)) {
				for (int preferred : List.of(-1, 0, betaWorker, 65535)) {
					attempts.add(call(http, caller, "/api/fleet/leases",
							FleetTenancyTests.borrow(namespace, maxWorkerId, preferred, now)));
				}
			}
			for (long ceiling : EDGES) {
				attempts.add(call(http, caller, "/api/fleet/leases",
						FleetTenancyTests.borrow(namespace, 7, -1, ceiling)));
			}
		}
		for (int maxWorkerId : List.of(-1, 1024, 65535, Integer.MAX_VALUE)) {
			attempts.add(call(http, caller, "/api/fleet/leases",
					FleetTenancyTests.borrow("alpha-ns", maxWorkerId, -1, now)));
		}
		for (int preferred : List.of(-2, 8, 65535, Integer.MIN_VALUE)) {
			attempts.add(call(http, caller, "/api/fleet/leases",
					FleetTenancyTests.borrow("alpha-ns", 7, preferred, now)));
		}
		for (long ceiling : List.of(-2L, Long.MIN_VALUE, Long.MAX_VALUE, now + 36_000_000L)) {
			attempts.add(call(http, caller, "/api/fleet/leases", FleetTenancyTests.borrow("alpha-ns", 7, -1, ceiling)));
		}
		for (long ttl : List.of(0L, -1L, 999L, Long.MAX_VALUE, 3_600_001L)) {
			attempts.add(call(http, caller, "/api/fleet/leases",
					FleetTenancyTests.borrow("alpha-ns", 7, -1, now).replace("\"ttlMillis\":60000",
							"\"ttlMillis\":" + ttl)));
		}
		attempts.add(call(http, caller, "/api/fleet/leases",
				FleetTenancyTests.borrow("alpha-ns", 7, -1, now).replace("\"maxWorkerId\":7", "\"maxWorkerId\":7.5")));
		// Renewals and releases of another client's lease, made-up tokens, and edges on the own lease.
		for (String lease : foreign) {
			for (long ceiling : List.of(now, Long.MAX_VALUE, -2L, Long.MIN_VALUE)) {
				attempts.add(call(http, caller, "/api/fleet/leases/renew",
						"{\"lease\":" + lease + ",\"timestampCeiling\":" + ceiling + "}"));
			}
			for (long last : List.of(-1L, 0L, now, Long.MAX_VALUE, -2L, Long.MIN_VALUE)) {
				attempts.add(call(http, caller, "/api/fleet/leases/release",
						"{\"lease\":" + lease + ",\"lastIssuedTimestamp\":" + last + "}"));
			}
		}
		for (String lease : forged) {
			for (long ceiling : List.of(Long.MAX_VALUE, -2L, Long.MIN_VALUE)) {
				attempts.add(call(http, caller, "/api/fleet/leases/renew",
						"{\"lease\":" + lease + ",\"timestampCeiling\":" + ceiling + "}"));
			}
			for (long last : List.of(0L, Long.MAX_VALUE, -2L, Long.MIN_VALUE)) {
				attempts.add(call(http, caller, "/api/fleet/leases/release",
						"{\"lease\":" + lease + ",\"lastIssuedTimestamp\":" + last + "}"));
			}
		}
		for (long last : List.of(0L, -2L, Long.MAX_VALUE, Long.MIN_VALUE, now + 36_000_000L)) {
			attempts.add(call(http, caller, "/api/fleet/leases/release",
					"{\"lease\":" + alphaLease + ",\"lastIssuedTimestamp\":" + last + "}"));
		}
		attempts.add(call(http, caller, "/api/fleet/leases/renew",
				"{\"lease\":" + alphaLease + ",\"timestampCeiling\":" + Long.MAX_VALUE + "}"));
		// Ranges: another client's key, the server's keys, odd names, and edge steps on the own key.
		for (String key : List.of("beta-key", "order", "user", "leaf-segment-test", "beta-%2A", "x".repeat(200))) {
			for (String body : List.of("", "{}", "{\"step\":1}", "{\"step\":1000000000}", "{\"step\":0}",
					"{\"step\":-1}", "{\"step\":1.5}", "{\"requestId\":12345678}")) {
				attempts.add(call(http, caller, "/api/fleet/segments/" + key + "/ranges", body));
			}
		}
		for (String body : List.of("{\"step\":0}", "{\"step\":-1}", "{\"step\":" + Integer.MAX_VALUE + "}",
				"{\"step\":" + Long.MAX_VALUE + "}", "{\"step\":1.5}", "{\"step\":\"7\"}", "{\"step\":1e3}",
				"{\"step\":1,\"requestId\":12345678}", "{\"step\":1,\"requestId\":\"bad id\"}", "{\"step\":null,",
				"[1]")) {
			attempts.add(call(http, caller, "/api/fleet/segments/alpha-key/ranges", body));
		}
		if (caller.length == 0) {
			attempts.add(new Attempt("GET /api/fleet/segments", http.get("/api/fleet/segments")));
			attempts.add(new Attempt("GET /api/fleet/whoami", http.get("/api/fleet/whoami")));
			attempts.add(call(http, caller, "/api/fleet/leases",
					FleetTenancyTests.borrow("alpha-ns", 7, -1, now)));
			attempts.add(call(http, caller, "/api/fleet/segments/alpha-key/ranges", "{\"step\":1}"));
		}
	}

	private static Attempt call(HttpTestClient http, String[] caller, String path, String body) {
		return new Attempt("POST " + path + " " + body, http.send("POST", path, body, caller));
	}

	private static String lease(String namespace, int workerId, String ownerToken) {
		long now = System.currentTimeMillis();
		return "{\"namespace\":\"" + namespace + "\",\"workerId\":" + workerId + ",\"ownerToken\":\"" + ownerToken
				+ "\",\"ttlMillis\":60000,\"timestampFloor\":0,\"timestampCeiling\":" + now + ",\"storeTimeMillis\":"
				+ now + "}";
	}

	/**
	 * What the store holds for the other tenant, for alpha, for every key, and the server's own worker IDs (whose
	 * expiry and mark its own renewals move).
	 */
	private static Map<String, Object> state(JdbcTemplate jdbc) {
		Map<String, Object> state = new TreeMap<>();
		for (String namespace : List.of("beta-ns", "alpha-ns", "default", "beta-*")) {
			state.put("leases " + namespace, jdbc.queryForList("SELECT worker_id, owner_token, instance, expires_at, "
					+ "max_timestamp FROM id_worker_lease WHERE namespace = ? ORDER BY worker_id", namespace));
		}
		state.put("server's worker IDs", jdbc.queryForList("SELECT worker_id, owner_token FROM id_worker_lease "
				+ "WHERE namespace = 'id-server' ORDER BY worker_id"));
		state.put("keys", jdbc.queryForList("SELECT biz_tag, max_id, step FROM leaf_alloc ORDER BY biz_tag"));
		return state;
	}

	private static ConfigurableApplicationContext start(Path dataDir) {
		return new SpringApplicationBuilder(IdServerApplication.class).run("--server.port=0",
				"--id-server.data-dir=" + dataDir, "--spring.main.banner-mode=off",
				"--id-server.login.max-failures=100000", "--id-server.clients[0].name=alpha",
				"--id-server.clients[0].token=alpha-token-0123456789", "--id-server.clients[0].namespaces=alpha-ns",
				"--id-server.clients[0].segment-keys=alpha-key", "--id-server.clients[1].name=beta",
				"--id-server.clients[1].token=beta-token-0123456789", "--id-server.clients[1].namespaces=beta-ns",
				"--id-server.clients[1].segment-keys=beta-key", "--id-worker.segment.keys.alpha-key.step=100",
				"--id-worker.segment.keys.beta-key.step=100");
	}

	private static int port(ConfigurableApplicationContext context) {
		return Integer.parseInt(context.getEnvironment().getRequiredProperty("local.server.port"));
	}

	private static DocumentContext ok(HttpResponse<String> response) {
		assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
		return HttpTestClient.json(response);
	}

	private record Attempt(String request, HttpResponse<String> response, int status) {

		Attempt(String request, HttpResponse<String> response) {
			this(request, response, response.statusCode());
		}

		String describe() {
			return this.request + " -> " + this.status + " " + this.response.body();
		}

	}

}
