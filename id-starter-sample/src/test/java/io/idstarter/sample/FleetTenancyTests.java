package io.idstarter.sample;

import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import javax.sql.DataSource;

import com.jayway.jsonpath.DocumentContext;
import io.idstarter.sample.fleet.FleetActivity;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.TestPropertySource;

import static io.idstarter.sample.IdServerEndpointsTests.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The fleet API as a shared service: each client acts only on what it was granted, within limits the server sets
 * (greatest worker ID, timestamp ceiling, the floor a release may lower a mark to, leases held, ranges per second,
 * whether give-backs run), and a request the server refuses changes nothing in the store (read back from its tables).
 */
@TestPropertySource(properties = { "id-server.clients[0].name=alpha",
		"id-server.clients[0].token=alpha-token-0123456789", "id-server.clients[0].namespaces=alpha-ns,alpha-quota",
		"id-server.clients[0].segment-keys=alpha-key,alpha-rate", "id-server.clients[0].max-leases=3",
		"id-server.clients[0].max-ranges-per-second=1", "id-server.clients[1].name=beta",
		"id-server.clients[1].password=beta-password-0123", "id-server.clients[1].namespaces=beta-ns",
		"id-server.clients[1].segment-keys=beta-key,beta-give", "id-worker.segment.keys.alpha-key.step=100",
		"id-worker.segment.keys.alpha-rate.step=100", "id-worker.segment.keys.beta-key.step=100",
		"id-worker.segment.keys.beta-give.step=100", "id-server.fleet.give-back=false" })
class FleetTenancyTests extends AbstractIdServerTests {

	private static final String[] ALPHA = { "Authorization", "Bearer alpha-token-0123456789" };

	private static final String[] BETA = { "Authorization", HttpTestClient.basic("beta", "beta-password-0123") };

	@Autowired
	private DataSource dataSource;

	@Autowired
	private FleetActivity activity;

	@Test
	void aClientActsOnlyInTheNamespacesAndKeysGrantedToIt() {
		DocumentContext betaLease = json(this.http.send("POST", "/api/fleet/leases", borrow("beta-ns", 7, -1,
				now() + 5000), BETA), 200);
		List<Map<String, Object>> before = rows("beta-ns");
		assertProblem(this.http.send("POST", "/api/fleet/leases", borrow("beta-ns", 7, -1, now()), ALPHA), 403,
				"Not granted", "not-granted");
		assertProblem(this.http.send("POST", "/api/fleet/leases", borrow("id-server", 1023, 1023, now()), ALPHA), 403,
				"Not granted", "not-granted");
		assertProblem(this.http.send("POST", "/api/fleet/leases/renew",
				"{\"lease\":" + betaLease.jsonString() + ",\"timestampCeiling\":" + now() + "}", ALPHA), 403,
				"Not granted", "not-granted");
		assertProblem(this.http.send("POST", "/api/fleet/leases/release",
				"{\"lease\":" + betaLease.jsonString() + ",\"lastIssuedTimestamp\":0}", ALPHA), 403, "Not granted",
				"not-granted");
		assertProblem(this.http.send("POST", "/api/fleet/segments/beta-key/ranges", "{\"step\":5}", ALPHA), 403,
				"Not granted", "not-granted");
		assertProblem(this.http.send("POST", "/api/fleet/segments/order/ranges", "{\"step\":5}", ALPHA), 403,
				"Not granted", "not-granted");
		assertThat(rows("beta-ns")).as("beta's lease is as it was").isEqualTo(before);
		assertThat(rows("id-server")).extracting((row) -> row.get("worker_id")).doesNotContain(1023);
		assertThat(json(this.http.get("/api/fleet/segments", ALPHA), 200).read("$.keys", List.class))
			.containsExactly("alpha-key", "alpha-rate");
		assertThat(json(this.http.get("/api/fleet/segments?key=alpha-key", ALPHA), 200).read("$.keys", List.class))
			.containsExactly("alpha-key");
		assertThat(json(this.http.get("/api/fleet/segments?key=beta-key", ALPHA), 200).read("$.keys", List.class))
			.as("a key of the store not granted to alpha").isEmpty();
		assertThat(json(this.http.send("POST", "/api/fleet/segments/beta-key/ranges", "{\"step\":5}", BETA), 200)
			.read("$.start", Long.class)).as("no range of beta-key went to alpha").isEqualTo(1);
	}

