package io.idstarter.sample;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.InitializingBean;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.util.StringUtils;

/**
 * Settings of the ID server, under {@code id-server}. Checked when bound: a bad value fails the start with the
 * property, its value and the rule.
 */
@ConfigurationProperties("id-server")
public class IdServerProperties implements InitializingBean {

	/** Largest batch size a server may be configured to allow. */
	static final int MAX_BATCH_LIMIT = 1_000_000;

	/**
	 * Directory of the embedded H2 database and the worker-ID cache file, relative to the working directory unless
	 * absolute.
	 */
	private Path dataDir = Path.of("data");

	/**
	 * Value of the Retry-After header on 503 answers (store down, worker lease lost), rounded up to whole seconds.
	 */
	private Duration retryAfter = Duration.ofSeconds(1);

	/**
	 * Longest time the whole body of a fleet or admin request may take to arrive; a slower one is answered 408 and
	 * its connection closed.
	 */
	private Duration bodyReadTimeout = Duration.ofSeconds(5);

	private final Batch batch = new Batch();

	private final Admin admin = new Admin();

	/**
	 * Clients allowed to draw segment ranges and lease worker IDs through /api/fleet, each with a bearer token or an
	 * HTTP Basic password. Without any, the fleet API refuses every request.
	 */
	private List<Client> clients = new ArrayList<>();

	private final Login login = new Login();

	public Path getDataDir() {
		return this.dataDir;
	}

	public void setDataDir(Path dataDir) {
		this.dataDir = dataDir;
	}

	public Duration getRetryAfter() {
		return this.retryAfter;
	}

	public void setRetryAfter(Duration retryAfter) {
		this.retryAfter = retryAfter;
	}

	public Duration getBodyReadTimeout() {
		return this.bodyReadTimeout;
	}

	public void setBodyReadTimeout(Duration bodyReadTimeout) {
		this.bodyReadTimeout = bodyReadTimeout;
	}

	public Batch getBatch() {
		return this.batch;
	}

	public Admin getAdmin() {
		return this.admin;
	}

	public List<Client> getClients() {
		return this.clients;
	}

	public void setClients(List<Client> clients) {
		this.clients = clients;
	}

	public Login getLogin() {
		return this.login;
	}

	@Override
	public void afterPropertiesSet() {
		validate();
	}

	/**
	 * Checks every value and the rules that tie values together.
	 * @throws InvalidConfigurationPropertyValueException naming the first property that breaks a rule
	 */
	public void validate() {
		if (this.retryAfter.isNegative() || this.retryAfter.isZero()) {
			throw new InvalidConfigurationPropertyValueException("id-server.retry-after", this.retryAfter,
					"must be positive");
		}
		if (this.bodyReadTimeout.isNegative() || this.bodyReadTimeout.isZero()) {
			throw new InvalidConfigurationPropertyValueException("id-server.body-read-timeout", this.bodyReadTimeout,
					"must be positive");
		}
		int maxCount = this.batch.getMaxCount();
		if (maxCount < 1 || maxCount > MAX_BATCH_LIMIT) {
			throw new InvalidConfigurationPropertyValueException("id-server.batch.max-count", maxCount,
					"must be between 1 and " + MAX_BATCH_LIMIT);
		}
		Set<String> clientNames = new HashSet<>();
		for (int i = 0; i < this.clients.size(); i++) {
			this.clients.get(i).validate("id-server.clients[" + i + "]", clientNames);
		}
		if (this.login.getMaxFailures() < 1) {
			throw new InvalidConfigurationPropertyValueException("id-server.login.max-failures",
					this.login.getMaxFailures(), "must be at least 1");
		}
		if (this.login.getBanTime().isNegative() || this.login.getBanTime().isZero()) {
			throw new InvalidConfigurationPropertyValueException("id-server.login.ban-time", this.login.getBanTime(),
					"must be positive");
		}
		if (this.login.getPasswordCheckWait().isNegative()) {
			throw new InvalidConfigurationPropertyValueException("id-server.login.password-check-wait",
					this.login.getPasswordCheckWait(), "must not be negative");
		}
		if (this.admin.isEnabled()) {
			if (!StringUtils.hasText(this.admin.getUsername())) {
				throw new InvalidConfigurationPropertyValueException("id-server.admin.username",
						this.admin.getUsername(), "must not be blank when id-server.admin.enabled is true");
			}
			if (!StringUtils.hasText(this.admin.getPassword())) {
				throw new InvalidConfigurationPropertyValueException("id-server.admin.password", "(not set)",
						"must be set when id-server.admin.enabled is true: the admin API changes the key store and "
								+ "is never served without a password; set it (for example through the "
								+ "IDSERVER_ADMIN_PASSWORD environment variable) or turn the admin API off");
			}
		}
	}

	/**
	 * Batch endpoint settings.
	 */
	public static class Batch {

