package io.idstarter.sample;

import java.time.Duration;

import com.jayway.jsonpath.DocumentContext;
import com.jayway.jsonpath.JsonPath;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.beans.factory.annotation.Autowired;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The lean path of the two single-ID endpoints: a plain GET is answered before Spring MVC (no
 * {@code http.server.requests} timer for it) with exactly the status, headers and body MVC gives, and every other
 * request (HEAD, POST, trailing slash, encoded, dotted, empty or unknown key, another {@code Accept}) still gets MVC's
 * answer, observed as before. Sent over a raw socket, so that nothing between the test and the server adds or rewrites
 * headers.
 */
class PlainIdPathTests extends AbstractIdServerTests {

	@Autowired
	private MeterRegistry meters;

	@ParameterizedTest
	@ValueSource(strings = { "segment", "snowflake" })
	void aPlainGetIsAnsweredBeforeMvcAndNotObserved(String mode) {
		String path = "/api/" + mode + "/get/order";
		long observedBefore = observed(mode);
		long previous = 0;
		for (int i = 0; i < 20; i++) {
			RawHttp.Response plain = request("GET " + path + " HTTP/1.1\r\nHost: localhost\r\n");
			assertThat(plain.status()).as(plain.text()).isEqualTo(200);
			long id = Long.parseLong(plain.body());
			assertThat(id).isGreaterThan(previous);
			previous = id;
		}
		// The same GET through MVC (a client asking for text/plain) is observed: one timer count, and only one.
		RawHttp.Response viaMvc = request("GET " + path + " HTTP/1.1\r\nHost: localhost\r\nAccept: text/plain\r\n");
		assertThat(viaMvc.status()).isEqualTo(200);
		awaitObserved(mode, observedBefore + 1);
		sleep(Duration.ofMillis(300));
		assertThat(observed(mode)).isEqualTo(observedBefore + 1);
	}

	@ParameterizedTest
	@ValueSource(strings = { "segment", "snowflake" })
	void aPlainGetHasExactlyTheHeadersMvcWrites(String mode) {
		String path = "/api/" + mode + "/get/order";
		RawHttp.Response plain = request("GET " + path + " HTTP/1.1\r\nHost: localhost\r\n");
		RawHttp.Response anyType = request("GET " + path + " HTTP/1.1\r\nHost: localhost\r\nAccept: */*\r\n");
		RawHttp.Response viaMvc = request("GET " + path + " HTTP/1.1\r\nHost: localhost\r\nAccept: text/plain\r\n");
		assertThat(plain.headers()).containsExactly("content-type: text/plain;charset=UTF-8",
				"content-length: " + plain.body().length(), "connection: close");
		assertThat(anyType.headers()).containsExactly("content-type: text/plain;charset=UTF-8",
				"content-length: " + anyType.body().length(), "connection: close");
		assertThat(viaMvc.headers()).containsExactly("content-type: text/plain;charset=UTF-8",
				"content-length: " + viaMvc.body().length(), "connection: close");
		assertThat(Long.parseLong(viaMvc.body())).isGreaterThan(Long.parseLong(anyType.body()))
			.isGreaterThan(Long.parseLong(plain.body()));
	}

	@Test
	void headIsAnsweredByMvcWithoutBody() {
		long observedBefore = observed("segment");
		RawHttp.Response head = request("HEAD /api/segment/get/order HTTP/1.1\r\nHost: localhost\r\n");
		assertThat(head.status()).isEqualTo(200);
		assertThat(head.headers()).contains("content-type: text/plain;charset=UTF-8");
		assertThat(head.body()).isEmpty();
		awaitObserved("segment", observedBefore + 1);
	}

	@Test
	void postIsMethodNotAllowed() {
		RawHttp.Response post = request("POST /api/segment/get/order HTTP/1.1\r\nHost: localhost\r\nContent-Length: 0\r\n");
		DocumentContext problem = assertProblem(post, 405);
		assertThat(problem.read("$.title", String.class)).isEqualTo("Method Not Allowed");
		assertThat(post.headers()).contains("allow: GET");
	}

