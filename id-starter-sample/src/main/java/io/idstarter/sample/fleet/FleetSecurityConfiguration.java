package io.idstarter.sample.fleet;

import java.io.IOException;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;

import io.idstarter.sample.IdServerProperties;
import io.idstarter.sample.admin.LoginThrottle;
import io.idstarter.sample.admin.LoginThrottleFilter;
import io.idstarter.sample.admin.ProblemDetailsSecurityHandler;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpHeaders;
import org.springframework.security.authentication.BadCredentialsException;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.core.authority.SimpleGrantedAuthority;
import org.springframework.security.core.context.SecurityContext;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.authentication.www.BasicAuthenticationFilter;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Security of the fleet API under {@code /api/fleet}: every request needs the bearer token or the HTTP Basic
 * password of a client listed under {@code id-server.clients}; without, 401 with a problem detail and nothing
 * allocated. Failed logins count towards {@link LoginThrottle}'s ban. Stateless.
 */
@Configuration(proxyBeanMethods = false)
public class FleetSecurityConfiguration {

	private static final Logger logger = LoggerFactory.getLogger(FleetSecurityConfiguration.class);

	/** Realm of the challenge. */
	static final String REALM = "id-server fleet";

	/** Role of every fleet client. */
	static final String CLIENT_ROLE = "ID_CLIENT";

	@Bean
	@Order(1)
	SecurityFilterChain fleetSecurity(HttpSecurity http, IdServerProperties properties, JsonMapper json,
			LoginThrottle throttle) throws Exception {
		ClientCredentials credentials = new ClientCredentials(properties.getClients());
		if (credentials.isEmpty()) {
			logger.info("No fleet clients configured (id-server.clients): the fleet API under /api/fleet refuses "
					+ "every request");
		}
		ProblemDetailsSecurityHandler problems = new ProblemDetailsSecurityHandler(json, throttle,
				"Bearer realm=\"" + REALM + "\", Basic realm=\"" + REALM + "\"",
				"The fleet API needs the bearer token or the HTTP Basic password of a client configured under "
						+ "id-server.clients",
				properties.getClients().stream().map((client) -> Objects.toString(client.getName())).collect(
						Collectors.toSet()));
		http.securityMatcher("/api/fleet", "/api/fleet/**")
			.csrf((csrf) -> csrf.disable())
			.sessionManagement((session) -> session.sessionCreationPolicy(SessionCreationPolicy.STATELESS))
			.requestCache((cache) -> cache.disable())
			.formLogin((form) -> form.disable())
			.logout((logout) -> logout.disable())
			.httpBasic((basic) -> basic.disable())
			.anonymous((anonymous) -> anonymous.disable())
			.addFilterAt(new ClientAuthenticationFilter(credentials, new LoginThrottleFilter(throttle, problems),
					problems), BasicAuthenticationFilter.class)
			.exceptionHandling((exceptions) -> exceptions.authenticationEntryPoint(problems)
				.accessDeniedHandler(problems))
			.authorizeHttpRequests((requests) -> requests.anyRequest().hasRole(CLIENT_ROLE));
		return http.build();
	}

	/**
	 * Authenticates a request by its {@code Authorization} header; a header that matches no client is answered
	 * with 401 at once, or 429 while its login is banned at the client's address. Valid credentials are never
	 * refused by a ban (of an admin login or another client's at a shared address): they are checked first, which
	 * costs microseconds.
	 */
	static final class ClientAuthenticationFilter extends OncePerRequestFilter {

		private final ClientCredentials credentials;

		private final LoginThrottleFilter throttle;

		private final ProblemDetailsSecurityHandler problems;

		ClientAuthenticationFilter(ClientCredentials credentials, LoginThrottleFilter throttle,
				ProblemDetailsSecurityHandler problems) {
			this.credentials = credentials;
			this.throttle = throttle;
			this.problems = problems;
		}

		@Override
		protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
				throws ServletException, IOException {
			String authorization = request.getHeader(HttpHeaders.AUTHORIZATION);
			if (authorization != null) {
				String client = this.credentials.authenticate(authorization);
				if (client == null) {
					if (this.throttle.refused(request, response)) {
						return;
					}
					this.problems.commence(request, response,
							new BadCredentialsException("No fleet client has these credentials"));
					return;
				}
				SecurityContext context = SecurityContextHolder.createEmptyContext();
				context.setAuthentication(UsernamePasswordAuthenticationToken.authenticated(client, null,
						List.of(new SimpleGrantedAuthority("ROLE_" + CLIENT_ROLE))));
				SecurityContextHolder.setContext(context);
			}
			chain.doFilter(request, response);
		}

	}

}
