package io.idstarter.sample;

import java.nio.file.Path;
import java.time.Duration;

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

	private final Batch batch = new Batch();

	private final Admin admin = new Admin();

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

	public Batch getBatch() {
		return this.batch;
	}

	public Admin getAdmin() {
		return this.admin;
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
		int maxCount = this.batch.getMaxCount();
		if (maxCount < 1 || maxCount > MAX_BATCH_LIMIT) {
			throw new InvalidConfigurationPropertyValueException("id-server.batch.max-count", maxCount,
					"must be between 1 and " + MAX_BATCH_LIMIT);
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

}