	@Test
	void aServerThatTurnedGiveBacksOffTakesNothingBack() {
		DocumentContext range = json(this.http.send("POST", "/api/fleet/segments/beta-give/ranges", "{}", BETA), 200);
		long start = range.read("$.start", Long.class);
		long end = range.read("$.end", Long.class);
		// The server cannot tell whether the client issued [start + 1, end): with give-backs off it takes nothing.
		assertThat(json(this.http.send("POST", "/api/fleet/segments/beta-give/give-back",
				"{\"cursor\":" + (start + 1) + ",\"end\":" + end + "}", BETA), 200).read("$.givenBack", Boolean.class))
			.isFalse();
		assertThat(new JdbcTemplate(this.dataSource).queryForObject(
				"SELECT max_id FROM leaf_alloc WHERE biz_tag = 'beta-give'", Long.class)).isEqualTo(end);
		assertProblem(this.http.send("POST", "/api/fleet/segments/beta-give/give-back",
				"{\"cursor\":" + (start + 1) + ",\"end\":" + end + "}", ALPHA), 403, "Not granted", "not-granted");
	}

	@Test
	void aClientReadsAndWritesNoLayoutOfANamespaceNotGrantedToIt() {
		String layout = "epoch=2010-11-04T01:42:54.657Z;timestamp-bits=41;worker-id-bits=10;sequence-bits=12";
		List<Map<String, Object>> before = rows("beta-ns");
		assertProblem(this.http.send("POST", "/api/fleet/layouts",
				"{\"namespace\":\"beta-ns\",\"layout\":\"" + layout + "\"}", ALPHA), 403, "Not granted",
				"not-granted");
		assertProblem(this.http.send("POST", "/api/fleet/layouts/replace", "{\"namespace\":\"beta-ns\",\"expected\":\""
				+ layout + "\",\"replacement\":\"" + layout + ";preset=x\"}", ALPHA), 403, "Not granted",
				"not-granted");
		assertProblem(this.http.get("/api/fleet/slot-marks?namespace=beta-ns", ALPHA), 403, "Not granted",
				"not-granted");
		assertProblem(this.http.get("/api/fleet/slot-marks?namespace=id-server", BETA), 403, "Not granted",
				"not-granted");
		assertProblem(this.http.send("POST", "/api/fleet/leases", borrow("beta-ns", 7, -1, now()).replace("}",
				",\"layout\":\"" + layout + "\"}"), ALPHA), 403, "Not granted", "not-granted");
		assertThat(rows("beta-ns")).as("nothing was written for beta-ns").isEqualTo(before);
	}

	@Test
	void aWorkerIdAboveTheServersLayoutIsRefused() {
		assertProblem(this.http.send("POST", "/api/fleet/leases", borrow("alpha-ns", 65535, 65535, now()), ALPHA),
				400, "Invalid parameter", "invalid-parameter");
		assertThat(rows("alpha-ns")).extracting((row) -> row.get("worker_id")).doesNotContain(65535);
	}

	@Test
	void aRowAboveTheServersLayoutStopsNoBorrower() {
		new JdbcTemplate(this.dataSource).update("INSERT INTO id_worker_lease (namespace, worker_id, owner_token, "
				+ "instance, expires_at, max_timestamp, updated_at) VALUES ('alpha-ns', 5000, NULL, 'wide', 0, 1, 0)");
		DocumentContext lease = json(this.http.send("POST", "/api/fleet/leases", borrow("alpha-ns", 7, -1, now()),
				ALPHA), 200);
		assertThat(lease.read("$.workerId", Integer.class)).isZero();
		release(lease, -1, ALPHA);
	}

