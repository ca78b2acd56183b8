package io.idstarter.sample;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import org.springframework.test.context.TestPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Connections that announce a large body and then send it slowly do not take the request threads: with 30 such
 * connections open against 8 request threads (on the ID endpoints, the monitor, the fleet and admin APIs without
 * credentials, plain and chunked), plain ID requests are still answered, each within 3 s; and an authenticated fleet
 * client's body that trickles in is cut off at the deadline (1 s here) with 408. Loopback only; about 10 s.
 */
@TestPropertySource(properties = { "server.tomcat.threads.max=8", "server.tomcat.threads.min-spare=8",
		"id-server.clients[0].name=orders", "id-server.clients[0].token=orders-token-0123456789",
		"id-server.clients[0].namespaces=orders", "id-server.body-read-timeout=1s" })
class SlowBodyTests extends AbstractIdServerTests {

	private static final List<String> TARGETS = List.of("POST /api/segment/get/order", "POST /api/snowflake/get/order",
			"PUT /api/monitor", "POST /api/fleet/leases", "POST /api/admin/keys", "GET /api/segment/get/order");

	@Test
	void idRequestsAreAnsweredWhileSlowBodiesAreOpen() throws Exception {
		List<Socket> slow = new ArrayList<>();
		try {
			for (int i = 0; i < 30; i++) {
				Socket socket = new Socket("127.0.0.1", this.port);
				slow.add(socket);
				String framing = (i % 3 == 2) ? "Transfer-Encoding: chunked\r\n\r\n10\r\n0123"
						: "Content-Length: 1000000\r\n\r\n0123";
				OutputStream out = socket.getOutputStream();
				out.write((TARGETS.get(i % TARGETS.size()) + " HTTP/1.1\r\nHost: localhost\r\n"
						+ "Content-Type: application/json\r\n" + framing).getBytes(StandardCharsets.ISO_8859_1));
				out.flush();
			}
			Thread.sleep(500);
			for (int i = 0; i < 10; i++) {
				long started = System.nanoTime();
				String answer = plainGet();
				assertThat(answer).as("probe %d", i).startsWith("HTTP/1.1 200");
				assertThat((System.nanoTime() - started) / 1_000_000).as("probe %d, ms", i).isLessThan(3000);
			}
			for (Socket socket : slow) {
				socket.getOutputStream().write('4');
			}
		}
		finally {
			for (Socket socket : slow) {
				socket.close();
			}
		}
	}

	@Test
	void aBodyWhereNoneIsTakenOrOverTheLimitIsRefusedUnread() {
		for (String head : List.of("POST /api/segment/get/order HTTP/1.1\r\nContent-Length: 4\r\n",
				"GET /api/snowflake/batch/any?count=2 HTTP/1.1\r\nTransfer-Encoding: chunked\r\n",
				"POST /api/fleet/leases HTTP/1.1\r\nContent-Length: 16385\r\n",
				"POST /api/admin/keys HTTP/1.1\r\nContent-Length: 10\r\n")) {
			RawHttp.Response response = RawHttp.request(this.port, head + "Host: localhost\r\n");
			assertThat(response.status()).as(response.text()).isEqualTo(413);
			assertThat(response.contentType()).startsWith("application/problem+json");
			assertThat(response.body()).contains("\"code\":\"body-too-large\"");
		}
	}

	@Test
	void anAuthenticatedBodyThatTricklesInIsCutOffAtTheDeadline() throws Exception {
		try (Socket socket = new Socket("127.0.0.1", this.port)) {
			socket.setSoTimeout(5000);
			OutputStream out = socket.getOutputStream();
			out.write(("POST /api/fleet/leases HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
					+ "Authorization: Bearer orders-token-0123456789\r\nContent-Length: 200\r\n\r\n{")
				.getBytes(StandardCharsets.ISO_8859_1));
			out.flush();
			long started = System.nanoTime();
			InputStream in = socket.getInputStream();
			StringBuilder answer = new StringBuilder();
			for (int i = 0; i < 20 && answer.length() == 0; i++) {
				Thread.sleep(300);
				try {
					out.write(' ');
					out.flush();
				}
				catch (IOException ex) {
					break;
				}
				if (in.available() > 0) {
					answer.append(new String(in.readNBytes(in.available()), StandardCharsets.ISO_8859_1));
				}
			}
			if (answer.length() == 0) {
				answer.append(new String(in.readNBytes(12), StandardCharsets.ISO_8859_1));
			}
			assertThat(answer.toString()).startsWith("HTTP/1.1 408");
			assertThat((System.nanoTime() - started) / 1_000_000).as("ms until the answer").isLessThan(4000);
		}
	}

	@Test
	void anAuthenticatedBodyThatStopsArrivingIsCutOffAtTheDeadline() throws Exception {
		try (Socket socket = new Socket("127.0.0.1", this.port)) {
			socket.setSoTimeout(5000);
			socket.getOutputStream()
				.write(("POST /api/fleet/leases HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
						+ "Authorization: Bearer orders-token-0123456789\r\nContent-Length: 200\r\n\r\n{")
					.getBytes(StandardCharsets.ISO_8859_1));
			long started = System.nanoTime();
			String answer = new String(socket.getInputStream().readNBytes(12), StandardCharsets.ISO_8859_1);
			assertThat(answer).startsWith("HTTP/1.1 408");
			assertThat((System.nanoTime() - started) / 1_000_000).as("ms until the answer").isLessThan(4000);
		}
	}

	@Test
	void aRefusalWhoseBodyHasNotArrivedSaysThatTheConnectionCloses() throws Exception {
		// A client told nothing would send its next request on the connection the server closes, and get no answer.
		for (String head : List.of("POST /api/fleet/leases HTTP/1.1\r\nAuthorization: Bearer wrong-token-0123456789\r\n",
				"POST /api/fleet/leases HTTP/1.1\r\n", "POST /api/segment/get/order HTTP/1.1\r\n")) {
			try (Socket socket = new Socket("127.0.0.1", this.port)) {
				socket.setSoTimeout(5000);
				socket.getOutputStream()
					.write((head + "Host: localhost\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n{")
						.getBytes(StandardCharsets.ISO_8859_1));
				String answer = new String(socket.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
				assertThat(answer).as(head).matches("(?s)HTTP/1.1 4(01|13) .*")
					.containsIgnoringCase("\r\nConnection: close\r\n");
			}
		}
	}

	/** A plain GET of an ID; the answer's head, or what arrived until the 3 s read timeout. */
	private String plainGet() throws IOException {
		try (Socket socket = new Socket("127.0.0.1", this.port)) {
			socket.setSoTimeout(3000);
			socket.getOutputStream()
				.write("GET /api/segment/get/order HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"
					.getBytes(StandardCharsets.ISO_8859_1));
			InputStream in = socket.getInputStream();
			byte[] head = new byte[12];
			int read = 0;
			try {
				while (read < head.length) {
					int n = in.read(head, read, head.length - read);
					if (n < 0) {
						break;
					}
					read += n;
				}
			}
			catch (java.net.SocketTimeoutException ex) {
				return "(no answer within 3 s)";
			}
			return new String(head, 0, read, StandardCharsets.ISO_8859_1);
		}
	}

}
