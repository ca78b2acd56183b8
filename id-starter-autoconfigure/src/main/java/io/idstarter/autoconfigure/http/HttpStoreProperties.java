package io.idstarter.autoconfigure.http;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Client mode settings, under {@code id-worker.http}: segment ranges and worker IDs taken from ID servers over HTTP
 * ({@code id-worker.segment.store=http}, {@code IdWorkerMode.HTTP}); bound only when one of them is selected, and
 * checked when the client is built from them.
 *
 * @since 0.1.0
 */
@ConfigurationProperties(prefix = "id-worker.http", ignoreUnknownFields = false)
public class HttpStoreProperties {

	/**
	 * Base URLs of the ID servers, which share one store. Each instance starts on a random one and moves to the
	 * next when a call fails.
	 */
	private List<URI> servers = new ArrayList<>();

	/**
	 * Connect timeout of a call to an ID server.
	 */
	private Duration connectTimeout = Duration.ofSeconds(1);

	/**
	 * Read timeout of a call to an ID server; a server that does not answer within it counts as failed and the
	 * call moves to the next server.
	 */
	private Duration readTimeout = Duration.ofSeconds(3);

	/**
	 * Whether each instance starts on a server picked at random, spreading a fleet's calls over the servers;
	 * when false, every instance starts on the first listed and moves on only when it fails (a primary with
	 * stand-bys).
	 */
	private boolean spreadLoad = true;

	/**
	 * Bearer token of this client, as configured in the servers' id-server.clients.
	 */
	private @Nullable String token;

	/**
	 * HTTP Basic user name of this client (its name in the servers' id-server.clients); used with the password
	 * when no token is set.
	 */
	private @Nullable String username;

	/**
	 * HTTP Basic password of this client.
	 */
	private @Nullable String password;

	private final Retry retry = new Retry();

	public List<URI> getServers() {
		return this.servers;
	}

	public void setServers(List<URI> servers) {
		this.servers = servers;
	}

	public Duration getConnectTimeout() {
		return this.connectTimeout;
	}

	public void setConnectTimeout(Duration connectTimeout) {
		this.connectTimeout = connectTimeout;
	}

	public Duration getReadTimeout() {
		return this.readTimeout;
	}

	public boolean isSpreadLoad() {
		return this.spreadLoad;
	}

	public void setSpreadLoad(boolean spreadLoad) {
		this.spreadLoad = spreadLoad;
	}

	public void setReadTimeout(Duration readTimeout) {
		this.readTimeout = readTimeout;
	}

	public @Nullable String getToken() {
		return this.token;
	}

	public void setToken(@Nullable String token) {
		this.token = token;
	}

	public @Nullable String getUsername() {
		return this.username;
	}

	public void setUsername(@Nullable String username) {
		this.username = username;
	}

	public @Nullable String getPassword() {
		return this.password;
	}

	public void setPassword(@Nullable String password) {
		this.password = password;
	}

	public Retry getRetry() {
		return this.retry;
	}

	/**
	 * Retries of a call to the ID servers.
	 */
	public static class Retry {

		/**
		 * Attempts per call in all, over the servers in turn.
		 */
		private int maxAttempts = 4;

		/**
		 * Wait before going round the servers a second time; doubled each further round, with random jitter.
		 */
		private Duration initialBackoff = Duration.ofMillis(100);

		/**
		 * Longest wait between rounds.
		 */
		private Duration maxBackoff = Duration.ofSeconds(2);

		public int getMaxAttempts() {
			return this.maxAttempts;
		}

		public void setMaxAttempts(int maxAttempts) {
			this.maxAttempts = maxAttempts;
		}

		public Duration getInitialBackoff() {
			return this.initialBackoff;
		}

		public void setInitialBackoff(Duration initialBackoff) {
			this.initialBackoff = initialBackoff;
		}

		public Duration getMaxBackoff() {
			return this.maxBackoff;
		}

		public void setMaxBackoff(Duration maxBackoff) {
			this.maxBackoff = maxBackoff;
		}

	}

}
