package io.idstarter.autoconfigure.http;

import java.net.URI;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

import io.idstarter.actuate.health.IdServersHealthIndicator;
import io.idstarter.metrics.IdServerMetrics;
import io.idstarter.store.http.IdServerClient;
import io.idstarter.store.http.IdServerStatuses;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.http.client.ClientHttpRequestFactoryBuilder;
import org.springframework.boot.http.client.HttpClientSettings;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.client.ClientHttpRequestFactory;
import org.springframework.http.client.JdkClientHttpRequestFactory;
import org.springframework.util.ClassUtils;
import org.springframework.util.StringUtils;
import org.springframework.web.client.RestClient;

/**
 * The client of the ID servers ({@code id-worker.http.*}), shared by the HTTP segment store and the HTTP lease
 * store. It is built on the application's {@code RestClient.Builder} (its message converters, interceptors and
 * observations) and the application's HTTP client library (Spring Boot's detection: Apache HttpClient, Jetty,
 * Reactor Netty or the JDK's), with this configuration's timeouts. Its creation checks the credentials with the
 * servers: refused ones fail the start, naming the property.
 *
 * @since 0.1.0
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass(RestClient.class)
@EnableConfigurationProperties(HttpStoreProperties.class)
public class IdServerClientConfiguration {

	/** The properties that hold this client's credentials, for messages. */
	static final String CREDENTIALS = "id-worker.http.token (or id-worker.http.username and id-worker.http.password)";

	private static final String BOOT_HTTP_CLIENT = "org.springframework.boot.http.client.ClientHttpRequestFactoryBuilder";

	@Bean
	@ConditionalOnMissingBean
	IdServerClient idServerClient(HttpStoreProperties http, ObjectProvider<RestClient.Builder> builder) {
		List<URI> servers = validate(http);
		RestClient rest = builder.getIfAvailable(RestClient::builder)
			.requestFactory(requestFactory(http.getConnectTimeout(), http.getReadTimeout()))
			.build();
		HttpStoreProperties.Retry retry = http.getRetry();
		int firstServer = http.isSpreadLoad() ? ThreadLocalRandom.current().nextInt(servers.size()) : 0;
		IdServerClient client = new IdServerClient(rest, servers, retry.getMaxAttempts(), retry.getInitialBackoff(),
				retry.getMaxBackoff(), authorization(http), CREDENTIALS, firstServer);
		client.verifyCredentials();
		return client;
	}

	static List<URI> validate(HttpStoreProperties http) {
		List<URI> servers = http.getServers();
		if (servers.isEmpty()) {
			throw new InvalidConfigurationPropertyValueException("id-worker.http.servers", "(empty)",
					"client mode needs the base URL of at least one ID server, e.g. http://id-server-1:8080");
		}
		for (int i = 0; i < servers.size(); i++) {
			URI server = servers.get(i);
			String scheme = server.getScheme();
			if (!"http".equalsIgnoreCase(scheme) && !"https".equalsIgnoreCase(scheme) || server.getHost() == null) {
				throw new InvalidConfigurationPropertyValueException("id-worker.http.servers[" + i + "]", server,
						"must be an absolute http:// or https:// URL with a host");
			}
		}
		positive("id-worker.http.connect-timeout", http.getConnectTimeout());
		positive("id-worker.http.read-timeout", http.getReadTimeout());
		HttpStoreProperties.Retry retry = http.getRetry();
		if (retry.getMaxAttempts() < 1 || retry.getMaxAttempts() > 100) {
			throw new InvalidConfigurationPropertyValueException("id-worker.http.retry.max-attempts",
					retry.getMaxAttempts(), "must be between 1 and 100");
		}
		if (retry.getInitialBackoff().isNegative()) {
			throw new InvalidConfigurationPropertyValueException("id-worker.http.retry.initial-backoff",
					retry.getInitialBackoff(), "must not be negative");
		}
		if (retry.getMaxBackoff().compareTo(retry.getInitialBackoff()) < 0) {
			throw new InvalidConfigurationPropertyValueException("id-worker.http.retry.max-backoff",
					retry.getMaxBackoff(), "must be at least id-worker.http.retry.initial-backoff ("
							+ retry.getInitialBackoff() + ")");
		}
		if (!StringUtils.hasText(http.getToken())
				&& (!StringUtils.hasText(http.getUsername()) || !StringUtils.hasText(http.getPassword()))) {
			String property = StringUtils.hasText(http.getUsername()) ? "id-worker.http.password"
					: "id-worker.http.token";
			throw new InvalidConfigurationPropertyValueException(property, "(not set)",
					"the ID servers serve only configured clients: set id-worker.http.token to this client's "
							+ "bearer token, or id-worker.http.username and id-worker.http.password to its HTTP "
							+ "Basic credentials, as listed in the servers' id-server.clients");
		}
		return servers;
	}

	private static void positive(String property, Duration value) {
		if (value.isNegative() || value.isZero()) {
			throw new InvalidConfigurationPropertyValueException(property, value, "must be positive");
		}
	}

	static @Nullable String authorization(HttpStoreProperties http) {
		if (StringUtils.hasText(http.getToken())) {
			return "Bearer " + http.getToken();
		}
		String credentials = http.getUsername() + ":" + http.getPassword();
		return "Basic " + Base64.getEncoder().encodeToString(credentials.getBytes(StandardCharsets.UTF_8));
	}

	private static ClientHttpRequestFactory requestFactory(Duration connectTimeout, Duration readTimeout) {
		if (ClassUtils.isPresent(BOOT_HTTP_CLIENT, IdServerClientConfiguration.class.getClassLoader())) {
			return BootHttpClient.requestFactory(connectTimeout, readTimeout);
		}
		JdkClientHttpRequestFactory factory = new JdkClientHttpRequestFactory(
				HttpClient.newBuilder().connectTimeout(connectTimeout).build());
		factory.setReadTimeout(readTimeout);
		return factory;
	}

	/**
	 * Spring Boot's detection of the HTTP client library; loaded only when spring-boot-http-client is present.
	 */
	private static final class BootHttpClient {

		static ClientHttpRequestFactory requestFactory(Duration connectTimeout, Duration readTimeout) {
			return ClientHttpRequestFactoryBuilder.detect()
				.build(HttpClientSettings.defaults().withTimeouts(connectTimeout, readTimeout));
		}

	}

	/**
	 * Health of the ID servers, contributor {@code idServers}.
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(name = "org.springframework.boot.health.contributor.HealthIndicator")
	static class HealthConfiguration {

		@Bean
		@ConditionalOnMissingBean(name = "idServersHealthIndicator")
		IdServersHealthIndicator idServersHealthIndicator(IdServerStatuses servers) {
			return new IdServersHealthIndicator(servers);
		}

	}

	/**
	 * Meters of the calls to the ID servers.
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(name = "io.micrometer.core.instrument.binder.MeterBinder")
	static class MetricsConfiguration {

		@Bean
		@ConditionalOnMissingBean
		IdServerMetrics idServerMetrics(IdServerStatuses servers) {
			return new IdServerMetrics(servers);
		}

	}

}
