package io.idstarter.sample;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;

import javax.sql.DataSource;

import com.jayway.jsonpath.DocumentContext;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.TestPropertySource;

import static io.idstarter.sample.IdServerEndpointsTests.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The admin API when it is turned on: HTTP Basic with the configured user, problem details for every refusal.
 */
@TestPropertySource(properties = { "id-server.admin.enabled=true", "id-server.admin.username=ops",
		"id-server.admin.password=s3cret-for-tests" })
class AdminApiTests extends AbstractIdServerTests {

	private static final String[] ADMIN = { "Authorization", HttpTestClient.basic("ops", "s3cret-for-tests") };

	@Autowired
	private DataSource dataSource;

	@Test
	void requestsWithoutCredentialsAreChallengedWith401Problem() {
		HttpResponse<String> response = this.http.get("/api/admin/keys");
		assertProblem(response, 401, "Authentication required", "unauthorized");
		assertThat(response.headers().firstValue("WWW-Authenticate")).hasValueSatisfying(
				(challenge) -> assertThat(challenge).startsWith("Basic realm="));
		assertProblem(this.http.send("POST", "/api/admin/keys", "{\"key\":\"anonymous\"}"), 401,
				"Authentication required", "unauthorized");
		assertProblem(this.http.get("/api/segment/get/anonymous"), 404, "Unknown key", "unknown-key");
	}

	@Test
	void requestsWithWrongCredentialsAreRefusedWith401() {
		assertProblem(this.http.get("/api/admin/keys", "Authorization", HttpTestClient.basic("ops", "guess")), 401,
				"Authentication required", "unauthorized");
		assertProblem(
				this.http.get("/api/admin/keys", "Authorization", HttpTestClient.basic("admin", "s3cret-for-tests")),
				401, "Authentication required", "unauthorized");
	}

	@Test
	void idEndpointsStayOpenWithoutCredentials() {
		assertThat(this.http.get("/api/segment/get/order").statusCode()).isEqualTo(200);
		assertThat(this.http.get("/api/snowflake/get/order").statusCode()).isEqualTo(200);
		assertThat(this.http.get("/api/monitor").statusCode()).isEqualTo(200);
	}

	@Test
	void listsTheStoresKeys() {
		HttpResponse<String> response = this.http.get("/api/admin/keys", ADMIN);
		assertThat(response.statusCode()).isEqualTo(200);
		List<String> keys = HttpTestClient.json(response).read("$.keys");
		assertThat(keys).contains("leaf-segment-test", "order", "user").isSorted();
	}

	@Test
	void createsAKeyThatThenServesIdsFromItsFirstId() {
		HttpResponse<String> created = this.http.send("POST", "/api/admin/keys",
				"{\"key\":\"invoice\",\"firstId\":1000000,\"step\":50,\"description\":\"invoices\"}", ADMIN);
		assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
		assertThat(created.headers().firstValue("Location")).hasValueSatisfying(
				(location) -> assertThat(location).endsWith("/api/segment/get/invoice"));
		DocumentContext body = HttpTestClient.json(created);
		assertThat(body.read("$.key", String.class)).isEqualTo("invoice");
		assertThat(body.read("$.firstId", Long.class)).isEqualTo(1_000_000L);
		assertThat(body.read("$.step", Integer.class)).isEqualTo(50);
		// The generator re-reads the store's keys for an unknown key at most once a second.
		await().atMost(Duration.ofSeconds(5)).untilAsserted(
				() -> assertThat(this.http.get("/api/segment/get/invoice").statusCode()).isEqualTo(200));
		long id = Long.parseLong(this.http.get("/api/segment/get/invoice").body());
		assertThat(id).isGreaterThanOrEqualTo(1_000_000L).isLessThan(1_000_100L);
	}

