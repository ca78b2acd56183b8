package io.idstarter.sample.admin;

import java.io.IOException;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Refuses requests with credentials from an address {@link LoginThrottle} has banned, with 429 and
 * {@code Retry-After}, before any password is checked.
 */
public class LoginThrottleFilter extends OncePerRequestFilter {

	private final LoginThrottle throttle;

	private final ProblemDetailsSecurityHandler problems;

	public LoginThrottleFilter(LoginThrottle throttle, ProblemDetailsSecurityHandler problems) {
		this.throttle = throttle;
		this.problems = problems;
	}

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		if (request.getHeader(HttpHeaders.AUTHORIZATION) != null) {
			long seconds = this.throttle.refusedForSeconds(request.getRemoteAddr());
			if (seconds > 0) {
				response.setHeader(HttpHeaders.RETRY_AFTER, Long.toString(seconds));
				this.problems.write(request, response, HttpStatus.TOO_MANY_REQUESTS, "Too many failed logins",
						"too-many-failed-logins", "Too many failed logins from this address; credentials are not "
								+ "checked for " + seconds + "s");
				return;
			}
		}
		chain.doFilter(request, response);
	}

}
