package io.idstarter.sample;

import java.net.http.HttpResponse;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import com.jayway.jsonpath.DocumentContext;
import io.idstarter.snowflake.SnowflakeIdGenerator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.beans.factory.annotation.Autowired;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every endpoint of the server and its errors, over real HTTP, on the default configuration (file-backed H2, admin
 * API off).
 */
class IdServerEndpointsTests extends AbstractIdServerTests {

	@Autowired
	private SnowflakeIdGenerator snowflake;

	@Test
	void segmentGetAnswersIncreasingIdsAsPlainTextLikeLeaf() {
		assertIncreasingPlainTextIds("/api/segment/get/order");
	}

	@Test
	void segmentGetServesLeafsExampleKey() {
		HttpResponse<String> response = this.http.get("/api/segment/get/leaf-segment-test");
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(Long.parseLong(response.body())).isPositive();
	}

	@Test
	void segmentGetAnswersClientsThatAcceptOnlyTextOrOnlyJson() {
		HttpResponse<String> text = this.http.get("/api/segment/get/user", "Accept", "text/plain");
		assertThat(text.statusCode()).isEqualTo(200);
		assertThat(HttpTestClient.contentType(text)).startsWith("text/plain");
		HttpResponse<String> json = this.http.get("/api/segment/get/user", "Accept", "application/json");
		assertThat(json.statusCode()).isEqualTo(200);
		assertThat(HttpTestClient.contentType(json)).startsWith("application/json");
		// A bare decimal is a JSON number.
		assertThat(Long.parseLong(json.body())).isGreaterThan(Long.parseLong(text.body()));
	}

	@Test
	void segmentGetOfUnknownKeyIsNotFoundProblem() {
		HttpResponse<String> response = this.http.get("/api/segment/get/no-such-key");
		assertProblem(response, 404, "Unknown key", "unknown-key");
		DocumentContext problem = HttpTestClient.json(response);
		assertThat(problem.read("$.key", String.class)).isEqualTo("no-such-key");
		assertThat(problem.read("$.detail", String.class)).contains("'no-such-key'");
		assertThat(problem.read("$.instance", String.class)).isEqualTo("/api/segment/get/no-such-key");
	}

	@Test
	void errorsAreProblemDetailsEvenForClientsThatAcceptOnlyText() {
		HttpResponse<String> response = this.http.get("/api/segment/get/no-such-key", "Accept", "text/plain");
		assertProblem(response, 404, "Unknown key", "unknown-key");
	}

	@Test
	void segmentBatchAnswersDistinctIncreasingIdsAsJsonNumbers() {
		HttpResponse<String> response = this.http.get("/api/segment/batch/order?count=2500");
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(HttpTestClient.contentType(response)).startsWith("application/json");
		List<Number> ids = HttpTestClient.json(response).read("$");
		assertThat(ids).hasSize(2500);
		assertIncreasing(ids.stream().map(Number::longValue).toList());
		long next = Long.parseLong(this.http.get("/api/segment/get/order").body());
		assertThat(next).isGreaterThan(ids.get(ids.size() - 1).longValue());
	}

	@Test
	void batchesWriteIdsAsStringsOnRequest() {
		for (String path : List.of("/api/segment/batch/user?count=3&format=string",
				"/api/snowflake/batch/any?count=3&format=STRING")) {
			HttpResponse<String> response = this.http.get(path);
			assertThat(response.statusCode()).as(path).isEqualTo(200);
			assertThat(response.body()).as(path).matches("\\[\"\\d+\",\"\\d+\",\"\\d+\"\\]");
		}
	}

	@ParameterizedTest
	@ValueSource(strings = { "0", "-1", "10001" })
	void batchesRejectCountsOutOfRange(String count) {
		for (String kind : List.of("segment", "snowflake")) {
			HttpResponse<String> response = this.http.get("/api/" + kind + "/batch/order?count=" + count);
			assertProblem(response, 400, "Invalid parameter", "invalid-parameter");
			DocumentContext problem = HttpTestClient.json(response);
			assertThat(problem.read("$.parameter", String.class)).isEqualTo("count");
			assertThat(problem.read("$.value", String.class)).isEqualTo(count);
			assertThat(problem.read("$.detail", String.class)).contains("between 1 and 10000");
		}
	}

	@ParameterizedTest
	@ValueSource(strings = { "?count=abc", "?count=1.5", "?count=99999999999", "" })
	void batchesRejectMalformedOrMissingCounts(String query) {
		HttpResponse<String> response = this.http.get("/api/segment/batch/order" + query);
		assertProblem(response, 400, "Invalid parameter", "invalid-parameter");
		assertThat(HttpTestClient.json(response).read("$.parameter", String.class)).isEqualTo("count");
		assertThat(HttpTestClient.json(response).read("$.detail", String.class))
			.startsWith(query.isEmpty() ? "'count' is required" : "'count' must be a 32-bit integer: ");
	}

