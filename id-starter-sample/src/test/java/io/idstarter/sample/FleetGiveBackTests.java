package io.idstarter.sample;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;

import javax.sql.DataSource;

import com.sun.net.httpserver.HttpExchange;
import com.jayway.jsonpath.DocumentContext;
import com.sun.net.httpserver.HttpServer;
import io.idstarter.fleetclient.ClientApplication;
import io.idstarter.segment.SegmentAllocation;
import io.idstarter.segment.SegmentIdGenerator;
import io.idstarter.segment.SegmentStore;
import io.idstarter.segment.SegmentStoreException;
import io.idstarter.store.http.HttpSegmentStore;
import io.idstarter.store.http.IdServerClient;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.TestPropertySource;
import org.springframework.web.client.RestClient;

import static io.idstarter.sample.IdServerEndpointsTests.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The give-back call of the fleet API ({@code POST /api/fleet/segments/{key}/give-back}): granted per key like the
 * range call, taken only within a range this server handed to the same client and only once, refusing what is not the
 * unused tail of the latest range without changing the store (read back from its table), never run twice over a
 * range another node drew meanwhile, and letting a client-mode node restarted after a graceful close continue where it
 * stopped.
 */
@TestPropertySource(properties = { "id-server.clients[0].name=giver",
		"id-server.clients[0].token=giver-token-0123456789", "id-server.clients[0].namespaces=fleet-client",
		"id-server.clients[0].segment-keys=give-*", "id-server.clients[0].max-ranges-per-second=100000",
		"id-server.clients[1].name=other", "id-server.clients[1].token=other-token-0123456789",
		"id-server.clients[1].namespaces=other-ns", "id-server.clients[1].segment-keys=other-key",
		"id-server.clients[2].name=peer", "id-server.clients[2].token=peer-token-0123456789",
		"id-server.clients[2].namespaces=fleet-client", "id-server.clients[2].segment-keys=give-*",
		"id-server.clients[2].max-ranges-per-second=100000", "id-worker.segment.keys.give-aba.step=100",
		"id-worker.segment.keys.give-replay.step=100", "id-worker.segment.keys.give-rewind.step=100",
		"id-worker.segment.keys.give-hostile.step=100",
		"id-worker.segment.keys.give-restart.step=50", "id-worker.segment.keys.other-key.step=100" })
class FleetGiveBackTests extends AbstractIdServerTests {

	private static final String TOKEN = "giver-token-0123456789";

	private static final String[] GIVER = { "Authorization", "Bearer " + TOKEN };

	private static final String[] OTHER = { "Authorization", "Bearer other-token-0123456789" };

	private static final String[] PEER = { "Authorization", "Bearer peer-token-0123456789" };

	@Autowired
	private SegmentStore serverStore;

	@Autowired
	private DataSource dataSource;

	@Test
	void aGiveBackChangesTheStoreOnlyForTheLatestRangeOfAGrantedKey() {
		SegmentAllocation other = draw("other-key", OTHER);
		assertProblem(giveBack("other-key", other.start() + 1, other.end(), GIVER), 403, "Not granted",
				"not-granted");
		assertThat(maxId("other-key")).as("another client's key is untouched").isEqualTo(other.end());

		SegmentAllocation range = draw("give-hostile", GIVER);
		long end = range.end();
		assertProblem(giveBack("give-hostile", "{\"cursor\":5,\"end\":", GIVER), 400, "Invalid request body",
				"invalid-body");
		assertProblem(giveBack("give-hostile", "{\"cursor\":\"5\",\"end\":" + end + "}", GIVER), 400,
				"Invalid request body", "invalid-body");
		assertProblem(giveBack("give-hostile", "{\"cursor\":5}", GIVER), 400, "Invalid request body", "invalid-body");
		assertProblem(giveBack("give-hostile", end + 1, end, GIVER), 400, "Invalid parameter", "invalid-parameter");
		assertProblem(giveBack("give-hostile", end, end, GIVER), 400, "Invalid parameter", "invalid-parameter");
		assertProblem(giveBack("give-hostile", -1, end, GIVER), 400, "Invalid request body", "invalid-body");
		assertProblem(giveBack("give-hostile", -5, -1, GIVER), 400, "Invalid request body", "invalid-body");
		assertProblem(giveBack("give-hostile", range.start(), end, "Authorization", "Bearer wrong-token-0123456789"),
				401, "Authentication required", "unauthorized");
		assertThat(maxId("give-hostile")).as("no refused request changed the store").isEqualTo(end);

		SegmentAllocation latest = draw("give-hostile", GIVER);
		assertThat(answer(giveBack("give-hostile", range.start() + 3, end, GIVER))).as("a range that is not the latest")
			.isFalse();
		assertThat(maxId("give-hostile")).isEqualTo(latest.end());
		assertThat(answer(giveBack("give-unknown", 0, 10, GIVER))).as("an unknown key").isFalse();
		assertThat(this.serverStore.keys()).doesNotContain("give-unknown");

		assertThat(answer(giveBack("give-hostile", latest.start() + 7, latest.end(), GIVER))).isTrue();
		assertThat(maxId("give-hostile")).isEqualTo(latest.start() + 7);
		assertThat(answer(giveBack("give-hostile", latest.start() + 7, latest.end(), GIVER)))
			.as("a range is given back once").isFalse();
		assertThat(answer(giveBack("give-hostile", latest.start() + 5, latest.end(), GIVER)))
			.as("nor lowered a second time").isFalse();
		assertThat(maxId("give-hostile")).isEqualTo(latest.start() + 7);
		SegmentAllocation direct = this.serverStore.allocate("give-hostile");
		assertThat(answer(giveBack("give-hostile", direct.start(), direct.end(), GIVER)))
			.as("a range this server did not hand to the client").isFalse();
		assertThat(maxId("give-hostile")).isEqualTo(direct.end());
	}

