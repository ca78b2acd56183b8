package io.idstarter.sample.admin;

import java.io.IOException;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
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
 * Answers requests the admin API's security refuses with problem details, like every other error of the server: 401
 * with a {@code WWW-Authenticate: Basic} challenge when credentials are missing or wrong, 403 when they are not
 * enough.
 */
class ProblemDetailsSecurityHandler implements AuthenticationEntryPoint, AccessDeniedHandler {

	private final JsonMapper json;

	ProblemDetailsSecurityHandler(JsonMapper json) {
		this.json = json;
	}

	@Override
	public void commence(HttpServletRequest request, HttpServletResponse response,
			AuthenticationException authException) throws IOException {
		response.setHeader(HttpHeaders.WWW_AUTHENTICATE, "Basic realm=\"" + AdminSecurityConfiguration.REALM + "\"");
		write(request, response, HttpStatus.UNAUTHORIZED, "Authentication required", "unauthorized",
				"The admin API needs the user and password of id-server.admin (HTTP Basic)");
	}

	@Override
	public void handle(HttpServletRequest request, HttpServletResponse response,
			AccessDeniedException accessDeniedException) throws IOException {
		write(request, response, HttpStatus.FORBIDDEN, "Forbidden", "forbidden",
				"These credentials may not use the admin API");
	}

	private void write(HttpServletRequest request, HttpServletResponse response, HttpStatus status, String title,
			String code, String detail) throws IOException {
		ProblemDetail problem = ProblemDetail.forStatusAndDetail(status, detail);
		problem.setTitle(title);
		problem.setInstance(java.net.URI.create(request.getRequestURI()));
		problem.setProperty("code", code);
		response.setStatus(status.value());
		response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
		this.json.writeValue(response.getOutputStream(), problem);
	}

}
