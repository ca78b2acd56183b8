package io.idstarter.sample.admin;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Set;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.security.access.AccessDeniedException;
import org.springframework.security.core.AuthenticationException;
import org.springframework.security.web.AuthenticationEntryPoint;
import org.springframework.security.web.access.AccessDeniedHandler;

/**
 * Answers requests a security filter chain refuses with problem details, like every other error of the server: 401
 * with a {@code WWW-Authenticate} challenge when credentials are missing or wrong, 403 when they are not enough, 503
 * with {@code Retry-After} when a password could not be checked in time ({@link PasswordCheckBusyException}: the
 * server is busy for everyone, which is no fault of this client, so not a 429). A refused request that carried
 * credentials counts as a failed login for {@link LoginThrottle}; one whose password was never checked does not.
 */
public class ProblemDetailsSecurityHandler implements AuthenticationEntryPoint, AccessDeniedHandler {

	private final JsonMapper json;

	private final @Nullable LoginThrottle throttle;

	private final String challenge;

	private final String detail;

	/** User or client names that exist: failures of each are counted apart, those of all others together. */
	private final Set<String> logins;

	/**
	 * Creates the handler of one filter chain.
	 * @param json writes the problems
	 * @param throttle counts failed logins, or {@code null}
	 * @param challenge the {@code WWW-Authenticate} value of a 401
	 * @param detail what a 401 says the client needs
	 * @param logins the user or client names that exist
	 */
	public ProblemDetailsSecurityHandler(JsonMapper json, @Nullable LoginThrottle throttle, String challenge,
			String detail, Set<String> logins) {
		this.logins = Set.copyOf(logins);
		this.json = json;
		this.throttle = throttle;
		this.challenge = challenge;
		this.detail = detail;
	}

	@Override
	public void commence(HttpServletRequest request, HttpServletResponse response,
			AuthenticationException authException) throws IOException {
		if (authException instanceof PasswordCheckBusyException) {
			response.setHeader(HttpHeaders.RETRY_AFTER, "1");
			write(request, response, HttpStatus.SERVICE_UNAVAILABLE, "Password check busy", "password-check-busy",
					"The server is checking other requests' passwords and could not check this one in time; "
							+ "it was neither accepted nor refused: retry");
			return;
		}
		if (this.throttle != null && request.getHeader(HttpHeaders.AUTHORIZATION) != null) {
			this.throttle.failed(request.getRemoteAddr(), login(request), request.getRequestURI());
		}
		response.setHeader(HttpHeaders.WWW_AUTHENTICATE, this.challenge);
		write(request, response, HttpStatus.UNAUTHORIZED, "Authentication required", "unauthorized", this.detail);
	}

	@Override
	public void handle(HttpServletRequest request, HttpServletResponse response,
			AccessDeniedException accessDeniedException) throws IOException {
		write(request, response, HttpStatus.FORBIDDEN, "Forbidden", "forbidden",
				"These credentials may not use this API");
	}

	void write(HttpServletRequest request, HttpServletResponse response, HttpStatus status, String title,
			String code, String detail) throws IOException {
		ProblemDetail problem = ProblemDetail.forStatusAndDetail(status, detail);
		problem.setTitle(title);
		problem.setInstance(URI.create(request.getRequestURI()));
		problem.setProperty("code", code);
		response.setStatus(status.value());
		response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
		// Written without flushing, so that the answer is not committed yet and RequestBodyValve can still announce a
		// close when the refused request's body has not arrived.
		// (No Content-Length either: Tomcat commits an answer once that many bytes are written.)
		response.getOutputStream().write(this.json.writeValueAsBytes(problem));
	}

	/**
	 * Returns what a request logs in as, for {@link LoginThrottle}: the user or client name when one with that name
	 * exists; otherwise a placeholder shared by every name nobody has (so that guessing names does not escape the
	 * count) and by every bearer token. Never the password.
	 * @param request a request with an {@code Authorization} header
	 * @return the login
	 */
	String login(HttpServletRequest request) {
		String authorization = String.valueOf(request.getHeader(HttpHeaders.AUTHORIZATION));
		if (authorization.regionMatches(true, 0, "Basic ", 0, 6)) {
			try {
				String decoded = new String(Base64.getDecoder().decode(authorization.substring(6).trim()),
						StandardCharsets.UTF_8);
				int colon = decoded.indexOf(':');
				String user = (colon >= 0) ? decoded.substring(0, colon) : decoded;
				return this.logins.contains(user) ? "'" + user + "'" : "(unknown user)";
			}
			catch (IllegalArgumentException ex) {
				return "(malformed Basic header)";
			}
		}
		return authorization.regionMatches(true, 0, "Bearer ", 0, 7) ? "(bearer token)" : "(other scheme)";
	}

}
