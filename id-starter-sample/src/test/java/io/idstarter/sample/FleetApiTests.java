package io.idstarter.sample;

import java.net.http.HttpResponse;
import java.util.List;

import com.jayway.jsonpath.DocumentContext;
import io.idstarter.segment.SegmentKeyAdmin;
import io.idstarter.segment.SegmentStore;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.context.TestPropertySource;

import static io.idstarter.sample.IdServerEndpointsTests.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The fleet API over real HTTP: ranges and worker leases only for configured clients, validated, idempotent with a
 * request ID, and problems that give away no other client's owner token.
 */
@TestPropertySource(properties = { "id-server.clients[0].name=orders",
		"id-server.clients[0].token=orders-token-0123456789", "id-server.clients[0].namespaces=fleet-tests",
		"id-server.clients[0].segment-keys=fleet-*", "id-server.clients[1].name=billing",
		"id-server.clients[1].password=billing-password-0123",
		"id-server.clients[1].segment-keys=fleet-b,fleet-c,fleet-d", "id-worker.segment.keys.fleet-a.step=100",
		"id-worker.segment.keys.fleet-b.step=100", "id-worker.segment.keys.fleet-c.step=100",
		"id-worker.segment.keys.fleet-d.step=100" })
class FleetApiTests extends AbstractIdServerTests {

	private static final String[] ORDERS = { "Authorization", "Bearer orders-token-0123456789" };

	private static final String[] BILLING = { "Authorization", HttpTestClient.basic("billing", "billing-password-0123") };

	@Autowired
	private SegmentStore serverStore;

	@Test
	void refusesWithout401ProblemAndAllocatesNothing() {
		HttpResponse<String> anonymous = this.http.send("POST", "/api/fleet/segments/fleet-a/ranges",
				"{\"step\":10}");
		assertProblem(anonymous, 401, "Authentication required", "unauthorized");
		assertThat(anonymous.headers().firstValue("WWW-Authenticate")).hasValueSatisfying(
				(challenge) -> assertThat(challenge).contains("Bearer", "Basic"));
		assertProblem(this.http.send("POST", "/api/fleet/segments/fleet-a/ranges", "{\"step\":10}", "Authorization",
				"Bearer wrong-token-0123456789"), 401, "Authentication required", "unauthorized");
		assertProblem(this.http.send("POST", "/api/fleet/segments/fleet-a/ranges", "{\"step\":10}", "Authorization",
				HttpTestClient.basic("billing", "orders-token-0123456789")), 401, "Authentication required",
				"unauthorized");
		assertProblem(this.http.send("POST", "/api/fleet/leases", borrow(-1, "r-anonymous-1")), 401,
				"Authentication required", "unauthorized");
		DocumentContext first = range("fleet-a", "{\"step\":10}", ORDERS);
		assertThat(first.read("$.start", Long.class)).as("no range went to the refused requests").isEqualTo(1);
		assertThat(first.read("$.end", Long.class)).isEqualTo(11);
	}

	@Test
	void allocatesRangesOfTheStepAskedForOrTheKeysStep() {
		DocumentContext first = range("fleet-b", "{\"step\":500}", BILLING);
		DocumentContext second = range("fleet-b", null, ORDERS);
		assertThat(first.read("$.start", Long.class)).isEqualTo(1);
		assertThat(first.read("$.end", Long.class)).isEqualTo(501);
		assertThat(first.read("$.configuredStep", Integer.class)).isEqualTo(100);
		assertThat(second.read("$.start", Long.class)).isEqualTo(501);
		assertThat(second.read("$.end", Long.class)).isEqualTo(601);
		assertProblem(this.http.send("POST", "/api/fleet/segments/fleet-nope/ranges", "{\"step\":5}", ORDERS), 404,
				"Unknown key", "unknown-key");
		assertProblem(this.http.send("POST", "/api/fleet/segments/fleet-b/ranges", "{\"step\":0}", ORDERS), 400,
				"Invalid request body", "invalid-body");
		assertThat(json(this.http.get("/api/fleet/segments", ORDERS), 200).read("$.keys", java.util.List.class))
			.contains("fleet-a", "fleet-b");
	}