	@Test
	void batchesRejectUnknownFormats() {
		HttpResponse<String> response = this.http.get("/api/segment/batch/order?count=2&format=xml");
		assertProblem(response, 400, "Invalid parameter", "invalid-parameter");
		assertThat(HttpTestClient.json(response).read("$.detail", String.class)).contains("[number, string]");
	}

	@Test
	void segmentBatchOfUnknownKeyIsNotFoundProblem() {
		assertProblem(this.http.get("/api/segment/batch/no-such-key?count=2"), 404, "Unknown key", "unknown-key");
	}

	@Test
	void snowflakeGetAnswersIncreasingIdsAsPlainTextLikeLeaf() {
		assertIncreasingPlainTextIds("/api/snowflake/get/any-key");
	}

	@Test
	void snowflakeBatchAnswersDistinctIncreasingIds() {
		HttpResponse<String> response = this.http.get("/api/snowflake/batch/any?count=10000");
		assertThat(response.statusCode()).isEqualTo(200);
		List<Number> ids = HttpTestClient.json(response).read("$");
		assertThat(ids).hasSize(10000);
		assertIncreasing(ids.stream().map(Number::longValue).toList());
	}

	@Test
	void decodeSplitsASnowflakeIdIntoTimeWorkerAndSequence() {
		Instant before = Instant.now();
		long id = Long.parseLong(this.http.get("/api/snowflake/get/any").body());
		Instant after = Instant.now();
		HttpResponse<String> response = this.http.get("/api/snowflake/decode/" + id);
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(HttpTestClient.contentType(response)).startsWith("application/json");
		DocumentContext decoded = HttpTestClient.json(response);
		assertThat(decoded.read("$.id", String.class)).isEqualTo(Long.toString(id));
		assertThat(decoded.read("$.workerId", Integer.class)).isEqualTo(this.snowflake.workerId().getAsInt());
		Instant timestamp = Instant.parse(decoded.read("$.timestamp", String.class));
		assertThat(timestamp).isBetween(before.minusMillis(1), after.plusMillis(1));
		assertThat(decoded.read("$.unixMillis", Long.class)).isEqualTo(timestamp.toEpochMilli());
		assertThat(decoded.read("$.sequence", Long.class)).isNotNegative();
		assertThat(decoded.read("$.layout.workerIdBits", Integer.class)).isEqualTo(10);
		// The fields put back together give the ID.
		assertThat(this.snowflake.layout()
			.compose(timestamp.toEpochMilli(), decoded.read("$.workerId", Integer.class),
					decoded.read("$.sequence", Long.class))).isEqualTo(id);
	}

	@ParameterizedTest
	@ValueSource(strings = { "0", "-42" })
	void decodeRejectsIdsThatAreNotPositive(String id) {
		HttpResponse<String> response = this.http.get("/api/snowflake/decode/" + id);
		assertProblem(response, 400, "Invalid parameter", "invalid-parameter");
		assertThat(HttpTestClient.json(response).read("$.parameter", String.class)).isEqualTo("id");
	}

	@ParameterizedTest
	@ValueSource(strings = { "abc", "12x", "99999999999999999999" })
	void decodeRejectsMalformedIds(String id) {
		HttpResponse<String> response = this.http.get("/api/snowflake/decode/" + id);
		assertProblem(response, 400, "Invalid parameter", "invalid-parameter");
		assertThat(HttpTestClient.json(response).read("$.detail", String.class))
			.isEqualTo("'id' must be a 64-bit integer: " + id);
		assertThat(HttpTestClient.json(response).read("$.value", String.class)).isEqualTo(id);
	}

