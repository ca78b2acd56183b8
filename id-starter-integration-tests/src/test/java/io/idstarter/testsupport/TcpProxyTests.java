package io.idstarter.testsupport;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * {@link TcpProxy} in front of an echo server on the loopback interface: forwarding, and each fault (cut, stall,
 * latency) as a client and the server see it.
 */
class TcpProxyTests {

	private EchoServer echo;

	private TcpProxy proxy;

	@BeforeEach
	void start() throws IOException {
		this.echo = new EchoServer();
		this.proxy = TcpProxy.start("127.0.0.1", this.echo.port());
	}

	@AfterEach
	void stop() {
		this.proxy.close();
		this.echo.close();
	}

	@Test
	void forwardsBothWays() throws IOException {
		try (Socket socket = connect()) {
			send(socket, "hello");
			assertThat(receive(socket, 5)).isEqualTo("hello");
			send(socket, "again");
			assertThat(receive(socket, 5)).isEqualTo("again");
		}
	}

	@Test
	void forwardsAServerThatSpeaksFirst() throws IOException {
		try (EchoServer greeting = new EchoServer("hi!"); TcpProxy proxy = TcpProxy.start("127.0.0.1", greeting.port());
				Socket socket = new Socket(InetAddress.getLoopbackAddress(), proxy.port())) {
			socket.setSoTimeout(5000);
			assertThat(receive(socket, 3)).isEqualTo("hi!");
			send(socket, "ok");
			assertThat(receive(socket, 2)).isEqualTo("ok");
		}
	}

	@Test
	void cutClosesOpenConnectionsAndClosesNewOnesUntilRestored() throws IOException {
		try (Socket open = connect()) {
			send(open, "one");
			assertThat(receive(open, 3)).isEqualTo("one");
			this.proxy.cut();
			assertThat(readOrEnd(open)).as("read on a connection open when cut").isEqualTo(-1);
		}
		try (Socket during = connect()) {
			assertThat(readOrEnd(during)).as("read on a connection made while cut").isEqualTo(-1);
		}
		this.proxy.restore();
		try (Socket after = connect()) {
			send(after, "back");
			assertThat(receive(after, 4)).isEqualTo("back");
		}
	}

	@Test
	void stallKeepsConnectionsOpenForwardsNothingAndDeliversWhatItHeldOnceRestored() throws IOException {
		try (Socket socket = connect()) {
			send(socket, "before");
			assertThat(receive(socket, 6)).isEqualTo("before");
			int received = this.echo.bytesReceived();
			this.proxy.stall();
			send(socket, "held");
			send(socket, "-too");
			socket.setSoTimeout(400);
			assertThatExceptionOfType(SocketTimeoutException.class).as("a reply during the stall")
				.isThrownBy(() -> socket.getInputStream().read());
			assertThat(this.echo.bytesReceived()).as("bytes the server got during the stall").isEqualTo(received);
			this.proxy.restore();
			socket.setSoTimeout(5000);
			assertThat(receive(socket, 8)).as("what the stall held, in order").isEqualTo("held-too");
		}
	}

	@Test
	void stallAcceptsNewConnectionsWithoutReachingTheServerUntilRestored() throws Exception {
		this.proxy.stall();
		try (Socket socket = connect()) {
			send(socket, "knock");
			socket.setSoTimeout(400);
			assertThatExceptionOfType(SocketTimeoutException.class).as("a reply during the stall")
				.isThrownBy(() -> socket.getInputStream().read());
			assertThat(this.echo.accepted()).as("connections the server accepted during the stall").isZero();
			this.proxy.restore();
			socket.setSoTimeout(5000);
			assertThat(receive(socket, 5)).isEqualTo("knock");
			assertThat(this.echo.accepted()).isOne();
		}
	}

	@Test
	void stallHoldsAClientsCloseUntilRestored() throws Exception {
		Socket socket = connect();
		send(socket, "x");
		assertThat(receive(socket, 1)).isEqualTo("x");
		this.proxy.stall();
		send(socket, "last words");
		socket.close();
		Thread.sleep(400);
		assertThat(this.echo.closed()).as("connections the server saw closed during the stall").isZero();
		this.proxy.restore();
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
		while (this.echo.closed() == 0 && System.nanoTime() - deadline < 0) {
			Thread.sleep(10);
		}
		assertThat(this.echo.closed()).as("connections the server saw closed after the stall").isOne();
		assertThat(this.echo.bytesReceived()).as("bytes the server got, the held ones included")
			.isEqualTo(1 + "last words".length());
	}