		/**
		 * Largest number of IDs one batch request may ask for.
		 */
		private int maxCount = 10_000;

		public int getMaxCount() {
			return this.maxCount;
		}

		public void setMaxCount(int maxCount) {
			this.maxCount = maxCount;
		}

	}

	/**
	 * Admin API settings: creating keys and changing their step.
	 */
	public static class Admin {

		/**
		 * Whether to serve the admin API under /api/admin; it then requires HTTP Basic authentication.
		 */
		private boolean enabled;

		/**
		 * User name of the admin API.
		 */
		private String username = "admin";

		/**
		 * Password of the admin API; required when it is enabled. Plain text, or encoded with a Spring Security
		 * prefix such as {bcrypt}.
		 */
		private @Nullable String password;

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public String getUsername() {
			return this.username;
		}

		public void setUsername(String username) {
			this.username = username;
		}

		public @Nullable String getPassword() {
			return this.password;
		}

		public void setPassword(@Nullable String password) {
			this.password = password;
		}

	}

	/**
	 * A client of the fleet API (/api/fleet): an application that takes segment ranges and worker IDs from this
	 * server.
	 */
	public static class Client {

		/**
		 * Name of the client: its HTTP Basic user name, and how it is shown on the monitor page and in the log.
		 */
		private @Nullable String name;

		/**
		 * Bearer token the client sends as "Authorization: Bearer <token>"; at least 16 characters. Plain text, or
		 * its SHA-256 digest in hex prefixed with {sha256}.
		 */
		private @Nullable String token;

		/**
		 * HTTP Basic password of the client (user name: the client's name); at least 16 characters. Plain text, or
		 * its SHA-256 digest in hex prefixed with {sha256}.
		 */
		private @Nullable String password;

		public @Nullable String getName() {
			return this.name;
		}

		public void setName(@Nullable String name) {
			this.name = name;
		}

		public @Nullable String getToken() {
			return this.token;
		}

		public void setToken(@Nullable String token) {
			this.token = token;
		}

		public @Nullable String getPassword() {
			return this.password;
		}

		public void setPassword(@Nullable String password) {
			this.password = password;
		}

		void validate(String property, Set<String> names) {
			if (!StringUtils.hasText(this.name) || !this.name.matches("[A-Za-z0-9._-]{1,64}")) {
				throw new InvalidConfigurationPropertyValueException(property + ".name", this.name,
						"must be 1 to 64 letters, digits, '.', '_' or '-'");
			}
			if (!names.add(this.name)) {
				throw new InvalidConfigurationPropertyValueException(property + ".name", this.name,
						"is listed twice in id-server.clients");
			}
			if (this.token == null && this.password == null) {
				throw new InvalidConfigurationPropertyValueException(property + ".token", "(not set)",
						"a client needs a token (bearer) or a password (HTTP Basic)");
			}
			checkSecret(property + ".token", this.token);
			checkSecret(property + ".password", this.password);
		}

		private static void checkSecret(String property, @Nullable String secret) {
			if (secret == null || secret.startsWith(SHA256_PREFIX)) {
				return;
			}
			if (secret.length() < MIN_SECRET_LENGTH) {
				throw new InvalidConfigurationPropertyValueException(property, "(hidden)",
						"must be at least " + MIN_SECRET_LENGTH + " characters");
			}
		}

	}

	/** Prefix of a client secret given as its SHA-256 digest in hex. */
	public static final String SHA256_PREFIX = "{sha256}";

	/** Shortest plain-text client secret. */
	static final int MIN_SECRET_LENGTH = 16;

	/**
	 * Limits on failed logins (admin API and fleet API), per client address and login.
	 */
	public static class Login {

		/**
		 * Failed logins as one user or client from one address after which that login is refused there with 429
		 * without checking its credentials, until the ban time has passed since its latest failure.
		 */
		private int maxFailures = 10;

		/**
		 * How long an address that failed too often is refused, and the window its failures are counted in.
		 */
		private Duration banTime = Duration.ofMinutes(1);

		/**
		 * Longest wait of an admin password check for the checks of other requests to finish (passwords are
		 * bcrypt-checked one at a time); a request whose check could not start in time gets 503, and does not count
		 * as a failed login.
		 */
		private Duration passwordCheckWait = Duration.ofSeconds(2);

		public int getMaxFailures() {
			return this.maxFailures;
		}

		public void setMaxFailures(int maxFailures) {
			this.maxFailures = maxFailures;
		}

		public Duration getBanTime() {
			return this.banTime;
		}

		public void setBanTime(Duration banTime) {
			this.banTime = banTime;
		}

		public Duration getPasswordCheckWait() {
			return this.passwordCheckWait;
		}

		public void setPasswordCheckWait(Duration passwordCheckWait) {
			this.passwordCheckWait = passwordCheckWait;
		}

	}

}
