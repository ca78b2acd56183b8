package io.idstarter.testsupport;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A TCP forwarder on a loopback port that a test can cut and restore, to take a real store "down" for one client
 * without stopping the server other tests share. While cut, open connections are closed and new ones are closed as
 * soon as they are accepted, which a driver sees as the server going away.
 */
public final class TcpProxy implements AutoCloseable {

	/** Where new connections go; changed by {@link #redirect(String, int)}. */
	private volatile InetSocketAddress target;

	private final ServerSocket server;

	private final Set<Socket> open = ConcurrentHashMap.newKeySet();

	private volatile boolean cut;

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
		this.cut = true;
		this.open.forEach(TcpProxy::closeQuietly);
		this.open.clear();
	}

	/**
	 * Lets connections through again.
	 */
	public void restore() {
		this.cut = false;
	}

	/**
	 * Sends new connections to another server, as a failover does, and closes the open ones so that clients
	 * reconnect there.
	 * @param host the new server's host
	 * @param port the new server's port
	 */
	public void redirect(String host, int port) {
		this.target = new InetSocketAddress(host, port);
		boolean wasCut = this.cut;
		cut();
		this.cut = wasCut;
	}

	@Override
	public void close() {
		cut();
		closeQuietly(this.server);
	}

	private void accept() {
		while (!this.server.isClosed()) {
			try {
				Socket client = this.server.accept();
				if (this.cut) {
					closeQuietly(client);
					continue;
				}
				Socket upstream = new Socket();
				upstream.connect(this.target, 2000);
				this.open.add(client);
				this.open.add(upstream);
				pipe(client, upstream);
				pipe(upstream, client);
			}
			catch (IOException ex) {
				// Accept failed (closed) or the target refused: the client sees a closed connection.
			}
		}
	}

	private void pipe(Socket from, Socket to) {
		Thread thread = new Thread(() -> {
			byte[] buffer = new byte[16384];
			try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
				int read;
				while ((read = in.read(buffer)) != -1) {
					out.write(buffer, 0, read);
					out.flush();
				}
			}
			catch (IOException ex) {
				// One side closed; close both below.
			}
			finally {
				closeQuietly(from);
				closeQuietly(to);
				this.open.remove(from);
				this.open.remove(to);
			}
		}, "tcp-proxy-pipe");
		thread.setDaemon(true);
		thread.start();
	}

	private static void closeQuietly(AutoCloseable closeable) {
		try {
			closeable.close();
		}
		catch (Exception ex) {
			// Already closed.
		}
	}

}