	@Test
	void aGiveBackWhoseAnswerWasLostIsNotRunAgainOverARangeAnotherNodeDrewMeanwhile() throws Exception {
		HttpSegmentStore nodeB = new HttpSegmentStore(client(1, server()));
		AtomicReference<SegmentAllocation> drawnMeanwhile = new AtomicReference<>();
		try (LosingProxy proxy = new LosingProxy(this.port, "/give-back",
				() -> drawnMeanwhile.set(nodeB.allocate("give-aba")))) {
			HttpSegmentStore nodeA = new HttpSegmentStore(client(4, proxy.url(), server()));
			SegmentAllocation range = nodeA.allocate("give-aba");
			Boolean answer;
			try {
				answer = nodeA.giveBack("give-aba", range.start(), range.end());
			}
			catch (SegmentStoreException ex) {
				answer = null;
			}
			assertThat(proxy.lost()).as("the server gave back; its answer was lost").isEqualTo(1);
			assertThat(drawnMeanwhile.get()).as("node B drew the numbers given back")
				.isEqualTo(new SegmentAllocation("give-aba", range.start(), range.end(), 100));
			assertThat(maxId("give-aba")).as("node B's range is not given back again (answered %s)", answer)
				.isEqualTo(range.end());
			assertThat(nodeA.allocate("give-aba").start()).isEqualTo(range.end());
		}
	}

	@Test
	void aRepeatedGiveBackRequestGetsTheFirstAnswerWithoutRunningAgain() {
		SegmentAllocation range = draw("give-replay", GIVER);
		String request = "{\"cursor\":" + range.start() + ",\"end\":" + range.end()
				+ ",\"requestId\":\"replay-0123456789\"}";
		assertThat(answer(giveBack("give-replay", request, GIVER))).isTrue();
		assertThat(draw("give-replay", PEER)).as("another client draws the numbers given back").isEqualTo(range);
		assertThat(answer(giveBack("give-replay", request, GIVER))).as("the first attempt's answer").isTrue();
		assertThat(maxId("give-replay")).as("the repeated request changed nothing").isEqualTo(range.end());
		assertThat(answer(giveBack("give-replay", range.start(), range.end(), GIVER)))
			.as("the same give-back under another request ID").isFalse();
		assertThat(maxId("give-replay")).isEqualTo(range.end());
	}

	@Test
	void aClientGivesBackOnlyWithinARangeThisServerHandedToIt() {
		SegmentAllocation own = draw("give-rewind", GIVER);
		SegmentAllocation peers = draw("give-rewind", PEER);
		assertThat(answer(giveBack("give-rewind", 0, peers.end(), GIVER))).as("a rewind of the whole key").isFalse();
		assertThat(answer(giveBack("give-rewind", own.start(), peers.end(), GIVER)))
			.as("the tail of another client's range").isFalse();
		assertThat(maxId("give-rewind")).isEqualTo(peers.end());
		assertThat(answer(giveBack("give-rewind", peers.start() + 5, peers.end(), PEER))).isTrue();
		assertThat(maxId("give-rewind")).isEqualTo(peers.start() + 5);
	}

