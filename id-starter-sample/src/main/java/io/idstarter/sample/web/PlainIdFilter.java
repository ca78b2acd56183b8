package io.idstarter.sample.web;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

import io.idstarter.IdWorker;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpHeaders;

/**
 * The lean path of {@code GET /api/segment/get/{key}} and {@code GET /api/snowflake/get/{key}}: answers the plain
 * case (a GET of a key of letters, digits, {@code -} and {@code _}, without an {@code Accept} header or with
 * {@code *}{@code /*}) before Spring MVC, its content negotiation and the {@code http.server.requests}
 * observation, with the same status, headers and body as {@link LeafIdEndpoints#get} answers through MVC. Every
 * other request passes on unchanged, so HEAD, other methods, trailing slashes, encoded or dotted keys and other
 * {@code Accept} headers get exactly MVC's answer. An ID that cannot be issued is not answered here: the exception
 * travels in the request attribute {@link #FAILURE} to {@link LeafIdEndpoints#get}, which throws it, so that errors
 * get the server's problem details and observation, and {@code nextId} is called once per request.
 */
final class PlainIdFilter implements Filter {

	/** Request attribute holding the exception of a {@code nextId} this filter tried. */
	static final String FAILURE = "io.idstarter.sample.web.PlainIdFilter.failure";

	/** Content type of an ID, as Spring MVC writes a {@code String} for a client without preference. */
	static final String CONTENT_TYPE = "text/plain;charset=UTF-8";

	/** Longest key served here; longer ones pass on to MVC. */
	static final int MAX_KEY_LENGTH = 128;

	private static final String SEGMENT_PREFIX = "/api/segment/get/";

	private static final String SNOWFLAKE_PREFIX = "/api/snowflake/get/";

	private final IdWorker segments;

	private final IdWorker snowflake;

	PlainIdFilter(IdWorker segments, IdWorker snowflake) {
		this.segments = segments;
		this.snowflake = snowflake;
	}

	@Override
	public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
			throws IOException, ServletException {
		if (request instanceof HttpServletRequest http && response instanceof HttpServletResponse answer
				&& "GET".equals(http.getMethod()) && acceptsAnything(http.getHeader(HttpHeaders.ACCEPT))) {
			String path = path(http);
			IdWorker ids = null;
			String key = null;
			if (path != null) {
				if (path.startsWith(SEGMENT_PREFIX)) {
					ids = this.segments;
					key = key(path, SEGMENT_PREFIX.length());
				}
				else if (path.startsWith(SNOWFLAKE_PREFIX)) {
					ids = this.snowflake;
					key = key(path, SNOWFLAKE_PREFIX.length());
				}
			}
			if (ids != null && key != null) {
				long id;
				try {
					id = ids.nextId(key);
				}
				catch (RuntimeException ex) {
					request.setAttribute(FAILURE, ex);
					chain.doFilter(request, response);
					return;
				}
				write(answer, id);
				return;
			}
		}
		chain.doFilter(request, response);
	}

	private static boolean acceptsAnything(@Nullable String accept) {
		return accept == null || "*/*".equals(accept);
	}

	/** The path within the application, undecoded; {@code null} when the URI does not start with the context. */
	private static @Nullable String path(HttpServletRequest request) {
		String uri = request.getRequestURI();
		String context = request.getContextPath();
		if (context.isEmpty()) {
			return uri;
		}
		return uri.startsWith(context) ? uri.substring(context.length()) : null;
	}

	/** The key after the prefix, or {@code null} when it is empty, too long or has a character served by MVC only. */
	private static @Nullable String key(String path, int start) {
		int length = path.length() - start;
		if (length < 1 || length > MAX_KEY_LENGTH) {
			return null;
		}
		for (int i = start; i < path.length(); i++) {
			char c = path.charAt(i);
			if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-'
					|| c == '_')) {
				return null;
			}
		}
		return path.substring(start);
	}

	private static void write(HttpServletResponse response, long id) throws IOException {
		byte[] body = Long.toString(id).getBytes(StandardCharsets.US_ASCII);
		response.setContentType(CONTENT_TYPE);
		response.setContentLength(body.length);
		ServletOutputStream out = response.getOutputStream();
		out.write(body);
	}

}
