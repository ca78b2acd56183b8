package io.idstarter.sample;

import com.jayway.jsonpath.DocumentContext;
import com.jayway.jsonpath.JsonPath;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every 4xx of the server is an RFC 9457 problem document: also what Tomcat answers itself (before any servlet),
 * what Spring Security's firewall refuses, what the actuator answers without a body; and the decode endpoint takes a
 * decimal ID only. Sent over a raw socket, so that nothing between the test and the server rewrites the request.
 */
class ServerEdgesTests extends AbstractIdServerTests {

	@ParameterizedTest
	@ValueSource(strings = { "/api/segment/get/a%2Fb", "/api/segment/get/a%00b" })
	void tomcatsOwnRefusalsAreProblems(String path) {
		assertProblem(request("GET " + path + " HTTP/1.1\r\nHost: localhost\r\n"), 400);
	}

	@Test
	void aRequestLineOverTheLimitIsAProblem() {
		assertProblem(request("GET /api/segment/get/" + "a".repeat(9000) + " HTTP/1.1\r\nHost: localhost\r\n"), 400);
	}

	@Test
	void aHeaderOverTheLimitIsAProblem() {
		assertProblem(request("GET /api/segment/get/order HTTP/1.1\r\nHost: localhost\r\nX-Big: " + "a".repeat(20_000)
				+ "\r\n"), 400);
	}

	@ParameterizedTest
	@ValueSource(strings = { "/api/segment/get/../order", "/api/segment/get/a%25b", "/api/segment/get/order;b=c" })
	void firewallRefusalsAreProblems(String path) {
		assertProblem(request("GET " + path + " HTTP/1.1\r\nHost: localhost\r\n"), 400);
	}

	@Test
	void traceIsRefusedWithAProblem() {
		RawHttp.Response response = request("TRACE /api/segment/get/order HTTP/1.1\r\nHost: localhost\r\n");
		assertThat(response.status()).isBetween(400, 499);
		assertProblem(response, response.status());
	}

	@Test
	void anUnknownActuatorSelectorIsA404Problem() {
		assertProblem(request("GET /actuator/idworker/nope HTTP/1.1\r\nHost: localhost\r\n"), 404);
	}

	@ParameterizedTest
	@ValueSource(strings = { "0x10", "%2310", "+10", "0X1F" })
	void decodeTakesDecimalIdsOnly(String id) {
		RawHttp.Response response = request("GET /api/snowflake/decode/" + id + " HTTP/1.1\r\nHost: localhost\r\n");
		DocumentContext problem = assertProblem(response, 400);
		assertThat(problem.read("$.code", String.class)).isEqualTo("invalid-parameter");
		assertThat(problem.read("$.parameter", String.class)).isEqualTo("id");
	}

	@ParameterizedTest
	@ValueSource(strings = { "0x10", "%2310", "+10", "0X1F", "1e1" })
	void batchesTakeDecimalCountsOnly(String count) {
		for (String kind : new String[] { "segment", "snowflake" }) {
			RawHttp.Response response = request(
					"GET /api/" + kind + "/batch/order?count=" + count + " HTTP/1.1\r\nHost: localhost\r\n");
			DocumentContext problem = assertProblem(response, 400);
			assertThat(problem.read("$.code", String.class)).isEqualTo("invalid-parameter");
			assertThat(problem.read("$.parameter", String.class)).isEqualTo("count");
		}
	}

	@Test
	void theErrorPageAskedForDirectlyIsA404Problem() {
		DocumentContext problem = assertProblem(request("GET /error HTTP/1.1\r\nHost: localhost\r\n"), 404);
		assertThat(problem.read("$.code", String.class)).isEqualTo("not-found");
	}

	@ParameterizedTest
	@ValueSource(strings = { "/monitor", "/monitor.html" })
	void theMonitorPageMayNotBeFramed(String path) {
		RawHttp.Response response = request("GET " + path + " HTTP/1.1\r\nHost: localhost\r\n");
		assertThat(response.status()).isEqualTo(200);
		assertThat(response.headers()).contains("x-frame-options: DENY",
				"content-security-policy: frame-ancestors 'none'");
	}

	private static DocumentContext assertProblem(RawHttp.Response response, int status) {
		assertThat(response.status()).as(response.text()).isEqualTo(status);
		assertThat(response.contentType()).as(response.text()).startsWith("application/problem+json");
		assertThat(response.body()).doesNotContain("<html", "<!doctype", "Apache Tomcat", "\tat ");
		DocumentContext problem = JsonPath.parse(response.body());
		assertThat(problem.read("$.status", Integer.class)).isEqualTo(status);
		assertThat(problem.read("$.title", String.class)).isNotBlank();
		assertThat(problem.read("$.detail", String.class)).isNotBlank();
		return problem;
	}

	private RawHttp.Response request(String head) {
		return RawHttp.request(this.port, head);
	}

}
