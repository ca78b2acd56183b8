package io.idstarter.sample;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;

/**
 * Ports for the tests.
 */
final class TestPorts {

	private TestPorts() {
	}

	/**
	 * Returns a port nothing listens on (it was free a moment ago): a connection to it is refused.
	 * @return the port
	 */
	static int closed() {
		try (ServerSocket socket = new ServerSocket(0)) {
			return socket.getLocalPort();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