	@Test
	void aCeilingBeyondTheServersClockPlusTtlAndAllowanceIsRefusedAndChangesNoMark() {
		assertProblem(this.http.send("POST", "/api/fleet/leases", borrow("alpha-ns", 7, 3, Long.MAX_VALUE), ALPHA),
				400, "Invalid parameter", "invalid-parameter");
		assertThat(rows("alpha-ns")).extracting((row) -> row.get("worker_id")).doesNotContain(3);
		long ceiling = now() + 5000;
		DocumentContext lease = json(this.http.send("POST", "/api/fleet/leases", borrow("alpha-ns", 7, 4, ceiling),
				ALPHA), 200);
		assertProblem(this.http.send("POST", "/api/fleet/leases/renew",
				"{\"lease\":" + lease.jsonString() + ",\"timestampCeiling\":" + Long.MAX_VALUE + "}", ALPHA), 400,
				"Invalid parameter", "invalid-parameter");
		assertProblem(this.http.send("POST", "/api/fleet/leases/release",
				"{\"lease\":" + lease.jsonString() + ",\"lastIssuedTimestamp\":" + Long.MAX_VALUE + "}", ALPHA), 400,
				"Invalid parameter", "invalid-parameter");
		assertThat(mark("alpha-ns", 4)).isEqualTo(ceiling);
		assertThat(owner("alpha-ns", 4)).isEqualTo(lease.read("$.ownerToken", String.class));
		release(lease, -1, ALPHA);
	}

	@Test
	void aReleaseLowersTheMarkOnlyToATimestampAtOrAboveTheFloorThisServerGranted() {
		long first = now() + 5000;
		DocumentContext lease = json(this.http.send("POST", "/api/fleet/leases", borrow("alpha-ns", 7, 6, first),
				ALPHA), 200);
		long issued = first - 4000;
		release(lease, issued, ALPHA);
		assertThat(mark("alpha-ns", 6)).isEqualTo(issued);
		DocumentContext again = json(this.http.send("POST", "/api/fleet/leases", borrow("alpha-ns", 7, 6, now()),
				ALPHA), 200);
		assertThat(again.read("$.timestampFloor", Long.class)).isEqualTo(issued);
		long mark = mark("alpha-ns", 6);
		String forged = again.jsonString().replace("\"timestampFloor\":" + issued, "\"timestampFloor\":0");
		assertThat(forged).contains("\"timestampFloor\":0");
		assertProblem(this.http.send("POST", "/api/fleet/leases/release",
				"{\"lease\":" + forged + ",\"lastIssuedTimestamp\":0}", ALPHA), 400, "Invalid parameter",
				"invalid-parameter");
		assertThat(mark("alpha-ns", 6)).as("the mark stays").isEqualTo(mark);
		assertThat(owner("alpha-ns", 6)).as("the lease stays held").isEqualTo(again.read("$.ownerToken", String.class));
		release(again, issued, ALPHA);
		assertThat(mark("alpha-ns", 6)).isEqualTo(issued);
	}

	@Test
	void aReleaseWithAMadeUpOwnerTokenIsRefusedAndTheHolderStays() {
		DocumentContext lease = json(this.http.send("POST", "/api/fleet/leases", borrow("alpha-ns", 7, 2, now()),
				ALPHA), 200);
		String token = lease.read("$.ownerToken", String.class);
		String madeUp = lease.jsonString().replace(token, "made-up-owner-token");
		HttpResponse<String> refused = this.http.send("POST", "/api/fleet/leases/release",
				"{\"lease\":" + madeUp + ",\"lastIssuedTimestamp\":-1}", ALPHA);
		assertProblem(refused, 409, "Lease lost", "lease-lost");
		assertThat(owner("alpha-ns", 2)).isEqualTo(token);
		assertThat(this.activity.holders()).as("the holder stays on the monitor")
			.anyMatch((holder) -> holder.namespace().equals("alpha-ns") && holder.workerId() == 2);
		release(lease, -1, ALPHA);
		assertThat(owner("alpha-ns", 2)).isNull();
		assertProblem(this.http.send("POST", "/api/fleet/leases/release",
				"{\"lease\":" + lease.jsonString() + ",\"lastIssuedTimestamp\":-1}", ALPHA), 409, "Lease lost",
				"lease-lost");
	}

	@Test
	void aClientHoldsAtMostItsQuotaOfLeases() {
		List<DocumentContext> held = new ArrayList<>();
		for (int i = 0; i < 3; i++) {
			held.add(json(this.http.send("POST", "/api/fleet/leases", borrow("alpha-quota", 7, -1, now()), ALPHA),
					200));
		}
		HttpResponse<String> over = this.http.send("POST", "/api/fleet/leases", borrow("alpha-quota", 7, -1, now()),
				ALPHA);
		assertProblem(over, 429, "Quota exceeded", "quota-exceeded");
		assertThat(over.headers().firstValue("Retry-After")).isPresent();
		assertThat(rows("alpha-quota")).hasSize(3);
		release(held.get(0), -1, ALPHA);
		held.set(0, json(this.http.send("POST", "/api/fleet/leases", borrow("alpha-quota", 7, -1, now()), ALPHA), 200));
		held.forEach((lease) -> release(lease, -1, ALPHA));
	}

