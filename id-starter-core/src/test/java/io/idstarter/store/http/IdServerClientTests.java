package io.idstarter.store.http;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.IntSupplier;
import java.util.function.ToIntFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.sun.net.httpserver.HttpServer;
import io.idstarter.lease.LeaseLostException;
import io.idstarter.lease.LeaseStoreException;
import io.idstarter.lease.WorkerLease;
import io.idstarter.segment.SegmentAllocation;
import io.idstarter.segment.SegmentStoreException;
import io.idstarter.segment.UnknownKeyException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.Marker;
import org.slf4j.event.Level;
import org.slf4j.helpers.LegacyAbstractLogger;
import org.slf4j.helpers.MessageFormatter;

import org.springframework.http.HttpMethod;
import org.springframework.web.client.RestClient;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The failover and error mapping of the HTTP stores, against scripted HTTP endpoints standing in for ID servers
 * (the real server is exercised in id-starter-sample's tests and drill): which answers move to the next server,
 * which are final, and that a retried call carries the same request ID.
 */
class IdServerClientTests {

	private final List<HttpServer> servers = new ArrayList<>();

	@AfterEach
	void stop() {
		this.servers.forEach((server) -> server.stop(0));
	}

	@Test
	void movesToTheNextServerOn503AndRetriesWithTheSameRequestId() throws IOException {
		Scripted unavailable = serve(() -> 503, "{\"code\":\"segment-store-unavailable\",\"detail\":\"store down\"}");
		Scripted healthy = serve(() -> 200, "{\"key\":\"order\",\"start\":1,\"end\":101,\"configuredStep\":100}");
		IdServerClient client = client(0, unavailable.url, healthy.url);
		SegmentAllocation range = new HttpSegmentStore(client).allocate("order", 100);
		assertThat(range).isEqualTo(new SegmentAllocation("order", 1, 101, 100));
		assertThat(requestId(unavailable.bodies.get(0))).isNotNull().isEqualTo(requestId(healthy.bodies.get(0)));
		assertThat(client.currentServer()).isEqualTo(healthy.url + "/");
		assertThat(client.servers().get(0).failures()).isEqualTo(1);
		assertThat(client.servers().get(0).lastError()).contains("503", "segment-store-unavailable");
		assertThat(unavailable.headers.get(0)).isEqualTo("Bearer test-token");
	}

	@Test
	void aGiveBackGoesOnceToTheServerThatHandedOutTheRangeAndIsNeverRetried() throws IOException {
		Scripted first = serveRanges(() -> 503, "{\"code\":\"segment-store-unavailable\",\"detail\":\"down\"}");
		Scripted second = serveRanges(() -> 200, "{\"key\":\"order\",\"givenBack\":true}");
		HttpSegmentStore store = new HttpSegmentStore(client(0, first.url, second.url));
		SegmentAllocation range = store.allocate("order");
		assertThatExceptionOfType(SegmentStoreException.class)
			.isThrownBy(() -> store.giveBack("order", 40, range.end()))
			.withMessageContaining(first.url)
			.withMessageContaining("not tried again");
		assertThat(first.bodies).last().satisfies((body) -> assertThat(body).contains("\"cursor\":40")
			.contains("\"end\":101")
			.containsPattern("\"requestId\":\"[^\"]+\""));
		assertThat(second.bodies).as("no other server asked").isEmpty();
		assertThat(store.giveBack("order", 40, range.end())).as("a range is given back at most once").isFalse();
		assertThat(store.giveBack("order", 41, range.end() + 1)).as("a range this store did not hand out").isFalse();
		assertThat(first.bodies).as("neither called a server").hasSize(2);
		assertThat(second.bodies).isEmpty();
	}

	@Test
	void aGiveBackGoesToTheServerThatAnsweredTheRangeAfterAFailover() throws IOException {
		Scripted down = serveRanges(() -> 503, "{\"code\":\"segment-store-unavailable\",\"detail\":\"down\"}",
				503);
		Scripted healthy = serveRanges(() -> 200, "{\"key\":\"order\",\"givenBack\":true}", 200);
		HttpSegmentStore store = new HttpSegmentStore(client(0, down.url, healthy.url));
		SegmentAllocation range = store.allocate("order");
		assertThat(store.giveBack("order", 40, range.end())).isTrue();
		assertThat(healthy.bodies).last().satisfies((body) -> assertThat(body).contains("\"cursor\":40"));
		assertThat(down.bodies).as("asked for the range only").hasSize(1);
	}

	@Test
	void aGiveBackToAServerWithoutTheCallKeepsTheGapAndAnInvalidOneIsFinal() throws IOException {
		Scripted old = serveRanges(() -> 404, "{\"code\":\"not-found\",\"detail\":\"no such path\"}");
		HttpSegmentStore store = new HttpSegmentStore(client(0, old.url));
		assertThat(store.giveBack("order", 40, store.allocate("order").end()))
			.as("a server without the give-back call: the tail stays a gap").isFalse();
		Scripted invalid = serveRanges(() -> 400, "{\"code\":\"invalid-body\",\"detail\":\"'end' must not be null\"}");
		HttpSegmentStore refused = new HttpSegmentStore(client(0, invalid.url));
		long end = refused.allocate("order").end();
		assertThatExceptionOfType(SegmentStoreException.class).isThrownBy(() -> refused.giveBack("order", 40, end))
			.withMessageContaining("'order'")
			.withMessageContaining("'end' must not be null");
	}

	@Test
	void refusedCredentialsAreFinalAndNameTheProperty() throws IOException {
		Scripted refusing = serve(() -> 401, "{\"code\":\"unauthorized\",\"detail\":\"no\"}");
		Scripted other = serve(() -> 200, "{\"keys\":[]}");
		IdServerClient client = client(0, refusing.url, other.url);
		assertThatExceptionOfType(IdServerAuthenticationException.class)
			.isThrownBy(() -> new HttpSegmentStore(client).keys())
			.withMessageContaining("id-worker.http.token")
			.satisfies((ex) -> assertThat(ex.status()).isEqualTo(401));
		assertThat(other.bodies).as("no other server asked").isEmpty();
	}

	@Test
	void answersEveryServerWouldRepeatAreFinal() throws IOException {
		Scripted unknown = serve(() -> 404, "{\"code\":\"unknown-key\",\"detail\":\"Unknown ID key 'nope'\"}");
		Scripted lost = serve(() -> 409, "{\"code\":\"lease-lost\",\"detail\":\"no longer held\"}");
		assertThatExceptionOfType(UnknownKeyException.class)
			.isThrownBy(() -> new HttpSegmentStore(client(0, unknown.url, lost.url)).allocate("nope"));
		WorkerLease lease = new WorkerLease("ns", 3, "token", Duration.ofSeconds(10), -1, 0, 0);
		assertThatExceptionOfType(LeaseLostException.class)
			.isThrownBy(() -> new HttpLeaseStore(client(1, unknown.url, lost.url)).renew(lease, 1));
		assertThat(unknown.bodies).hasSize(1);
		assertThat(lost.bodies).hasSize(1);
	}

	@Test
	@SuppressWarnings("removal")
	void theUntypedCallStillSendsAMapAndReturnsTheAnswersJson() throws IOException {
		Scripted server = serve(() -> 200, "{\"keys\":[\"a\",\"b\"]}");
		Map<String, Object> answer = client(0, server.url).call("list the keys", HttpMethod.POST, "api/fleet/segments",
				Map.of("requestId", "untyped-0001"), (problem) -> null, SegmentStoreException::new);
		assertThat(answer).containsEntry("keys", List.of("a", "b"));
		assertThat(server.bodies.get(0)).contains("\"requestId\":\"untyped-0001\"");
	}

	@Test
	void aRangeWithoutItsEndIsRefusedAsInvalid() throws IOException {
		Scripted partial = serve(() -> 200, "{\"key\":\"order\",\"start\":1,\"configuredStep\":100}");
		assertThatExceptionOfType(SegmentStoreException.class)
			.isThrownBy(() -> new HttpSegmentStore(client(0, partial.url)).allocate("order", 100))
			.withMessageContaining("order");
	}

	@Test
	void aLeaseWithoutItsOwnerTokenIsRefusedAsInvalid() throws IOException {
		Scripted partial = serve(() -> 200, "{\"namespace\":\"ns\",\"workerId\":3,\"ttlMillis\":10000,"
				+ "\"timestampFloor\":-1,\"timestampCeiling\":0,\"storeTimeMillis\":0}");
		WorkerLease lease = new WorkerLease("ns", 3, "token", Duration.ofSeconds(10), -1, 0, 0);
		assertThatExceptionOfType(LeaseStoreException.class)
			.isThrownBy(() -> new HttpLeaseStore(client(0, partial.url)).renew(lease, 1));
	}

	@Test
	void failsNamingEveryServerAndItsErrorWhenNoneAnswers() {
		String first = "http://127.0.0.1:" + closedPort();
		String second = "http://127.0.0.1:" + closedPort();
		IdServerClient client = client(0, first, second);
		assertThatExceptionOfType(SegmentStoreException.class)
			.isThrownBy(() -> new HttpSegmentStore(client).allocate("order", 10))
			.withMessageContaining("No ID server could allocate a range of key 'order' in 4 attempts")
			.withMessageContaining(first + "/ (")
			.withMessageContaining(second + "/ (");
		assertThat(client.servers()).allSatisfy((server) -> {
			assertThat(server.calls()).isEqualTo(2);
			assertThat(server.answering()).isFalse();
		});
	}

	@Test
	void aRefusedConnectionIsReportedAsSuchNotAsTheClientLibrarysInnermostException() {
		String closed = "http://127.0.0.1:" + closedPort();
		IdServerClient client = client(0, closed);
		assertThatExceptionOfType(SegmentStoreException.class)
			.isThrownBy(() -> new HttpSegmentStore(client).allocate("order", 10))
			.withMessageContaining(closed + "/ (connection refused (ConnectException))");
		assertThat(client.servers().get(0).lastError()).isEqualTo("connection refused (ConnectException)");
	}

	@Test
	void everyServerDownLogsOneWarningPerServerThenASummaryAboutOnceAMinuteAndOneLineWhenOneAnswersAgain()
			throws IOException {
		int firstPort = closedPort();
		String first = "http://127.0.0.1:" + firstPort;
		String second = "http://127.0.0.1:" + closedPort();
		RecordingLogger log = new RecordingLogger();
		AtomicLong nanos = new AtomicLong();
		IdServerClient client = new IdServerClient(RestClient.builder().build(),
				List.of(URI.create(first), URI.create(second)), 4, Duration.ofMillis(1), Duration.ofMillis(2),
				null, "id-worker.http.token", 0, log, nanos::get);
		HttpSegmentStore store = new HttpSegmentStore(client);
		int calls = 0;
		for (long second10 = 0; second10 < 30; second10++) {   // five minutes in steps of 10 s, 4 attempts each
			nanos.set(TimeUnit.SECONDS.toNanos(second10 * 10));
			assertThatExceptionOfType(SegmentStoreException.class).isThrownBy(() -> store.allocate("order", 10));
			calls += 4;
		}
		assertThat(calls).isEqualTo(120);
		List<String> warnings = log.lines("WARN");
		assertThat(warnings).hasSize(2 + 4);
		assertThat(warnings.subList(0, 2))
			.allSatisfy((line) -> assertThat(line).contains("failed (connection refused"));
		assertThat(warnings.subList(2, 6))
			.allSatisfy((line) -> assertThat(line).startsWith("ID servers still failing: ")
				.contains(first + "/ for ", second + "/ for ", "failed calls, last: connection refused"));
		assertThat(log.lines("INFO")).isEmpty();

		HttpServer back = HttpServer.create(new InetSocketAddress("127.0.0.1", firstPort), 0);
		back.createContext("/", (exchange) -> {
			byte[] answer = "{\"key\":\"order\",\"start\":1,\"end\":11,\"configuredStep\":10}"
				.getBytes(StandardCharsets.UTF_8);
			exchange.getResponseHeaders().add("Content-Type", "application/json");
			exchange.sendResponseHeaders(200, answer.length);
			try (OutputStream out = exchange.getResponseBody()) {
				out.write(answer);
			}
		});
		back.start();
		this.servers.add(back);
		nanos.set(TimeUnit.SECONDS.toNanos(301));
		for (int i = 0; i < 10; i++) {
			assertThat(store.allocate("order", 10).start()).isEqualTo(1);
		}
		assertThat(log.lines("INFO")).singleElement()
			.asString()
			.startsWith("ID server " + first + "/ answers again, after ")
			.endsWith(" in 301 s");
		assertThat(log.lines("WARN")).hasSize(6);
	}

	private IdServerClient client(int first, String... urls) {
		return new IdServerClient(RestClient.builder().build(), List.of(urls).stream().map(URI::create).toList(), 4,
				Duration.ofMillis(1), Duration.ofMillis(5), "Bearer test-token", "id-worker.http.token", first);
	}

	private Scripted serve(IntSupplier status, String body) throws IOException {
		return serve((path) -> status.getAsInt(), (path) -> body);
	}

	/** A server that hands out the range [1, 101) of key 'order' and answers give-backs as told. */
	private Scripted serveRanges(IntSupplier giveBackStatus, String giveBackBody) throws IOException {
		return serveRanges(giveBackStatus, giveBackBody, 200);
	}

	private Scripted serveRanges(IntSupplier giveBackStatus, String giveBackBody, int rangeStatus)
			throws IOException {
		String range = (rangeStatus == 200) ? "{\"key\":\"order\",\"start\":1,\"end\":101,\"configuredStep\":100}"
				: "{\"code\":\"segment-store-unavailable\",\"detail\":\"down\"}";
		return serve((path) -> path.endsWith("/give-back") ? giveBackStatus.getAsInt() : rangeStatus,
				(path) -> path.endsWith("/give-back") ? giveBackBody : range);
	}

	private Scripted serve(ToIntFunction<String> status, Function<String, String> body) throws IOException {
		HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
		Scripted scripted = new Scripted("http://127.0.0.1:" + server.getAddress().getPort());
		server.createContext("/", (exchange) -> {
			scripted.bodies.add(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
			scripted.headers.add(String.valueOf(exchange.getRequestHeaders().getFirst("Authorization")));
			String path = exchange.getRequestURI().getPath();
			byte[] answer = body.apply(path).getBytes(StandardCharsets.UTF_8);
			int code = status.applyAsInt(path);
			exchange.getResponseHeaders()
				.add("Content-Type", (code < 300) ? "application/json" : "application/problem+json");
			exchange.sendResponseHeaders(code, answer.length);
			try (OutputStream out = exchange.getResponseBody()) {
				out.write(answer);
			}
		});
		server.start();
		this.servers.add(server);
		return scripted;
	}

	private static String requestId(String body) {
		Matcher matcher = Pattern.compile("\"requestId\":\"([^\"]+)\"").matcher(body);
		return matcher.find() ? matcher.group(1) : null;
	}

	private static int closedPort() {
		try (ServerSocket socket = new ServerSocket(0)) {
			return socket.getLocalPort();
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
	}

	/** Keeps what is logged, as "LEVEL message" lines. */
	private static final class RecordingLogger extends LegacyAbstractLogger {

		private final List<String> lines = new CopyOnWriteArrayList<>();

		List<String> lines(String level) {
			return this.lines.stream()
				.filter((line) -> line.startsWith(level + " "))
				.map((line) -> line.substring(level.length() + 1))
				.toList();
		}

		@Override
		protected String getFullyQualifiedCallerName() {
			return null;
		}

		@Override
		protected void handleNormalizedLoggingCall(Level level, Marker marker, String messagePattern,
				Object[] arguments, Throwable throwable) {
			this.lines.add(level + " " + MessageFormatter.basicArrayFormat(messagePattern, arguments));
		}

		@Override
		public boolean isTraceEnabled() {
			return false;
		}

		@Override
		public boolean isDebugEnabled() {
			return false;
		}

		@Override
		public boolean isInfoEnabled() {
			return true;
		}

		@Override
		public boolean isWarnEnabled() {
			return true;
		}

		@Override
		public boolean isErrorEnabled() {
			return true;
		}

	}

	private static final class Scripted {

		final String url;

		final List<String> bodies = new CopyOnWriteArrayList<>();

		final List<String> headers = new CopyOnWriteArrayList<>();

		Scripted(String url) {
			this.url = url;
		}

	}

}