	@ParameterizedTest
	@ValueSource(strings = { "/api/segment/get/order/", "/api/segment/get/", "/api/snowflake/get/order/",
			"/api/snowflake/get/" })
	void trailingSlashesAndEmptyKeysAreNotFound(String path) {
		DocumentContext problem = assertProblem(request("GET " + path + " HTTP/1.1\r\nHost: localhost\r\n"), 404);
		assertThat(problem.read("$.title", String.class)).isEqualTo("Not Found");
		assertThat(problem.read("$.instance", String.class)).isEqualTo(path);
	}

	@Test
	void anEncodedKeyIsDecodedByMvc() {
		long observedBefore = observed("segment");
		RawHttp.Response encoded = request("GET /api/segment/get/ord%65r HTTP/1.1\r\nHost: localhost\r\n");
		assertThat(encoded.status()).as(encoded.text()).isEqualTo(200);
		assertThat(Long.parseLong(encoded.body())).isPositive();
		awaitObserved("segment", observedBefore + 1);
	}

	@Test
	void anUnknownKeyIsTheServersProblemAndObserved() {
		long observedBefore = observed("segment");
		RawHttp.Response unknown = request("GET /api/segment/get/no-such-key HTTP/1.1\r\nHost: localhost\r\n");
		DocumentContext problem = assertProblem(unknown, 404);
		assertThat(problem.read("$.code", String.class)).isEqualTo("unknown-key");
		assertThat(problem.read("$.key", String.class)).isEqualTo("no-such-key");
		assertThat(problem.read("$.instance", String.class)).isEqualTo("/api/segment/get/no-such-key");
		awaitObserved("segment", observedBefore + 1);
	}

	@Test
	void aDottedKeyKeepsMvcsDownloadProtection() {
		RawHttp.Response dotted = request("GET /api/segment/get/.order HTTP/1.1\r\nHost: localhost\r\n");
		assertProblem(dotted, 404);
		assertThat(dotted.headers()).contains("content-disposition: inline;filename=f.txt");
	}

	@Test
	void aKeyOverTheLeanPathsLimitIsServedByMvc() {
		String key = "k".repeat(129);
		DocumentContext problem = assertProblem(
				request("GET /api/segment/get/" + key + " HTTP/1.1\r\nHost: localhost\r\n"), 404);
		assertThat(problem.read("$.key", String.class)).isEqualTo(key);
		RawHttp.Response snowflake = request("GET /api/snowflake/get/" + key + " HTTP/1.1\r\nHost: localhost\r\n");
		assertThat(snowflake.status()).isEqualTo(200);
	}

	@Test
	void otherAcceptHeadersGetMvcsContentNegotiation() {
		RawHttp.Response json = request("GET /api/segment/get/order HTTP/1.1\r\nHost: localhost\r\nAccept: application/json\r\n");
		assertThat(json.status()).isEqualTo(200);
		assertThat(json.headers()).contains("content-type: application/json");
	}

	/** Requests of an ID endpoint of {@code mode} that the {@code http.server.requests} timers counted so far. */
	private long observed(String mode) {
		long count = 0;
		for (Timer timer : this.meters.find("http.server.requests").timers()) {
			String uri = timer.getId().getTag("uri");
			if (uri != null && uri.startsWith("/api/" + mode + "/get/")) {
				count += timer.count();
			}
		}
		return count;
	}

	/** The timer stops after the answer is sent: waits a moment for it. */
	private void awaitObserved(String mode, long count) {
		long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
		while (observed(mode) < count && System.nanoTime() < deadline) {
			sleep(Duration.ofMillis(20));
		}
		assertThat(observed(mode)).isEqualTo(count);
	}

	private static void sleep(Duration duration) {
		try {
			Thread.sleep(duration.toMillis());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	private static DocumentContext assertProblem(RawHttp.Response response, int status) {
		assertThat(response.status()).as(response.text()).isEqualTo(status);
		assertThat(response.headers()).as(response.text()).contains("content-type: application/problem+json");
		DocumentContext problem = JsonPath.parse(response.body());
		assertThat(problem.read("$.status", Integer.class)).isEqualTo(status);
		return problem;
	}

	private RawHttp.Response request(String head) {
		return RawHttp.request(this.port, head);
	}

}
