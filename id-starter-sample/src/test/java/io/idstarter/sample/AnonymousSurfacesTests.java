package io.idstarter.sample;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;

import com.jayway.jsonpath.DocumentContext;
import io.idstarter.segment.SegmentKeyAdmin;
import io.idstarter.segment.SegmentStore;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.TestPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What an anonymous caller sees of a failing key and of the fleet: on {@code /api/monitor},
 * {@code /actuator/idworker/{key}} and {@code /actuator/health}, a store error is a code and a time, never its text
 * (exception class, table, JDBC URL, data directory); the disk check shows no path; the fleet is counts, without
 * client names or namespaces. The authenticated {@code GET /api/admin/monitor} has the text and the names. The store
 * failure is real: the segment table is renamed away.
 */
@TestPropertySource(properties = { "id-worker.segment.max-wait=300ms", "id-server.admin.enabled=true",
		"id-server.admin.password=" + AnonymousSurfacesTests.PASSWORD, "id-server.clients[0].name=tenant-a",
		"id-server.clients[0].token=tenant-a-token-0123456789", "id-server.clients[0].segment-keys=order" })
class AnonymousSurfacesTests extends AbstractIdServerTests {

	static final String PASSWORD = "right-password-for-tests";

	@Autowired
	private JdbcTemplate jdbc;

	@Autowired
	private SegmentStore store;

	@Test
	void onlyOperatorsSeeTheDetailsOfAFailingStore() {
		assertThat(this.http.send("POST", "/api/fleet/segments/order/ranges", "{\"step\":10}", "Authorization",
				"Bearer tenant-a-token-0123456789").statusCode()).isEqualTo(200);
		((SegmentKeyAdmin) this.store).createKey("failing", 1, 5, "anonymous surfaces test");
		await().atMost(Duration.ofSeconds(5))
			.untilAsserted(() -> assertThat(this.http.get("/api/segment/get/failing").statusCode()).isEqualTo(200));
		this.jdbc.execute("ALTER TABLE leaf_alloc RENAME TO leaf_alloc_away");
		try {
			await().atMost(Duration.ofSeconds(10))
				.until(() -> this.http.get("/api/segment/get/failing").statusCode() == 503);
			List<String> secrets = List.of("leaf_alloc", "LEAF_ALLOC", "Exception", "org.h2", "jdbc:",
					this.dataDir.toString(), "tenant-a", "\"path\"");
			for (String path : List.of("/api/monitor", "/actuator/idworker/failing", "/actuator/health")) {
				HttpResponse<String> open = this.http.get(path);
				assertThat(open.statusCode()).as(path).isIn(200, 503);
				assertThat(open.body()).as(path).doesNotContain(secrets).contains("store-unavailable");
			}
			DocumentContext monitor = HttpTestClient.json(this.http.get("/api/monitor"));
			assertThat(monitor.read("$.segmentKeys[?(@.key == 'failing')].lastErrorTime", List.class)).isNotEmpty();
			assertThat(monitor.read("$.fleet.clients", Integer.class)).isEqualTo(1);
			assertThat(monitor.read("$.fleet.ranges", Long.class)).isEqualTo(1);
			DocumentContext key = HttpTestClient.json(this.http.get("/actuator/idworker/failing"));
			assertThat(key.read("$.lastErrorCode", String.class)).isEqualTo("store-unavailable");
			assertThat(key.read("$.lastErrorTime", String.class)).isNotBlank();
			DocumentContext health = HttpTestClient.json(this.http.get("/actuator/health"));
			assertThat(health.read("$.components.diskSpace.details.free", Long.class)).isPositive();

			String operators = this.http.get("/api/admin/monitor", "Authorization", HttpTestClient.basic("admin",
					PASSWORD)).body();
			assertThat(operators).contains("leaf_alloc", "\"client\":\"tenant-a\"", "\"key\":\"order\"");
			assertThat(this.http.get("/api/admin/monitor").statusCode()).isEqualTo(401);
		}
		finally {
			this.jdbc.execute("ALTER TABLE leaf_alloc_away RENAME TO leaf_alloc");
		}
	}

}