	@Test
	void creatingAKeyThatExistsIsAConflictAndChangesNothing() {
		HttpResponse<String> response = this.http.send("POST", "/api/admin/keys",
				"{\"key\":\"order\",\"firstId\":5,\"step\":1}", ADMIN);
		assertProblem(response, 409, "Key exists", "key-exists");
		assertThat(HttpTestClient.json(response).read("$.key", String.class)).isEqualTo("order");
		assertThat(Long.parseLong(this.http.get("/api/segment/get/order").body())).isPositive();
	}

	@Test
	void recreatingALostKeyBelowThisServersMarkIsAConflict() {
		assertThat(this.http.send("POST", "/api/admin/keys", "{\"key\":\"lost\",\"step\":10}", ADMIN).statusCode())
			.isEqualTo(201);
		await().atMost(Duration.ofSeconds(5)).untilAsserted(
				() -> assertThat(this.http.get("/api/segment/get/lost").statusCode()).isEqualTo(200));
		new JdbcTemplate(this.dataSource).update("DELETE FROM leaf_alloc WHERE biz_tag = 'lost'");
		HttpResponse<String> response = this.http.send("POST", "/api/admin/keys",
				"{\"key\":\"lost\",\"firstId\":1}", ADMIN);
		assertProblem(response, 409, "First ID below a known mark", "below-known-mark");
		assertThat(HttpTestClient.json(response).read("$.knownMark", Long.class)).isGreaterThan(1);
	}

	@Test
	void rejectsInvalidKeyRequestsWith400Problems() {
		HttpResponse<String> blank = this.http.send("POST", "/api/admin/keys", "{\"key\":\" \",\"step\":0}", ADMIN);
		assertProblem(blank, 400, "Invalid request body", "invalid-body");
		List<String> errors = HttpTestClient.json(blank).read("$.errors");
		assertThat(errors).anySatisfy((error) -> assertThat(error).startsWith("'key'"))
			.anySatisfy((error) -> assertThat(error).startsWith("'step'"));
		HttpResponse<String> negative = this.http.send("POST", "/api/admin/keys",
				"{\"key\":\"negative\",\"firstId\":-1}", ADMIN);
		assertProblem(negative, 400, "Invalid request body", "invalid-body");
		HttpResponse<String> malformed = this.http.send("POST", "/api/admin/keys", "{\"key\":", ADMIN);
		assertThat(malformed.statusCode()).isEqualTo(400);
		assertThat(HttpTestClient.contentType(malformed)).isEqualTo("application/problem+json");
	}

	@Test
	void changesTheStepOfAKey() {
		HttpResponse<String> created = this.http.send("POST", "/api/admin/keys", "{\"key\":\"restep\",\"step\":10}",
				ADMIN);
		assertThat(created.statusCode()).isEqualTo(201);
		HttpResponse<String> changed = this.http.send("PUT", "/api/admin/keys/restep/step", "{\"step\":500}", ADMIN);
		assertThat(changed.statusCode()).as(changed.body()).isEqualTo(200);
		assertThat(HttpTestClient.json(changed).read("$.step", Integer.class)).isEqualTo(500);
		await().atMost(Duration.ofSeconds(5)).untilAsserted(
				() -> assertThat(this.http.get("/api/segment/get/restep").statusCode()).isEqualTo(200));
		// The first range is taken with the new configured step.
		List<Number> steps = HttpTestClient.json(this.http.get("/api/monitor"))
			.read("$.segmentKeys[?(@.key == 'restep')].configuredStep");
		assertThat(steps.get(0).intValue()).isEqualTo(500);
	}

	@Test
	void changingTheStepOfAnUnknownKeyIsNotFound() {
		assertProblem(this.http.send("PUT", "/api/admin/keys/no-such-key/step", "{\"step\":5}", ADMIN), 404,
				"Unknown key", "unknown-key");
		assertProblem(this.http.send("PUT", "/api/admin/keys/order/step", "{\"step\":0}", ADMIN), 400,
				"Invalid request body", "invalid-body");
	}

}
