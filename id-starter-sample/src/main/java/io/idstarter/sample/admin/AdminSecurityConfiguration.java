package io.idstarter.sample.admin;

import java.util.regex.Pattern;

import io.idstarter.sample.IdServerProperties;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.core.userdetails.UserDetailsService;
import org.springframework.security.crypto.factory.PasswordEncoderFactories;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.security.web.SecurityFilterChain;

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
	SecurityFilterChain idServerSecurity(HttpSecurity http, IdServerProperties properties, JsonMapper json)
			throws Exception {
		ProblemDetailsSecurityHandler problems = new ProblemDetailsSecurityHandler(json);
		http.securityMatcher("/api/admin", "/api/admin/**")
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
