package io.idstarter.testsupport;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiPredicate;
import java.util.function.Predicate;

import org.jspecify.annotations.Nullable;

/**
 * A TCP forwarder on a loopback port that a test can put into a network fault, to take a real store "down" for one
 * client without stopping the server other tests share. The faults:
 * <ul>
 * <li>{@link #cut()}: open connections are closed and new ones are closed as soon as they are accepted, which a
 * driver sees as the server going away (a reset);</li>
 * <li>{@link #stall()}: a black hole, as when packets are dropped. Connections are accepted and kept open, but no
 * byte is forwarded either way, and neither is a close; a new connection does not reach the server. Nothing is lost:
 * what was held is delivered, in order, once the stall ends, as TCP retransmission would after a partition heals, so
 * a request a client gave up on may still reach the server late;</li>
 * <li>{@link #latency(Duration)}: every chunk read from either side is forwarded, in order, that long after it was
 * read (closes too);</li>
 * <li>{@link #loseReply(Predicate, BiPredicate)}: one request reaches the server, the server's reply reaches the
 * proxy, and there it is dropped and the connection closed, as when a connection resets after the server committed
 * but before the client heard of it. This fault stands beside the others and ends by itself.</li>
 * </ul>
 * {@link #restore()} ends the fault. Each direction of a connection has a reader thread, which stamps each chunk with
 * the time it is due, and a writer thread, which forwards it when due and not stalled.
 */
public final class TcpProxy implements AutoCloseable {

	/** Most chunks read ahead of the writer per direction; then the reader stops reading (back-pressure). */
	private static final int QUEUE_CHUNKS = 256;

	/** Longest sleep of a writer that waits for a chunk's due time or for a stall to end. */
	private static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(5);

	/** End of stream: the reading side closed (or failed); the writer closes the connection after what came before. */
	private static final Chunk END = new Chunk(new byte[0], 0);

	/** Where new connections go; changed by {@link #redirect(String, int)}. */
	private volatile InetSocketAddress target;

	private final ServerSocket server;

	/** Every socket of every connection, so that a cut can close them. */
	private final Set<Socket> open = ConcurrentHashMap.newKeySet();

	/** The fault in force; replaced whole. */
	private volatile Fault fault = Fault.NONE;

	/** The reply to lose, until a request matches it: taken by the first connection that forwards such a request. */
	private final AtomicReference<@Nullable LostReply> armed = new AtomicReference<>();

	/** Replies dropped so far by {@link #loseReply}. */
	private final AtomicInteger lostReplies = new AtomicInteger();

	private TcpProxy(InetSocketAddress target) throws IOException {
		this.target = target;
		this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
		Thread acceptor = new Thread(this::accept, "tcp-proxy-" + this.server.getLocalPort());
		acceptor.setDaemon(true);
		acceptor.start();
	}

	/**
	 * Starts a proxy to a server.
	 * @param host the server's host
	 * @param port the server's port
	 * @return the running proxy
	 */
	public static TcpProxy start(String host, int port) {
		try {
			return new TcpProxy(new InetSocketAddress(host, port));
		}
		catch (IOException ex) {
			throw new IllegalStateException("cannot open a loopback port for the proxy", ex);
		}
	}

	/**
	 * Returns the loopback port clients connect to.
	 * @return the port
	 */
	public int port() {
		return this.server.getLocalPort();
	}

	/**
	 * Closes every open connection and refuses new ones until {@link #restore()}.
	 */
	public void cut() {
		this.fault = Fault.CUT;
		closeAll();
	}

	/**
	 * Forwards nothing, and closes nothing, until {@link #restore()}: connections stay open and new ones are accepted,
	 * but no byte reaches the other side.
	 */
	public void stall() {
		this.fault = Fault.STALL;
	}

	/**
	 * Forwards every chunk read from now on that long after it was read, until {@link #restore()}.
	 * @param delay the added delay, positive
	 */
	public void latency(Duration delay) {
		Objects.requireNonNull(delay, "delay");
		if (delay.isNegative() || delay.isZero()) {
			throw new IllegalArgumentException("delay must be positive: " + delay);
		}
		this.fault = new Fault(false, false, delay.toNanos());
	}