	@Test
	void aClientDrawsAtMostItsRangesPerSecond() {
		List<Integer> statuses = new ArrayList<>();
		for (int i = 0; i < 3; i++) {
			statuses.add(this.http.send("POST", "/api/fleet/segments/alpha-rate/ranges", "{\"step\":1}", ALPHA)
				.statusCode());
		}
		assertThat(statuses).as("one range per second").contains(200, 429);
		long drawn = new JdbcTemplate(this.dataSource).queryForObject(
				"SELECT max_id FROM leaf_alloc WHERE biz_tag = 'alpha-rate'", Long.class);
		assertThat(drawn - 1).as("IDs drawn").isEqualTo(statuses.stream().filter((status) -> status == 200).count());
	}

	@Test
	void fleetJsonIsBoundStrictly() {
		HttpResponse<String> fraction = this.http.send("POST", "/api/fleet/segments/alpha-key/ranges",
				"{\"step\":1.5}", ALPHA);
		assertProblem(fraction, 400, "Invalid request body", "invalid-body");
		assertThat(HttpTestClient.json(fraction).read("$.detail", String.class)).contains("'step'");
		assertProblem(this.http.send("POST", "/api/fleet/segments/alpha-key/ranges",
				"{\"step\":2,\"requestId\":12345678}", ALPHA), 400, "Invalid request body", "invalid-body");
		assertProblem(this.http.send("POST", "/api/fleet/segments/alpha-key/ranges", "{\"step\":\"2\"}", ALPHA), 400,
				"Invalid request body", "invalid-body");
		assertProblem(this.http.send("POST", "/api/fleet/leases", borrow("alpha-ns", 7, -1, now())
			.replace("\"maxWorkerId\":7", "\"maxWorkerId\":7.9"), ALPHA), 400, "Invalid request body", "invalid-body");
		assertThat(rows("alpha-ns")).extracting((row) -> row.get("owner_token")).allMatch(Objects::isNull);
		assertThat(new JdbcTemplate(this.dataSource).queryForObject(
				"SELECT max_id FROM leaf_alloc WHERE biz_tag = 'alpha-key'", Long.class))
			.as("no range drawn").isEqualTo(1);
	}

	private void release(DocumentContext lease, long lastIssued, String... headers) {
		HttpResponse<String> released = this.http.send("POST", "/api/fleet/leases/release",
				"{\"lease\":" + lease.jsonString() + ",\"lastIssuedTimestamp\":" + lastIssued + "}", headers);
		assertThat(released.statusCode()).as(released.body()).isEqualTo(204);
	}

	private List<Map<String, Object>> rows(String namespace) {
		return new JdbcTemplate(this.dataSource).queryForList("SELECT worker_id, owner_token, expires_at, "
				+ "max_timestamp FROM id_worker_lease WHERE namespace = ? ORDER BY worker_id", namespace);
	}

	private long mark(String namespace, int workerId) {
		return new JdbcTemplate(this.dataSource).queryForObject(
				"SELECT max_timestamp FROM id_worker_lease WHERE namespace = ? AND worker_id = ?", Long.class,
				namespace, workerId);
	}

	private String owner(String namespace, int workerId) {
		return new JdbcTemplate(this.dataSource).queryForObject(
				"SELECT owner_token FROM id_worker_lease WHERE namespace = ? AND worker_id = ?", String.class,
				namespace, workerId);
	}

	static String borrow(String namespace, int maxWorkerId, int preferred, long ceiling) {
		return "{\"namespace\":\"" + namespace + "\",\"maxWorkerId\":" + maxWorkerId + ",\"ttlMillis\":60000,"
				+ "\"preferredWorkerId\":" + preferred + ",\"instance\":\"tenancy-test:1\",\"timestampCeiling\":"
				+ ceiling + "}";
	}

	private static long now() {
		return System.currentTimeMillis();
	}

	private static DocumentContext json(HttpResponse<String> response, int status) {
		assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
		return HttpTestClient.json(response);
	}

}
