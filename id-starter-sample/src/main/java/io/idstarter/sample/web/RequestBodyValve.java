package io.idstarter.sample.web;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicBoolean;

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
			ProblemPagesConfiguration.writeProblem(request, response, HttpStatus.CONTENT_TOO_LARGE,
					"Request body too large", "body-too-large",
					takesBody ? "Request bodies of this API are limited to " + MAX_BODY + " bytes"
							: "This path takes no request body; send none");
			response.flushBuffer();
			closeUnlessArrived(request, response, length);
			return;
		}
		getNext().invoke(request, response);
		AtomicBoolean fullyRead = new AtomicBoolean();
		request.getCoyoteRequest().action(ActionCode.REQUEST_BODY_FULLY_READ, fullyRead);
		if (!fullyRead.get()) {
			closeUnlessArrived(request, response, length);
		}
	}

	private boolean takesBody(String path) {
		return path.startsWith("/api/fleet/") || (this.adminTakesBody && path.startsWith("/api/admin/"));
	}

	/**
	 * Lets Tomcat drop the unread rest of a body if all of it has arrived (dropping it then takes no wait, and the
	 * client reads the answer on a connection it may keep); otherwise tells Tomcat not to read it, and to close the
	 * connection after the answer. The answer is complete already: Tomcat takes the closing for an error, and must not
	 * add an error page to it.
	 */
	private static void closeUnlessArrived(Request request, Response response, long length) {
		org.apache.coyote.Request coyote = request.getCoyoteRequest();
		if (length > 0) {
			coyote.action(ActionCode.AVAILABLE, Boolean.TRUE);
			long remaining = length - coyote.getBytesRead();
			if (remaining <= 0 || coyote.getAvailable() >= remaining) {
				return;
			}
		}
		coyote.action(ActionCode.DISABLE_SWALLOW_INPUT, null);
		response.setErrorReported();
	}

}