	@Test
	void aUsedUpKeyIsA409NamingTheKeyAndNoStoreDetail() {
		((SegmentKeyAdmin) this.serverStore).createKey("fleet-full", Long.MAX_VALUE - 15, 10, "almost used up");
		assertThat(range("fleet-full", null, ORDERS).read("$.end", Long.class)).isEqualTo(Long.MAX_VALUE - 5);
		HttpResponse<String> refused = this.http.send("POST", "/api/fleet/segments/fleet-full/ranges", null, ORDERS);
		assertProblem(refused, 409, "Key exhausted", "key-exhausted");
		assertThat(HttpTestClient.json(refused).read("$.detail", String.class)).contains("'fleet-full'",
				"Long.MAX_VALUE", "move to a new key");
		assertThat(refused.body()).as("the store's own message stays in the log").doesNotContainIgnoringCase("table")
			.doesNotContain("max_id");
		assertThat(refused.headers().firstValue("Retry-After")).as("retrying cannot help").isEmpty();
		assertThat(range("fleet-full", "{\"step\":5}", ORDERS).read("$.end", Long.class)).isEqualTo(Long.MAX_VALUE);
	}

	@Test
	void aRetriedRangeRequestGetsTheSameRange() {
		DocumentContext first = range("fleet-c", "{\"step\":10,\"requestId\":\"range-req-0001\"}", ORDERS);
		DocumentContext retry = range("fleet-c", "{\"step\":10,\"requestId\":\"range-req-0001\"}", ORDERS);
		DocumentContext other = range("fleet-c", "{\"step\":10,\"requestId\":\"range-req-0002\"}", ORDERS);
		assertThat(retry.read("$.start", Long.class)).isEqualTo(first.read("$.start", Long.class));
		assertThat(other.read("$.start", Long.class)).isEqualTo(first.read("$.end", Long.class));
		DocumentContext otherClient = range("fleet-c", "{\"step\":10,\"requestId\":\"range-req-0001\"}", BILLING);
		assertThat(otherClient.read("$.start", Long.class)).as("request IDs are per client")
			.isEqualTo(other.read("$.end", Long.class));
	}

	@Test
	void aRetriedBorrowGetsTheSameLease() {
		String request = borrow(-1, "borrow-req-0001");
		DocumentContext lease = json(this.http.send("POST", "/api/fleet/leases", request, ORDERS), 200);
		DocumentContext retry = json(this.http.send("POST", "/api/fleet/leases", request, ORDERS), 200);
		DocumentContext second = borrowed("borrow-req-0002");
		int workerId = lease.read("$.workerId", Integer.class);
		assertThat(retry.read("$.workerId", Integer.class)).isEqualTo(workerId);
		assertThat(retry.read("$.ownerToken", String.class)).isEqualTo(lease.read("$.ownerToken", String.class));
		assertThat(second.read("$.workerId", Integer.class)).isNotEqualTo(workerId);
		HttpResponse<String> reused = this.http.send("POST", "/api/fleet/leases", borrow(3, "borrow-req-0001"),
				ORDERS);
		assertProblem(reused, 400, "Invalid parameter", "invalid-parameter");
		assertThat(HttpTestClient.json(reused).read("$.detail", String.class)).as("another request, not a retry")
			.contains("'requestId'", "'preferredWorkerId'");
		for (DocumentContext held : List.of(lease, second)) {
			assertThat(this.http.send("POST", "/api/fleet/leases/release",
					"{\"lease\":" + held.jsonString() + ",\"lastIssuedTimestamp\":-1}", ORDERS).statusCode())
				.isEqualTo(204);
		}
	}