	@Test
	void aClientModeNodeClosedGracefullyContinuesWhereItStopped() {
		long last;
		try (ConfigurableApplicationContext client = ClientApplication.start(server(), "id-worker.http.token",
				TOKEN)) {
			SegmentIdGenerator segments = client.getBean(SegmentIdGenerator.class);
			last = 0;
			for (int i = 0; i < 7; i++) {
				last = segments.nextId("give-restart");
			}
			// The seventh ID passed the prefetch point; close once the prefetched range is there to give back too.
			Awaitility.await()
				.atMost(Duration.ofSeconds(10))
				.until(() -> segments.view("give-restart").map((view) -> view.next() != null).orElse(false));
		}
		assertThat(maxId("give-restart")).as("the unused tail went back to the server's store").isEqualTo(last + 1);
		try (ConfigurableApplicationContext client = ClientApplication.start(server(), "id-worker.http.token",
				TOKEN)) {
			assertThat(client.getBean(SegmentIdGenerator.class).nextId("give-restart"))
				.as("no range skipped after the restart").isEqualTo(last + 1);
		}
	}

	private HttpResponse<String> giveBack(String key, long cursor, long end, String... headers) {
		return giveBack(key, "{\"cursor\":" + cursor + ",\"end\":" + end + "}", headers);
	}

	private HttpResponse<String> giveBack(String key, String body, String... headers) {
		return this.http.send("POST", "/api/fleet/segments/" + key + "/give-back", body, headers);
	}

	private static boolean answer(HttpResponse<String> response) {
		assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
		return HttpTestClient.json(response).read("$.givenBack", Boolean.class);
	}

	private SegmentAllocation draw(String key, String... headers) {
		HttpResponse<String> response = this.http.send("POST", "/api/fleet/segments/" + key + "/ranges", "{}",
				headers);
		assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
		DocumentContext range = HttpTestClient.json(response);
		return new SegmentAllocation(key, range.read("$.start", Long.class), range.read("$.end", Long.class),
				range.read("$.configuredStep", Integer.class));
	}

	private static IdServerClient client(int attempts, String... servers) {
		return new IdServerClient(RestClient.create(), Stream.of(servers).map(URI::create).toList(), attempts,
				Duration.ofMillis(10), Duration.ofMillis(10), "Bearer " + TOKEN, "id-worker.http.token",
				/* firstServer= */ 0);
	}

	private long maxId(String key) {
		return new JdbcTemplate(this.dataSource).queryForObject("SELECT max_id FROM leaf_alloc WHERE biz_tag = ?",
				Long.class, key);
	}

	private String server() {
		return "http://127.0.0.1:" + this.port;
	}

	/**
	 * Forwards every request to the ID server; the first one whose path contains the given text reaches the server,
	 * but its answer is lost: the connection closes without a response.
	 */
	static final class LosingProxy implements AutoCloseable {

		private final HttpServer server;

		private final HttpClient forward = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

		private final AtomicInteger lost = new AtomicInteger();

		private final Runnable whileLost;

		LosingProxy(int targetPort, String losePath) throws IOException {
			this(targetPort, losePath, () -> {
			});
		}

		/**
		 * Creates the proxy.
		 * @param whileLost runs after the server acted on the request whose answer is lost, before the client learns
		 * that it was
		 */
		LosingProxy(int targetPort, String losePath, Runnable whileLost) throws IOException {
			this.whileLost = whileLost;
			this.server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
			this.server.createContext("/", (exchange) -> relay(exchange, targetPort, losePath));
			this.server.start();
		}

		private void relay(HttpExchange exchange, int targetPort, String losePath) throws IOException {
			byte[] body;
			try (InputStream in = exchange.getRequestBody()) {
				body = in.readAllBytes();
			}
			HttpRequest.Builder request = HttpRequest
				.newBuilder(URI.create("http://127.0.0.1:" + targetPort + exchange.getRequestURI()))
				.method(exchange.getRequestMethod(), HttpRequest.BodyPublishers.ofByteArray(body));
			for (String header : List.of("Authorization", "Content-Type", "Accept")) {
				String value = exchange.getRequestHeaders().getFirst(header);
				if (value != null) {
					request.header(header, value);
				}
			}
			HttpResponse<byte[]> response;
			try {
				response = this.forward.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IOException(ex);
			}
			if (exchange.getRequestURI().getPath().contains(losePath) && this.lost.compareAndSet(0, 1)) {
				// The server acted on the request; its answer never reaches the client.
				this.whileLost.run();
				throw new IOException("answer lost on purpose");
			}
			response.headers().firstValue("Content-Type").ifPresent(
					(type) -> exchange.getResponseHeaders().add("Content-Type", type));
			byte[] answer = response.body();
			exchange.sendResponseHeaders(response.statusCode(), (answer.length > 0) ? answer.length : -1);
			try (OutputStream out = exchange.getResponseBody()) {
				out.write(answer);
			}
		}

		String url() {
			return "http://127.0.0.1:" + this.server.getAddress().getPort();
		}

		int lost() {
			return this.lost.get();
		}

		@Override
		public void close() {
			this.server.stop(0);
		}

	}

}
