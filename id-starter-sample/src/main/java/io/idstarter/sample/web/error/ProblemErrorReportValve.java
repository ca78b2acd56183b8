package io.idstarter.sample.web.error;

import java.io.IOException;
import java.io.Writer;
import java.util.concurrent.atomic.AtomicBoolean;

import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ErrorReportValve;
import org.apache.coyote.ActionCode;
import org.springframework.http.HttpStatus;

/**
 * Tomcat's error report as an RFC 9457 problem document instead of its HTML page: what Tomcat answers itself, before
 * any servlet runs (an encoded {@code /} or NUL in the path, a request line or header past the size limit). No
 * stack trace, no server version.
 */
public class ProblemErrorReportValve extends ErrorReportValve {

	@Override
	protected void report(Request request, Response response, Throwable throwable) {
		int status = response.getStatus();
		if (status < 400 || response.getContentWritten() > 0 || !response.setErrorReported()) {
			return;
		}
		AtomicBoolean ioAllowed = new AtomicBoolean(true);
		response.getCoyoteResponse().action(ActionCode.IS_IO_ALLOWED, ioAllowed);
		if (!ioAllowed.get()) {
			return;
		}
		HttpStatus known = HttpStatus.resolve(status);
		String title = (known != null) ? known.getReasonPhrase() : "Error";
		String detail = (status == 400)
				? "The request is malformed (an encoded '/' or NUL in the path, a request line or header over the "
						+ "size limit, or bad syntax) and was not processed"
				: title;
		try {
			response.setContentType("application/problem+json");
			response.setCharacterEncoding("UTF-8");
			Writer writer = response.getReporter();
			if (writer != null) {
				writer.write(ProblemJson.of(status, title, ProblemJson.code(status, title), detail, null));
				response.finishResponse();
			}
		}
		catch (IOException | IllegalStateException ex) {
			// The client is gone or the response is already on its way: nothing more to send.
		}
	}

}
