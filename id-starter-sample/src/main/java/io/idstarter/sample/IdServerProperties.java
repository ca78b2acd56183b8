package io.idstarter.sample;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
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

	private final Fleet fleet = new Fleet();

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

	public Fleet getFleet() {
		return this.fleet;
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
		Map<String, String> tokenOwners = new HashMap<>();
		for (int i = 0; i < this.clients.size(); i++) {
			this.clients.get(i).validate("id-server.clients[" + i + "]", clientNames, tokenOwners);
		}
		this.fleet.validate();
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

		/**
		 * Worker-lease namespaces the client may borrow, renew and release worker IDs in: exact names, or a prefix
		 * followed by '*'. None by default; the server's own namespace can never be granted.
		 */
		private List<String> namespaces = new ArrayList<>();

		/**
		 * Segment keys the client may list and draw ranges of: exact names, or a prefix followed by '*'. None by
		 * default.
		 */
		private List<String> segmentKeys = new ArrayList<>();

		/**
		 * Most worker IDs the client may hold at once through this server; a borrow beyond is refused with 429.
		 */
		private int maxLeases = 128;

		/**
		 * Most ranges the client may draw per second from this server (and as a burst); more are refused with 429.
		 */
		private int maxRangesPerSecond = 100;

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

		public List<String> getNamespaces() {
			return this.namespaces;
		}

		public void setNamespaces(List<String> namespaces) {
			this.namespaces = namespaces;
		}

		public List<String> getSegmentKeys() {
			return this.segmentKeys;
		}

		public void setSegmentKeys(List<String> segmentKeys) {
			this.segmentKeys = segmentKeys;
		}

		public int getMaxLeases() {
			return this.maxLeases;
		}

		public void setMaxLeases(int maxLeases) {
			this.maxLeases = maxLeases;
		}

		public int getMaxRangesPerSecond() {
			return this.maxRangesPerSecond;
		}

		public void setMaxRangesPerSecond(int maxRangesPerSecond) {
			this.maxRangesPerSecond = maxRangesPerSecond;
		}

		void validate(String property, Set<String> names, Map<String, String> tokenOwners) {
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
			if (this.token != null) {
				String other = tokenOwners.putIfAbsent(HexFormat.of().formatHex(digest(this.token)), this.name);
				if (other != null) {
					throw new InvalidConfigurationPropertyValueException(property + ".token", "(hidden)",
							"is also the token of client '" + other + "': a token must name one client; give each "
									+ "client a token of its own");
				}
			}
			checkGrants(property + ".namespaces", this.namespaces);
			checkGrants(property + ".segment-keys", this.segmentKeys);
			if (this.maxLeases < 1) {
				throw new InvalidConfigurationPropertyValueException(property + ".max-leases", this.maxLeases,
						"must be at least 1");
			}
			if (this.maxRangesPerSecond < 1) {
				throw new InvalidConfigurationPropertyValueException(property + ".max-ranges-per-second",
						this.maxRangesPerSecond, "must be at least 1");
			}
		}

		private static void checkSecret(String property, @Nullable String secret) {
			if (secret == null) {
				return;
			}
			if (secret.startsWith(SHA256_PREFIX)) {
				if (!secret.substring(SHA256_PREFIX.length()).trim().matches("[0-9a-fA-F]{64}")) {
					throw new InvalidConfigurationPropertyValueException(property, "(hidden)",
							"must be " + SHA256_PREFIX + " followed by the 64 hex digits of the secret's SHA-256 "
									+ "digest (for example the output of: printf %s \"$SECRET\" | sha256sum)");
				}
				return;
			}
			if (secret.length() < MIN_SECRET_LENGTH) {
				throw new InvalidConfigurationPropertyValueException(property, "(hidden)",
						"must be at least " + MIN_SECRET_LENGTH + " characters");
			}
		}

		private static void checkGrants(String property, List<String> grants) {
			for (int i = 0; i < grants.size(); i++) {
				String grant = grants.get(i);
				String name = grant.endsWith("*") ? grant.substring(0, grant.length() - 1) : grant;
				if (!StringUtils.hasText(grant) || name.length() > MAX_GRANT_LENGTH || name.contains("*")) {
					throw new InvalidConfigurationPropertyValueException(property + "[" + i + "]", grant,
							"must be a name of 1 to " + MAX_GRANT_LENGTH + " characters, or a prefix followed by "
									+ "'*'; '*' elsewhere is not allowed");
				}
			}
		}

	}

	/**
	 * Returns the SHA-256 digest of a client secret given in plain text or as {sha256} and its hex digest.
	 * @param secret the configured secret
	 * @return the 32 bytes of the digest
	 */
	public static byte[] digest(String secret) {
		if (secret.startsWith(SHA256_PREFIX)) {
			return HexFormat.of().parseHex(secret.substring(SHA256_PREFIX.length()).trim());
		}
		try {
			return MessageDigest.getInstance("SHA-256").digest(secret.getBytes(StandardCharsets.UTF_8));
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException("SHA-256 is missing from this JVM", ex);
		}
	}

	/**
	 * What fleet clients may ask of this server's lease store, whichever client asks.
	 */
	public static class Fleet {

		/**
		 * Greatest worker ID of every lease namespace served to fleet clients: a borrow asking for more is refused,
		 * one asking for less borrows within its own range.
		 */
		private int maxWorkerId = 1023;

		/**
		 * How far a client's timestamp ceiling may lie beyond this server's clock plus the lease TTL: covers the
		 * clients' and the server's clock offsets to the store. A ceiling beyond is refused.
		 */
		private Duration clockAllowance = Duration.ofSeconds(10);

		/**
		 * Whether fleet clients may give back the unused tail of their ranges at a graceful close, so that a client
		 * restarted after one continues where it stopped. The server cannot check a client's cursor: a client granted
		 * a key could give back numbers it already issued, which other clients of the key would then issue again.
		 * Turn it off where clients granted a key are not trusted with its uniqueness; their tails then stay gaps.
		 */
		private boolean giveBack = true;

		public int getMaxWorkerId() {
			return this.maxWorkerId;
		}

		public void setMaxWorkerId(int maxWorkerId) {
			this.maxWorkerId = maxWorkerId;
		}

		public Duration getClockAllowance() {
			return this.clockAllowance;
		}

		public void setClockAllowance(Duration clockAllowance) {
			this.clockAllowance = clockAllowance;
		}

		public boolean isGiveBack() {
			return this.giveBack;
		}

		public void setGiveBack(boolean giveBack) {
			this.giveBack = giveBack;
		}

		void validate() {
			if (this.maxWorkerId < 0 || this.maxWorkerId > MAX_FLEET_WORKER_ID) {
				throw new InvalidConfigurationPropertyValueException("id-server.fleet.max-worker-id", this.maxWorkerId,
						"must be between 0 and " + MAX_FLEET_WORKER_ID);
			}
			if (this.clockAllowance.isNegative()) {
				throw new InvalidConfigurationPropertyValueException("id-server.fleet.clock-allowance",
						this.clockAllowance, "must not be negative");
			}
		}

	}

	/** Greatest worker ID a fleet namespace may have: 16 worker bits. */
	static final int MAX_FLEET_WORKER_ID = 65_535;

	/** Longest granted namespace or key name, as stores accept them. */
	static final int MAX_GRANT_LENGTH = 128;

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
