package io.idstarter.sample.admin;

import java.util.concurrent.ConcurrentHashMap;

import io.idstarter.sample.IdServerProperties;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.stereotype.Component;

/**
 * Limits failed logins per client address: after {@code id-server.login.max-failures} failures, each less than
 * {@code id-server.login.ban-time} after the one before, the address is refused without its credentials being
 * checked until the ban time has passed since its latest failure. Credentials are checked only for addresses that are
 * not refused, so a guessing client costs at most that many password checks per ban time. Failures and bans are
 * logged.
 */
@Component
public class LoginThrottle {

	private static final Logger logger = LoggerFactory.getLogger(LoginThrottle.class);

	/** Addresses tracked before stale ones are swept. */
	private static final int SWEEP_ABOVE = 10_000;

	private final int maxFailures;

	private final long banNanos;

	/** Failures per address; an entry older than the ban time counts as none, and is swept. */
	private final ConcurrentHashMap<String, Failures> failures = new ConcurrentHashMap<>();

	public LoginThrottle(IdServerProperties properties) {
		this.maxFailures = properties.getLogin().getMaxFailures();
		this.banNanos = properties.getLogin().getBanTime().toNanos();
	}

	/**
	 * Returns how long an address is still refused.
	 * @param address the client's address
	 * @return whole seconds until its ban ends, or 0 if it may log in
	 */
	public long refusedForSeconds(String address) {
		Failures current = this.failures.get(address);
		if (current == null || current.count < this.maxFailures) {
			return 0;
		}
		long left = this.banNanos - (System.nanoTime() - current.lastNanos);
		return (left <= 0) ? 0 : Math.max(1, (left + 999_999_999L) / 1_000_000_000L);
	}

	/**
	 * Records a failed login and logs it.
	 * @param address the client's address
	 * @param user the user name it tried, if any
	 * @param path the path it asked for
	 */
	public void failed(String address, String user, String path) {
		long now = System.nanoTime();
		Failures updated = this.failures.compute(address, (key, previous) -> {
			int count = (previous == null || now - previous.lastNanos > this.banNanos) ? 1 : previous.count + 1;
			return new Failures(count, now);
		});
		if (updated.count < this.maxFailures) {
			logger.warn("Failed login from {} as '{}' on {} ({} of {} before a ban)", address, user, path,
					updated.count, this.maxFailures);
		}
		else if (updated.count == this.maxFailures) {
			logger.warn("Failed login from {} as '{}' on {}: {} failures, address refused for {}s", address, user,
					path, updated.count, this.banNanos / 1_000_000_000L);
		}
		if (this.failures.size() > SWEEP_ABOVE) {
			this.failures.values().removeIf((entry) -> now - entry.lastNanos > this.banNanos);
		}
	}

	private record Failures(int count, long lastNanos) {
	}

}