	@Test
	void monitorJsonReportsTheKeysAndTheWorkerLease() {
		long id = Long.parseLong(this.http.get("/api/segment/get/order").body());
		HttpResponse<String> response = this.http.get("/api/monitor");
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.headers().firstValue("Cache-Control")).hasValue("no-store");
		DocumentContext monitor = HttpTestClient.json(response);
		List<String> keys = monitor.read("$.segmentKeys[*].key");
		assertThat(keys).contains("leaf-segment-test", "order", "user");
		assertThat(monitor.read("$.segmentKeys[?(@.key == 'order')].loaded", List.class)).containsExactly(true);
		List<Number> issued = monitor.read("$.segmentKeys[?(@.key == 'order')].issuedCount");
		assertThat(issued.get(0).longValue()).isPositive();
		List<Number> start = monitor.read("$.segmentKeys[?(@.key == 'order')].current.start");
		List<Number> end = monitor.read("$.segmentKeys[?(@.key == 'order')].current.end");
		assertThat(id).isGreaterThanOrEqualTo(start.get(0).longValue()).isLessThan(end.get(0).longValue());
		List<Number> steps = monitor.read("$.segmentKeys[?(@.key == 'order')].configuredStep");
		assertThat(steps.get(0).intValue()).isEqualTo(2000);
		assertThat(monitor.read("$.snowflake.lease.state", String.class)).isEqualTo("ACTIVE");
		assertThat(monitor.read("$.periodicKeys[0].key", String.class)).isEqualTo("invoice");
		assertThat(monitor.read("$.periodicKeys[0].format", String.class)).isEqualTo("INV-{yyyyMMdd}-{seq:6}");
		assertThat(monitor.read("$.periodicKeys[0].reset", String.class)).isEqualTo("DAILY");
		assertThat(monitor.read("$.periodicKeys[0].retention", String.class)).isEqualTo("35d");
		assertThat(monitor.read("$.periodicKeys[0].currentSegmentKey", String.class)).startsWith("invoice:20");
		assertThat(monitor.read("$.snowflake.lease.namespace", String.class)).isEqualTo("id-server");
		assertThat(monitor.read("$.snowflake.workerId", Integer.class))
			.isEqualTo(monitor.read("$.snowflake.lease.workerId", Integer.class))
			.isEqualTo(this.snowflake.workerId().getAsInt());
		assertThat(Instant.parse(monitor.read("$.snowflake.lease.leaseExpiry", String.class))).isAfter(Instant.now());
	}

	@Test
	void monitorPageIsServedAtMonitorAndLeafsCachePath() {
		HttpResponse<String> page = this.http.get("/monitor");
		assertThat(page.statusCode()).isEqualTo(200);
		assertThat(HttpTestClient.contentType(page)).startsWith("text/html");
		assertThat(page.body()).contains("<title>id-server monitor</title>", "monitor.js");
		assertThat(this.http.get("/monitor.js").statusCode()).isEqualTo(200);
		for (String path : List.of("/cache", "/")) {
			HttpResponse<String> redirect = this.http.get(path);
			assertThat(redirect.statusCode()).as(path).isEqualTo(302);
			assertThat(redirect.headers().firstValue("Location").orElseThrow()).as(path).endsWith("/monitor");
		}
	}

	@Test
	void adminApiIsOffByDefault() {
		assertProblem(this.http.get("/api/admin/keys"), 404, "Admin API disabled", "admin-disabled");
		// While the admin API is off its paths take no body: one is refused before a byte of it is read.
		assertProblem(this.http.send("POST", "/api/admin/keys", "{\"key\":\"sneaky\"}"), 413,
				"Request body too large", "body-too-large");
		assertProblem(this.http.send("PUT", "/api/admin/keys/order/step", "{\"step\":5}"), 413,
				"Request body too large", "body-too-large");
		assertProblem(this.http.get("/api/segment/get/sneaky"), 404, "Unknown key", "unknown-key");
	}

	@Test
	void unknownPathsAreNotFoundProblems() {
		HttpResponse<String> response = this.http.get("/api/nothing-here");
		assertThat(response.statusCode()).isEqualTo(404);
		assertThat(HttpTestClient.contentType(response)).startsWith("application/problem+json");
	}

	@Test
	void healthIsUpWithTheGeneratorsPart() {
		HttpResponse<String> response = this.http.get("/actuator/health");
		assertThat(response.statusCode()).isEqualTo(200);
		DocumentContext health = HttpTestClient.json(response);
		assertThat(health.read("$.status", String.class)).isEqualTo("UP");
		assertThat(health.read("$.components.idWorker.status", String.class)).isEqualTo("UP");
		assertThat(health.read("$.components.idWorker.details.snowflake.lease", String.class)).isEqualTo("ACTIVE");
	}

	@Test
	void idWorkerActuatorEndpointIsExposed() {
		this.http.get("/api/segment/get/user");
		HttpResponse<String> response = this.http.get("/actuator/idworker/user");
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(HttpTestClient.json(response).read("$.issuedCount", Long.class)).isPositive();
	}

	static void assertProblem(HttpResponse<String> response, int status, String title, String code) {
		assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
		assertThat(HttpTestClient.contentType(response)).startsWith("application/problem+json");
		DocumentContext problem = HttpTestClient.json(response);
		assertThat(problem.read("$.status", Integer.class)).isEqualTo(status);
		assertThat(problem.read("$.title", String.class)).isEqualTo(title);
		assertThat(problem.read("$.code", String.class)).isEqualTo(code);
		assertThat(problem.read("$.detail", String.class)).isNotBlank();
		// Messages may name exception types; never a stack trace.
		assertThat(response.body()).doesNotContain("\tat ", "\"trace\"");
	}

	static void assertIncreasing(List<Long> ids) {
		Set<Long> distinct = new HashSet<>(ids);
		assertThat(distinct).hasSameSizeAs(ids);
		for (int i = 1; i < ids.size(); i++) {
			assertThat(ids.get(i)).isGreaterThan(ids.get(i - 1));
		}
	}

	/** Five GETs of {@code path} answer 200 with an ID as plain text, each above the one before. */
	private void assertIncreasingPlainTextIds(String path) {
		long previous = 0;
		for (int i = 0; i < 5; i++) {
			HttpResponse<String> response = this.http.get(path);
			assertThat(response.statusCode()).isEqualTo(200);
			assertThat(HttpTestClient.contentType(response)).startsWith("text/plain");
			long id = Long.parseLong(response.body());
			assertThat(id).isGreaterThan(previous);
			previous = id;
		}
	}

}
