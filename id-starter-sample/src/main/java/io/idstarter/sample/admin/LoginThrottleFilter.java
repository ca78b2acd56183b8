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
 * Refuses requests with credentials whose login {@link LoginThrottle} has banned at the client's address, with 429
 * and {@code Retry-After}, before any password is checked.
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
		if (!refused(request, response)) {
			chain.doFilter(request, response);
		}
	}

	/**
	 * Answers 429 if the request's login is banned at its address.
	 * @param request the request
	 * @param response its response, written when refused
	 * @return whether it was refused
	 * @throws IOException if the answer cannot be written
	 */
	public boolean refused(HttpServletRequest request, HttpServletResponse response) throws IOException {
		if (request.getHeader(HttpHeaders.AUTHORIZATION) == null) {
			return false;
		}
		long seconds = this.throttle.refusedForSeconds(request.getRemoteAddr(), this.problems.login(request));
		if (seconds == 0) {
			return false;
		}
		response.setHeader(HttpHeaders.RETRY_AFTER, Long.toString(seconds));
		this.problems.write(request, response, HttpStatus.TOO_MANY_REQUESTS, "Too many failed logins",
				"too-many-failed-logins", "Too many failed logins with these credentials from this address; they "
						+ "are not checked for " + seconds + "s");
		return true;
	}

}
