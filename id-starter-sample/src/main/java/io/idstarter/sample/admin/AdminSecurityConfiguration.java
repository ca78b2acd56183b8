package io.idstarter.sample.admin;

import java.util.Set;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

import io.idstarter.sample.IdServerProperties;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.core.userdetails.UserDetailsService;
import org.springframework.security.crypto.factory.PasswordEncoderFactories;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.authentication.www.BasicAuthenticationFilter;

/**
 * Security of the server: everything is open except the admin API under {@code /api/admin}, which needs HTTP Basic
 * with {@code id-server.admin.username}/{@code password} when it is on. Stateless (no session, no cookie), so there
 * is no CSRF token to manage; the admin API takes JSON bodies only, which a cross-site form cannot send.
 */
@Configuration(proxyBeanMethods = false)
public class AdminSecurityConfiguration {

	/** Realm of the HTTP Basic challenge. */
	static final String REALM = "id-server admin";

	/** Role of the admin user. */
	static final String ADMIN_ROLE = "ID_ADMIN";

	/** A password already encoded for Spring Security's DelegatingPasswordEncoder: {@code {id}...}. */
	private static final Pattern ENCODED = Pattern.compile("^\\{[^{}]+\\}.*", Pattern.DOTALL);

	/**
	 * The one security filter chain. It covers the admin paths only, so the ID endpoints pass no security filter
	 * at all (they are public and on the hot path).
	 */
	@Bean
	SecurityFilterChain idServerSecurity(HttpSecurity http, IdServerProperties properties, JsonMapper json,
			LoginThrottle throttle) throws Exception {
		ProblemDetailsSecurityHandler problems = new ProblemDetailsSecurityHandler(json, throttle,
				"Basic realm=\"" + REALM + "\"",
				"The admin API needs the user and password of id-server.admin (HTTP Basic)",
				Set.of(properties.getAdmin().getUsername()));
		http.securityMatcher("/api/admin", "/api/admin/**")
			.addFilterBefore(new LoginThrottleFilter(throttle, problems), BasicAuthenticationFilter.class)
			.csrf((csrf) -> csrf.disable())
			.sessionManagement((session) -> session.sessionCreationPolicy(SessionCreationPolicy.STATELESS))
			.requestCache((cache) -> cache.disable())
			.formLogin((form) -> form.disable())
			.logout((logout) -> logout.disable())
			.exceptionHandling((exceptions) -> exceptions.authenticationEntryPoint(problems)
				.accessDeniedHandler(problems));
		if (properties.getAdmin().isEnabled()) {
			http.authorizeHttpRequests((requests) -> requests.anyRequest().hasRole(ADMIN_ROLE))
				.httpBasic((basic) -> basic.authenticationEntryPoint(problems).realmName(REALM));
		}
		else {
			// AdminDisabledController answers 404.
			http.authorizeHttpRequests((requests) -> requests.anyRequest().permitAll())
				.httpBasic((basic) -> basic.disable());
		}
		return http.build();
	}

	/**
	 * Checks admin passwords one at a time: a bcrypt check takes a core for tens of milliseconds, and checks running
	 * in parallel on the request threads would slow every ID request. A check that cannot start within
	 * {@code id-server.login.password-check-wait} is neither a match nor a mismatch: it throws
	 * {@link PasswordCheckBusyException} (503, not counted as a failed login), so that a guessing storm from other
	 * addresses never turns the right password into a 401 and a ban.
	 */
	@Bean
	PasswordEncoder idServerPasswordEncoder(IdServerProperties properties) {
		PasswordEncoder delegate = PasswordEncoderFactories.createDelegatingPasswordEncoder();
		long waitMillis = properties.getLogin().getPasswordCheckWait().toMillis();
		Semaphore checks = new Semaphore(1);
		return new PasswordEncoder() {

			@Override
			public @Nullable String encode(@Nullable CharSequence rawPassword) {
				return delegate.encode(rawPassword);
			}

			@Override
			public boolean matches(@Nullable CharSequence rawPassword, @Nullable String encodedPassword) {
				try {
					if (!checks.tryAcquire(waitMillis, TimeUnit.MILLISECONDS)) {
						throw new PasswordCheckBusyException(waitMillis);
					}
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
					throw new PasswordCheckBusyException(waitMillis);
				}
				try {
					return delegate.matches(rawPassword, encodedPassword);
				}
				finally {
					checks.release();
				}
			}

			@Override
			public boolean upgradeEncoding(@Nullable String encodedPassword) {
				return delegate.upgradeEncoding(encodedPassword);
			}

		};
	}

	/**
	 * The admin user when the admin API is on, otherwise no user at all (so that Spring Boot creates no default user
	 * with a generated password). A password given with an encoding prefix ({@code {bcrypt}...}) is used as is.
	 */
	@Bean
	UserDetailsService idServerUsers(IdServerProperties properties) {
		IdServerProperties.Admin admin = properties.getAdmin();
		String password = admin.getPassword();
		if (!admin.isEnabled() || password == null) {
			return new InMemoryUserDetailsManager();
		}
		// A plain-text password is hashed once here, so that requests are checked in constant time.
		String encoded = ENCODED.matcher(password).matches() ? password
				: PasswordEncoderFactories.createDelegatingPasswordEncoder().encode(password);
		return new InMemoryUserDetailsManager(
				User.withUsername(admin.getUsername()).password(encoded).roles(ADMIN_ROLE).build());
	}

}