	@Test
	void latencyDelaysEveryChunkEachWayAndKeepsTheirOrder() throws IOException {
		Duration delay = Duration.ofMillis(300);
		try (Socket socket = connect()) {
			send(socket, "warm");
			assertThat(receive(socket, 4)).isEqualTo("warm");
			this.proxy.latency(delay);
			long start = System.nanoTime();
			send(socket, "ab");
			send(socket, "cd");
			String reply = receive(socket, 4);
			long elapsed = System.nanoTime() - start;
			assertThat(reply).isEqualTo("abcd");
			assertThat(elapsed).as("round trip with %s added each way", delay)
				.isGreaterThanOrEqualTo(delay.multipliedBy(2).toNanos());
			this.proxy.restore();
			send(socket, "fast");
			assertThat(receive(socket, 4)).isEqualTo("fast");
		}
	}

	@Test
	void loseReplyForwardsTheRequestDropsItsReplyAndClosesOnceThenForwardsAgain() throws IOException {
		try (Socket socket = connect()) {
			send(socket, "ping");
			assertThat(receive(socket, 4)).isEqualTo("ping");
			this.proxy.loseReply((request) -> contains(request, "commit"), (request, reply) -> contains(reply, "commit"));
			send(socket, "ping");
			assertThat(receive(socket, 4)).as("a reply to another request").isEqualTo("ping");
			int received = this.echo.bytesReceived();
			send(socket, "commit");
			assertThat(readOrEnd(socket)).as("read after the request whose reply is lost").isEqualTo(-1);
			assertThat(this.echo.bytesReceived()).as("bytes the server got").isEqualTo(received + "commit".length());
			assertThat(this.proxy.lostReplies()).isOne();
		}
		try (Socket again = connect()) {
			send(again, "commit");
			assertThat(receive(again, 6)).as("the same request once the fault ended").isEqualTo("commit");
		}
		assertThat(this.proxy.lostReplies()).isOne();
	}

	@Test
	void latencyMustBePositive() {
		assertThatExceptionOfType(IllegalArgumentException.class).isThrownBy(() -> this.proxy.latency(Duration.ZERO))
			.withMessageContaining("positive");
	}

	private Socket connect() throws IOException {
		Socket socket = new Socket(InetAddress.getLoopbackAddress(), this.proxy.port());
		socket.setSoTimeout(5000);
		return socket;
	}

	private static void send(Socket socket, String text) throws IOException {
		OutputStream out = socket.getOutputStream();
		out.write(text.getBytes(StandardCharsets.US_ASCII));
		out.flush();
	}

	private static String receive(Socket socket, int length) throws IOException {
		byte[] bytes = socket.getInputStream().readNBytes(length);
		return new String(bytes, StandardCharsets.US_ASCII);
	}

	private static boolean contains(byte[] bytes, String text) {
		return new String(bytes, StandardCharsets.US_ASCII).contains(text);
	}

	/** Reads one byte; -1 at the end of stream or on a reset (both: the server went away). */
	private static int readOrEnd(Socket socket) {
		try {
			return socket.getInputStream().read();
		}
		catch (SocketTimeoutException ex) {
			throw new AssertionError("no end of stream within the socket timeout", ex);
		}
		catch (IOException ex) {
			return -1;
		}
	}

	/**
	 * Echoes every byte back on each connection; counts connections accepted, bytes received and connections that
	 * the client closed.
	 */
	private static final class EchoServer implements AutoCloseable {

		private final ServerSocket server;

		private final AtomicInteger accepted = new AtomicInteger();

		private final AtomicInteger bytes = new AtomicInteger();

		private final AtomicInteger closed = new AtomicInteger();

		private final byte[] greeting;

		EchoServer() throws IOException {
			this("");
		}

		/**
		 * @param greeting sent first on every connection, before anything is read
		 */
		EchoServer(String greeting) throws IOException {
			this.greeting = greeting.getBytes(StandardCharsets.US_ASCII);
			this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
			Thread acceptor = new Thread(this::accept, "echo-accept");
			acceptor.setDaemon(true);
			acceptor.start();
		}

		int port() {
			return this.server.getLocalPort();
		}

		int accepted() {
			return this.accepted.get();
		}

		int bytesReceived() {
			return this.bytes.get();
		}

		int closed() {
			return this.closed.get();
		}

		private void accept() {
			while (!this.server.isClosed()) {
				try {
					Socket socket = this.server.accept();
					this.accepted.incrementAndGet();
					Thread echo = new Thread(() -> echo(socket), "echo");
					echo.setDaemon(true);
					echo.start();
				}
				catch (IOException ex) {
					// Closed.
				}
			}
		}

		private void echo(Socket socket) {
			try (socket; InputStream in = socket.getInputStream(); OutputStream out = socket.getOutputStream()) {
				out.write(this.greeting);
				out.flush();
				byte[] buffer = new byte[1024];
				int read;
				while ((read = in.read(buffer)) != -1) {
					this.bytes.addAndGet(read);
					out.write(buffer, 0, read);
					out.flush();
				}
				this.closed.incrementAndGet();
			}
			catch (IOException ex) {
				this.closed.incrementAndGet();
			}
		}

		@Override
		public void close() {
			try {
				this.server.close();
			}
			catch (IOException ex) {
				// Closed.
			}
		}

	}

}
