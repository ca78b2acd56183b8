package io.idstarter.sample.web.error;

import java.io.IOException;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpStatus;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Gives a problem body to a 4xx answer that has none (the actuator answers an unknown selector with a bare 404). The
 * response is held back from flushing while it is an error without a body, so the body can still be written after
 * the handler returns. Responses with a body, HEAD requests and the API under {@code /api} pass as they are.
 */
class EmptyErrorBodyFilter extends OncePerRequestFilter {

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		if ("HEAD".equals(request.getMethod())) {
			chain.doFilter(request, response);
			return;
		}
		Watched watched = new Watched(response);
		chain.doFilter(request, watched);
		int status = watched.getStatus();
		if (status >= 400 && status < 500 && !watched.written && !response.isCommitted()
				&& !request.isAsyncStarted()) {
			HttpStatus known = HttpStatus.resolve(status);
			String title = (known != null) ? known.getReasonPhrase() : "Client error";
			String detail = (status == 404) ? "No resource at this path" : title;
			response.resetBuffer();
			ProblemPagesConfiguration.writeProblem(request, response, HttpStatus.valueOf(status), title,
					ProblemJson.code(status, title), detail);
		}
	}

	/**
	 * The API under {@code /api} answers every error with a problem already; skipping it keeps the ID endpoints
	 * free of the wrapper.
	 */
	@Override
	protected boolean shouldNotFilter(HttpServletRequest request) {
		return request.getRequestURI().startsWith("/api/");
	}

	@Override
	protected boolean shouldNotFilterErrorDispatch() {
		return true;
	}

	/** Notes whether a body was written; while none was and the status is an error, flushes are held back. */
	private static final class Watched extends HttpServletResponseWrapper {

		volatile boolean written;

		private @Nullable ServletOutputStream stream;

		Watched(HttpServletResponse response) {
			super(response);
		}

		private boolean holdBack() {
			return !this.written && getStatus() >= 400 && getStatus() < 500;
		}

		@Override
		public void flushBuffer() throws IOException {
			if (!holdBack()) {
				super.flushBuffer();
			}
		}

		@Override
		public java.io.PrintWriter getWriter() throws IOException {
			this.written = true;
			return super.getWriter();
		}

		@Override
		public ServletOutputStream getOutputStream() throws IOException {
			if (this.stream == null) {
				ServletOutputStream target = super.getOutputStream();
				this.stream = new ServletOutputStream() {

					@Override
					public void write(int b) throws IOException {
						Watched.this.written = true;
						target.write(b);
					}

					@Override
					public void write(byte[] b, int off, int len) throws IOException {
						if (len > 0) {
							Watched.this.written = true;
						}
						target.write(b, off, len);
					}

					@Override
					public void flush() throws IOException {
						if (!holdBack()) {
							target.flush();
						}
					}

					@Override
					public void close() throws IOException {
						if (!holdBack()) {
							target.close();
						}
					}

					@Override
					public boolean isReady() {
						return target.isReady();
					}

					@Override
					public void setWriteListener(WriteListener listener) {
						target.setWriteListener(listener);
					}

				};
			}
			return this.stream;
		}

	}

}
