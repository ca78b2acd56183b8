package io.idstarter.sample.web.body;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicBoolean;

import io.idstarter.sample.web.error.ProblemPagesConfiguration;
import jakarta.servlet.ServletException;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ValveBase;
import org.apache.coyote.ActionCode;

import org.springframework.http.HttpStatus;

/**
 * Keeps request bodies from holding request threads. Tomcat reads what a handler left of a body before it takes the
 * connection's next request ("swallows" it, up to 2 MB, with the connection timeout per read), on the request
 * thread: a client that sends a large body a byte at a time held a thread per connection, and a few hundred such
 * connections stopped every endpoint. Here:
 * <ul>
 * <li>only the APIs that take a body (fleet, and admin while it is on; their bodies are small JSON objects) may send
 * one, of at most
 * {@value #MAX_BODY} bytes by its {@code Content-Length}; any other body, or a larger one, is refused with 413 before a
 * byte of it is read;</li>
 * <li>a body the server did not read to its end (a 401 before the fleet API reads it, a 413) is read and dropped
 * only when all of it has arrived already, which takes no wait; otherwise the connection is closed after the answer
 * instead.</li>
 * </ul>
 * So an anonymous client never makes a request thread wait for a body; only an authenticated fleet or admin call is
 * read, and that is at most {@value #MAX_BODY} bytes.
 */
public class RequestBodyValve extends ValveBase {

	/** Largest body of a fleet or admin request, in bytes; their JSON objects take a few hundred. */
	static final int MAX_BODY = 16 * 1024;

	/** Whether the admin API is on: while it is off, its paths take no body either. */
	private final boolean adminTakesBody;

	public RequestBodyValve(boolean adminTakesBody) {
		super(true);
		this.adminTakesBody = adminTakesBody;
	}

	@Override
	public void invoke(Request request, Response response) throws IOException, ServletException {
		long length = request.getContentLengthLong();
		boolean chunked = request.getHeader("Transfer-Encoding") != null;
		if (length <= 0 && !chunked) {
			getNext().invoke(request, response);
			return;
		}
		boolean takesBody = takesBody(request.getRequestURI());
		if (!takesBody || length > MAX_BODY) {
			boolean close = !arrived(request, length);
			if (close) {
				announceClose(response);
			}
			ProblemPagesConfiguration.writeProblem(request, response, HttpStatus.CONTENT_TOO_LARGE,
					"Request body too large", "body-too-large",
					takesBody ? "Request bodies of this API are limited to " + MAX_BODY + " bytes"
							: "This path takes no request body; send none");
			response.flushBuffer();
			if (close) {
				close(request, response);
			}
			return;
		}
		getNext().invoke(request, response);
		AtomicBoolean fullyRead = new AtomicBoolean();
		request.getCoyoteRequest().action(ActionCode.REQUEST_BODY_FULLY_READ, fullyRead);
		if (!fullyRead.get() && !arrived(request, length)) {
			announceClose(response);
			close(request, response);
		}
	}

	private boolean takesBody(String path) {
		return path.startsWith("/api/fleet/") || (this.adminTakesBody && path.startsWith("/api/admin/"));
	}

	/**
	 * Returns whether all of a body has arrived, so that Tomcat can drop its unread rest without waiting (and the
	 * client reads the answer on a connection it may keep).
	 */
	private static boolean arrived(Request request, long length) {
		if (length <= 0) {
			return false;
		}
		org.apache.coyote.Request coyote = request.getCoyoteRequest();
		coyote.action(ActionCode.AVAILABLE, Boolean.TRUE);
		long remaining = length - coyote.getBytesRead();
		return remaining <= 0 || coyote.getAvailable() >= remaining;
	}

	/**
	 * Tells the client that the connection closes after this answer, while the answer can still carry a header: a
	 * client that was not told would send its next request on the closed connection and get no answer at all.
	 */
	private static void announceClose(Response response) {
		if (!response.isCommitted()) {
			response.setHeader("Connection", "close");
		}
	}

	/**
	 * Tells Tomcat not to read the rest of the body, and to close the connection after the answer. The answer is
	 * complete already: Tomcat takes the closing for an error, and must not add an error page to it.
	 */
	private static void close(Request request, Response response) {
		request.getCoyoteRequest().action(ActionCode.DISABLE_SWALLOW_INPUT, null);
		response.setErrorReported();
	}

}