	/**
	 * Loses the reply to the next request that matches: the request is forwarded to the server; the server's chunks
	 * are forwarded to the client until one carries the reply, which is dropped, and the connection is closed. Ends
	 * with that reply (see {@link #lostReplies()}); any other fault may be in force meanwhile.
	 * @param request whether a chunk from the client carries the request whose reply is to be lost
	 * @param isReplyTo whether a chunk from the server (second argument) carries the reply to that request (first)
	 */
	public void loseReply(Predicate<byte[]> request, BiPredicate<byte[], byte[]> isReplyTo) {
		this.armed.set(new LostReply(Objects.requireNonNull(request, "request"),
				Objects.requireNonNull(isReplyTo, "isReplyTo")));
	}

	/**
	 * Returns how many replies {@link #loseReply} dropped so far.
	 * @return the count
	 */
	public int lostReplies() {
		return this.lostReplies.get();
	}

	/**
	 * Ends the fault: connections go through again; what a stall held is forwarded now, and chunks already delayed
	 * by {@link #latency} are forwarded when they are due.
	 */
	public void restore() {
		this.fault = Fault.NONE;
	}

	/**
	 * Sends new connections to another server, as a failover does, and closes the open ones so that clients
	 * reconnect there.
	 * @param host the new server's host
	 * @param port the new server's port
	 */
	public void redirect(String host, int port) {
		this.target = new InetSocketAddress(host, port);
		closeAll();
	}

	@Override
	public void close() {
		this.fault = Fault.CUT;
		closeQuietly(this.server);
		closeAll();
	}

	private void closeAll() {
		this.open.forEach(TcpProxy::closeQuietly);
		this.open.clear();
	}

	private void accept() {
		while (!this.server.isClosed()) {
			Socket client;
			try {
				client = this.server.accept();
			}
			catch (IOException ex) {
				// Closed.
				continue;
			}
			if (this.fault.cut) {
				closeQuietly(client);
				continue;
			}
			this.open.add(client);
			new Connection(client).start();
		}
	}

	private static void closeQuietly(AutoCloseable closeable) {
		try {
			closeable.close();
		}
		catch (Exception ex) {
			// Already closed.
		}
	}

