package io.idstarter.sample;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;

import io.idstarter.segment.SegmentKeyAdmin;
import io.idstarter.segment.SegmentStore;
import io.idstarter.snowflake.SnowflakeIdGenerator;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.TestPropertySource;

import static io.idstarter.sample.IdServerEndpointsTests.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * When an ID cannot be issued safely, the server answers 503 with Retry-After and a problem detail, never an ID that
 * could repeat; and it recovers by itself. The outages are real: the segment table is renamed away, the worker lease
 * is taken over in the lease table.
 */
@TestPropertySource(properties = { "id-worker.segment.max-wait=300ms", "id-worker.lease.ttl=3s",
		"id-worker.lease.safety-margin=1s", "id-worker.lease.heartbeat=500ms", "id-worker.snowflake.worker-id-bits=1",
		"id-worker.snowflake.sequence-bits=21", "id-server.retry-after=2s" })
class StoreOutageTests extends AbstractIdServerTests {

	@Autowired
	private JdbcTemplate jdbc;

	@Autowired
	private SegmentStore store;

	@Autowired
	private SnowflakeIdGenerator snowflake;

	@Test
	void segmentIdsAnswer503WithRetryAfterOnceTheStoreIsDownAndTheBuffersAreSpentThenRecover() {
		((SegmentKeyAdmin) this.store).createKey("outage", 1, 5, "store outage test");
		await().atMost(Duration.ofSeconds(5))
			.untilAsserted(() -> assertThat(this.http.get("/api/segment/get/outage").statusCode()).isEqualTo(200));
		Set<Long> issued = new HashSet<>();
		HttpResponse<String> refused = null;
		this.jdbc.execute("ALTER TABLE leaf_alloc RENAME TO leaf_alloc_down");
		try {
			for (int i = 0; i < 2000 && refused == null; i++) {
				HttpResponse<String> response = this.http.get("/api/segment/get/outage");
				if (response.statusCode() == 200) {
					assertThat(issued.add(Long.parseLong(response.body()))).as("IDs are unique").isTrue();
				}
				else {
					refused = response;
				}
			}
		}
		finally {
			this.jdbc.execute("ALTER TABLE leaf_alloc_down RENAME TO leaf_alloc");
		}
		assertThat(refused).as("a 503 once both ranges are spent").isNotNull();
		assertProblem(refused, 503, "Segments exhausted", "segments-exhausted");
		assertThat(refused.headers().firstValue("Retry-After")).hasValue("2");
		assertThat(HttpTestClient.json(refused).read("$.key", String.class)).isEqualTo("outage");
		assertNoStoreDetails(refused);
		// Back: the next IDs come from a fresh range above everything issued.
		await().atMost(Duration.ofSeconds(10))
			.untilAsserted(() -> assertThat(this.http.get("/api/segment/get/outage").statusCode()).isEqualTo(200));
		long next = Long.parseLong(this.http.get("/api/segment/get/outage").body());
		assertThat(next).isGreaterThan(issued.stream().mapToLong(Long::longValue).max().orElseThrow());
	}

	@Test
	void snowflakeIdsAnswer503WithRetryAfterWhileTheWorkerLeaseIsLostThenRecoverAboveTheOldIds() {
		long before = Long.parseLong(this.http.get("/api/snowflake/get/any").body());
		int worker = this.snowflake.workerId().getAsInt();
		long until = System.currentTimeMillis() + Duration.ofMinutes(10).toMillis();
		// Another owner takes this node's slot, and the only other slot (1 worker bit) is held too.
		this.jdbc.update("UPDATE id_worker_lease SET owner_token = 'taken-by-test', expires_at = ? "
				+ "WHERE namespace = 'id-server' AND worker_id = ?", until, worker);
		int other = 1 - worker;
		if (this.jdbc.update("UPDATE id_worker_lease SET owner_token = 'held-by-test', expires_at = ? "
				+ "WHERE namespace = 'id-server' AND worker_id = ?", until, other) == 0) {
			this.jdbc.update("INSERT INTO id_worker_lease (namespace, worker_id, owner_token, instance, expires_at, "
					+ "max_timestamp, updated_at) VALUES ('id-server', ?, 'held-by-test', 'test', ?, -1, ?)", other,
					until, System.currentTimeMillis());
		}
		HttpResponse<String> refused;
		try {
			await().atMost(Duration.ofSeconds(10))
				.until(() -> this.http.get("/api/snowflake/get/any").statusCode() == 503);
			refused = this.http.get("/api/snowflake/get/any");
			assertThat(HttpTestClient.json(this.http.get("/api/monitor")).read("$.snowflake.lease.state", String.class))
				.isEqualTo("LOST");
			HttpResponse<String> health = this.http.get("/actuator/health");
			assertThat(health.statusCode()).isEqualTo(503);
			assertThat(HttpTestClient.json(health).read("$.components.idWorker.status", String.class))
				.isEqualTo("DOWN");
		}
		finally {
			this.jdbc.update("UPDATE id_worker_lease SET owner_token = NULL, expires_at = 0 "
					+ "WHERE namespace = 'id-server' AND owner_token IN ('taken-by-test', 'held-by-test')");
		}
		assertProblem(refused, 503, "No worker ID", "worker-id-unavailable");
		assertThat(refused.headers().firstValue("Retry-After")).hasValue("2");
		assertThat(HttpTestClient.json(refused).read("$.reason", String.class)).isNotBlank();
		assertNoStoreDetails(refused);
		// A slot is free again: the keeper borrows it, waits for its clock to pass the slot's high-water mark (at most
		// the lease TTL ahead), and IDs resume above every ID issued before.
		await().atMost(Duration.ofSeconds(15))
			.untilAsserted(() -> assertThat(this.http.get("/api/snowflake/get/any").statusCode()).isEqualTo(200));
		assertThat(Long.parseLong(this.http.get("/api/snowflake/get/any").body())).isGreaterThan(before);
	}

	/** A 503 goes to anyone: no owner token, host, process ID or table name of the store in it. */
	private static void assertNoStoreDetails(HttpResponse<String> refused) {
		String instance;
		try {
			instance = java.net.InetAddress.getLocalHost().getHostName() + "/" + ProcessHandle.current().pid();
		}
		catch (java.net.UnknownHostException ex) {
			throw new IllegalStateException(ex);
		}
		assertThat(refused.body()).doesNotContain("taken-by-test", "held-by-test", "id_worker_lease", "leaf_alloc",
				"owner token", instance);
	}

}