	@Test
	void leasesWorkerIdsLikeTheLeaseStores() {
		DocumentContext lease = borrowed("borrow-req-0003");
		DocumentContext second = borrowed("borrow-req-0004");
		String token = lease.read("$.ownerToken", String.class);
		assertThat(lease.read("$.ttlMillis", Long.class)).isEqualTo(5000);

		String monitor = this.http.get("/api/monitor").body();
		assertThat(monitor).contains("\"workersHeld\":").doesNotContain(token, "\"orders\"", "fleet-tests");

		String leaseJson = lease.jsonString();
		long ceiling = System.currentTimeMillis() + 5_000;
		DocumentContext renewed = json(this.http.send("POST", "/api/fleet/leases/renew",
				"{\"lease\":" + leaseJson + ",\"timestampCeiling\":" + ceiling + "}", ORDERS), 200);
		assertThat(renewed.read("$.timestampCeiling", Long.class)).isGreaterThanOrEqualTo(ceiling);
		assertThat(renewed.read("$.ownerToken", String.class)).isEqualTo(token);

		HttpResponse<String> released = this.http.send("POST", "/api/fleet/leases/release",
				"{\"lease\":" + leaseJson + ",\"lastIssuedTimestamp\":-1}", ORDERS);
		assertThat(released.statusCode()).isEqualTo(204);
		HttpResponse<String> lost = this.http.send("POST", "/api/fleet/leases/renew",
				"{\"lease\":" + leaseJson + ",\"timestampCeiling\":" + ceiling + "}", ORDERS);
		assertProblem(lost, 409, "Lease lost", "lease-lost");
		String secondToken = second.read("$.ownerToken", String.class);
		assertThat(lost.body()).doesNotContain(token, secondToken, "id_worker_lease");
	}

	@Test
	void refusesBadLeaseRequests() {
		assertProblem(this.http.send("POST", "/api/fleet/leases",
				"{\"namespace\":\"fleet-tests\",\"maxWorkerId\":7,\"ttlMillis\":10,\"preferredWorkerId\":-1,"
						+ "\"instance\":\"h\",\"timestampCeiling\":0}",
				ORDERS), 400, "Invalid request body", "invalid-body");
		assertProblem(this.http.send("POST", "/api/fleet/leases",
				"{\"namespace\":\"fleet-tests\",\"maxWorkerId\":7,\"ttlMillis\":5000,\"preferredWorkerId\":8,"
						+ "\"instance\":\"h\",\"timestampCeiling\":0}",
				ORDERS), 400, "Invalid parameter", "invalid-parameter");
		assertProblem(this.http.send("POST", "/api/fleet/leases/renew", "{\"timestampCeiling\":1}", ORDERS), 400,
				"Invalid request body", "invalid-body");
	}

	@Test
	void theOpenMonitorCountsDrawsWithoutNamingClients() {
		range("fleet-d", "{\"step\":7}", BILLING);
		String monitor = this.http.get("/api/monitor").body();
		assertThat(monitor).contains("\"ranges\":").doesNotContain("billing");
	}

	@Test
	void whoamiNamesTheClient() {
		assertThat(json(this.http.get("/api/fleet/whoami", BILLING), 200).read("$.client", String.class))
			.isEqualTo("billing");
	}

	private DocumentContext range(String key, String body, String... headers) {
		return json(this.http.send("POST", "/api/fleet/segments/" + key + "/ranges", body, headers), 200);
	}

	/** Borrows a worker ID of namespace {@code fleet-tests} for client {@code orders}, expecting 200. */
	private DocumentContext borrowed(String requestId) {
		return json(this.http.send("POST", "/api/fleet/leases", borrow(-1, requestId), ORDERS), 200);
	}

	private static String borrow(int preferred, String requestId) {
		return "{\"namespace\":\"fleet-tests\",\"maxWorkerId\":7,\"ttlMillis\":5000,\"preferredWorkerId\":"
				+ preferred + ",\"instance\":\"test-host:1\",\"timestampCeiling\":" + (System.currentTimeMillis()
						+ 10_000)
				+ ",\"requestId\":\"" + requestId + "\"}";
	}

	private static DocumentContext json(HttpResponse<String> response, int status) {
		assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
		return HttpTestClient.json(response);
	}

}