	private static void sleepNanos(long nanos) {
		try {
			TimeUnit.NANOSECONDS.sleep(Math.max(nanos, 1));
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	/**
	 * A fault: what the proxy does with connections and bytes.
	 *
	 * @param cut whether connections are closed and refused
	 * @param stalled whether nothing is forwarded
	 * @param delayNanos how long after it was read a chunk is forwarded
	 */
	private record Fault(boolean cut, boolean stalled, long delayNanos) {

		static final Fault NONE = new Fault(false, false, 0);

		static final Fault CUT = new Fault(true, false, 0);

		static final Fault STALL = new Fault(false, true, 0);

	}

	/**
	 * A reply to lose: which request it answers, and how to recognise it among the server's chunks.
	 */
	private record LostReply(Predicate<byte[]> request, BiPredicate<byte[], byte[]> isReplyTo) {
	}

	/**
	 * Bytes read from one side, to be written to the other no earlier than {@code dueNanos}.
	 */
	private record Chunk(byte[] bytes, long dueNanos) {
	}

	/**
	 * One client connection: the upstream socket is opened by the client-to-server writer at once, or, for a
	 * connection accepted during a stall, once the stall ends; then the server-to-client direction starts (some
	 * servers, MariaDB's for one, speak first).
	 */
	private final class Connection {

		private final Socket client;

		/** Set once by the client-to-server writer; null until the server is connected. */
		private volatile @Nullable Socket upstream;

		/** Set once both sockets are closed; a reader waiting for room in its queue gives up then. */
		private volatile boolean closed;

		/** The request forwarded on this connection whose reply is to be dropped, with its reply test; else null. */
		private volatile Map.@Nullable Entry<byte[], LostReply> awaitedReply;

		Connection(Socket client) {
			this.client = client;
		}

		void start() {
			BlockingQueue<Chunk> toServer = new ArrayBlockingQueue<>(QUEUE_CHUNKS);
			thread("read-client", () -> read(this.client, toServer));
			thread("write-server", () -> writeToServer(toServer));
		}

		private void writeToServer(BlockingQueue<Chunk> queue) {
			while (TcpProxy.this.fault.stalled && !this.client.isClosed()) {
				sleepNanos(POLL_NANOS);
			}
			if (TcpProxy.this.fault.cut || this.client.isClosed()) {
				closeBoth();
				return;
			}
			Socket server = new Socket();
			try {
				server.connect(TcpProxy.this.target, 2000);
			}
			catch (IOException ex) {
				// The target refused: the client sees a closed connection.
				closeQuietly(server);
				closeBoth();
				return;
			}
			this.upstream = server;
			TcpProxy.this.open.add(server);
			if (TcpProxy.this.fault.cut) {
				closeBoth();
				return;
			}
			BlockingQueue<Chunk> toClient = new ArrayBlockingQueue<>(QUEUE_CHUNKS);
			thread("read-server", () -> read(server, toClient));
			thread("write-client", () -> write(toClient, this.client));
			write(queue, server);
		}

		/**
		 * Reads chunks from a socket until it closes, stamping each with its due time.
		 */
		private void read(Socket from, BlockingQueue<Chunk> queue) {
			byte[] buffer = new byte[16384];
			try {
				// Not closed here: what is still queued must reach the other side first.
				InputStream in = from.getInputStream();
				int read;
				while ((read = in.read(buffer)) != -1) {
					long due = System.nanoTime() + TcpProxy.this.fault.delayNanos;
					if (!enqueue(queue, new Chunk(Arrays.copyOf(buffer, read), due))) {
						return;
					}
				}
			}
			catch (IOException ex) {
				// Closed or reset: forward the end like a close.
			}
			enqueue(queue, new Chunk(END.bytes, System.nanoTime() + TcpProxy.this.fault.delayNanos));
		}

		/**
		 * Waits for room in the queue (the writer is behind, or stalled) unless the connection is closed meanwhile.
		 * @return whether the chunk was queued
		 */
		private boolean enqueue(BlockingQueue<Chunk> queue, Chunk chunk) {
			try {
				while (!queue.offer(chunk, POLL_NANOS, TimeUnit.NANOSECONDS)) {
					if (this.closed) {
						return false;
					}
				}
				return true;
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return false;
			}
		}

		/**
		 * Writes chunks to a socket as they fall due, outside a stall, until the end of stream; then closes both
		 * sides.
		 */
		private void write(BlockingQueue<Chunk> queue, Socket to) {
			try (OutputStream out = to.getOutputStream()) {
				Chunk chunk = next(queue);
				while (chunk != null && chunk.bytes.length > 0) {
					if (to == this.client && losesReply(chunk.bytes)) {
						return;
					}
					if (to != this.client) {
						awaitReplyTo(chunk.bytes);
					}
					out.write(chunk.bytes);
					out.flush();
					chunk = next(queue);
				}
			}
			catch (IOException ex) {
				// The other side went away.
			}
			finally {
				closeBoth();
			}
		}

		/**
		 * Before a chunk goes to the server: if it is the request of an armed {@link #loseReply}, this connection
		 * takes that fault.
		 */
		private void awaitReplyTo(byte[] request) {
			LostReply lost = TcpProxy.this.armed.get();
			if (lost != null && lost.request().test(request) && TcpProxy.this.armed.compareAndSet(lost, null)) {
				this.awaitedReply = Map.entry(request, lost);
			}
		}

		/**
		 * Before a chunk goes to the client: whether it carries the reply to lose (then the caller drops it and
		 * closes the connection).
		 */
		private boolean losesReply(byte[] reply) {
			Map.Entry<byte[], LostReply> awaited = this.awaitedReply;
			if (awaited == null || !awaited.getValue().isReplyTo().test(awaited.getKey(), reply)) {
				return false;
			}
			this.awaitedReply = null;
			TcpProxy.this.lostReplies.incrementAndGet();
			return true;
		}

		/**
		 * Takes the next chunk once it is due and no stall holds it.
		 * @return the chunk (an empty one for the end of stream), or null if the proxy was cut meanwhile
		 */
		private @Nullable Chunk next(BlockingQueue<Chunk> queue) {
			Chunk chunk;
			try {
				chunk = queue.take();
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return null;
			}
			for (;;) {
				Fault fault = TcpProxy.this.fault;
				if (fault.cut || this.client.isClosed()) {
					return null;
				}
				long wait = chunk.dueNanos - System.nanoTime();
				if (!fault.stalled && wait <= 0) {
					return (chunk.bytes.length == 0) ? END : chunk;
				}
				sleepNanos(fault.stalled ? POLL_NANOS : Math.min(wait, POLL_NANOS));
			}
		}

		private void closeBoth() {
			this.closed = true;
			closeQuietly(this.client);
			TcpProxy.this.open.remove(this.client);
			Socket server = this.upstream;
			if (server != null) {
				closeQuietly(server);
				TcpProxy.this.open.remove(server);
			}
		}

		private void thread(String name, Runnable task) {
			Thread thread = new Thread(task, "tcp-proxy-" + name);
			thread.setDaemon(true);
			thread.start();
		}

	}

}
