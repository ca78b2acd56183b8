package io.idstarter.sample.admin;

import java.util.regex.Pattern;

import io.idstarter.sample.IdServerProperties;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.security.config.Customizer;
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
 * is no CSRF token to manage.
 */
@Configuration(proxyBeanMethods = false)
public class AdminSecurityConfiguration {

	/** Role of the admin user. */
	static final String ADMIN_ROLE = "ID_ADMIN";

	/** A password already encoded for Spring Security's DelegatingPasswordEncoder: {@code {id}...}. */
	private static final Pattern ENCODED = Pattern.compile("^\\{[^{}]+\\}.*", Pattern.DOTALL);

	@Bean
	SecurityFilterChain idServerSecurity(HttpSecurity http, IdServerProperties properties, JsonMapper json)
			throws Exception {
		ProblemDetailsSecurityHandler problems = new ProblemDetailsSecurityHandler(json);
		boolean admin = properties.getAdmin().isEnabled();
		http.csrf((csrf) -> csrf.disable())
			.sessionManagement((session) -> session.sessionCreationPolicy(SessionCreationPolicy.STATELESS))
			.requestCache((cache) -> cache.disable())
			.formLogin((form) -> form.disable())
			.logout((logout) -> logout.disable())
			.exceptionHandling((exceptions) -> exceptions.authenticationEntryPoint(problems)
				.accessDeniedHandler(problems))
			.authorizeHttpRequests((requests) -> {
				if (admin) {
					requests.requestMatchers("/api/admin", "/api/admin/**").hasRole(ADMIN_ROLE);
				}
				requests.anyRequest().permitAll();
			});
		if (admin) {
			http.httpBasic((basic) -> basic.authenticationEntryPoint(problems).realmName("id-server admin"));
		}
		else {
			http.httpBasic((basic) -> basic.disable());
		}
		http.anonymous(Customizer.withDefaults());
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
