package io.idstarter.sample.web.body;

import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;

import io.idstarter.sample.web.error.ProblemPagesConfiguration;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Reads the body of an authenticated fleet or admin request whole before the handler runs, within a deadline for all
 * of it: Tomcat's timeouts bound each read only, so a client sending a byte now and then could otherwise hold a
 * request thread for as long as it likes. Past the deadline the answer is 408 and the connection is closed; a body
 * over {@link RequestBodyValve#MAX_BODY} bytes (chunked, so not refused by its length) is a 413. Runs after the
 * security filters: an anonymous request is refused before any of its body is read.
 */
class BodyReadDeadlineFilter extends OncePerRequestFilter {

	private final long deadlineNanos;

	BodyReadDeadlineFilter(long deadlineNanos) {
		this.deadlineNanos = deadlineNanos;
	}

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		if (request.getContentLengthLong() <= 0 && request.getHeader(HttpHeaders.TRANSFER_ENCODING) == null) {
			chain.doFilter(request, response);
			return;
		}
		long deadline = System.nanoTime() + this.deadlineNanos;
		ByteArrayOutputStream body = new ByteArrayOutputStream(512);
		InputStream in = request.getInputStream();
		byte[] buffer = new byte[4096];
		try {
			for (int read = in.read(buffer); read >= 0; read = in.read(buffer)) {
				body.write(buffer, 0, read);
				if (body.size() > RequestBodyValve.MAX_BODY) {
					ProblemPagesConfiguration.writeProblem(request, response, HttpStatus.CONTENT_TOO_LARGE,
							"Request body too large", "body-too-large",
							"Request bodies of this API are limited to " + RequestBodyValve.MAX_BODY + " bytes");
					return;
				}
				if (System.nanoTime() - deadline > 0) {
					tooSlow(request, response);
					return;
				}
			}
		}
		catch (IOException ex) {
			// A read that waited the upload timeout (the deadline) without a byte, or a client gone.
			tooSlow(request, response);
			return;
		}
		chain.doFilter(new ReadBody(request, body.toByteArray()), response);
	}

	private void tooSlow(HttpServletRequest request, HttpServletResponse response) {
		try {
			response.setHeader(HttpHeaders.CONNECTION, "close");
			ProblemPagesConfiguration.writeProblem(request, response, HttpStatus.REQUEST_TIMEOUT,
					"Request body too slow", "body-too-slow", "The request body did not arrive within "
							+ this.deadlineNanos / 1_000_000 + " ms (id-server.body-read-timeout)");
		}
		catch (IOException | IllegalStateException ex) {
			// The client is gone: nothing to answer.
		}
	}

	/** A request whose body was read already: its stream and reader serve the bytes from memory. */
	private static final class ReadBody extends HttpServletRequestWrapper {

		private final byte[] body;

		ReadBody(HttpServletRequest request, byte[] body) {
			super(request);
			this.body = body;
		}

		@Override
		public ServletInputStream getInputStream() {
			ByteArrayInputStream in = new ByteArrayInputStream(this.body);
			return new ServletInputStream() {

				@Override
				public int read() {
					return in.read();
				}

				@Override
				public int read(byte[] b, int off, int len) {
					return in.read(b, off, len);
				}

				@Override
				public boolean isFinished() {
					return in.available() == 0;
				}

				@Override
				public boolean isReady() {
					return true;
				}

				@Override
				public void setReadListener(ReadListener listener) {
					throw new IllegalStateException("The body was read already; no asynchronous reads");
				}

			};
		}

		@Override
		public BufferedReader getReader() {
			String encoding = getCharacterEncoding();
			Charset charset = (encoding != null) ? Charset.forName(encoding) : StandardCharsets.UTF_8;
			return new BufferedReader(new InputStreamReader(getInputStream(), charset));
		}

		@Override
		public int getContentLength() {
			return this.body.length;
		}

		@Override
		public long getContentLengthLong() {
			return this.body.length;
		}

	}

}
