package io.idstarter.sample.admin;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import io.idstarter.sample.IdServerProperties;
import io.idstarter.sample.web.LogSafe;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

/**
 * Limits failed logins per client address and login: after {@code id-server.login.max-failures} failures, each less
 * than {@code id-server.login.ban-time} after the one before, that login from that address is refused without its
 * credentials being checked until the ban time has passed since its latest failure. Credentials are checked only for
 * logins that are not refused, so a guessing client costs at most that many password checks per ban time and
 * login; and a ban of one login (the admin user, guessed at from a shared NAT address) leaves the other logins from
 * that address (the fleet clients behind the same NAT) alone. Bans are logged as they happen, failures as a count
 * once a minute: a guessing storm writes a line a minute, not a line a guess.
 */
@Component
public class LoginThrottle {

	private static final Logger logger = LoggerFactory.getLogger(LoginThrottle.class);

	/** Addresses tracked before stale ones are swept. */
	private static final int SWEEP_ABOVE = 10_000;

	private final int maxFailures;

	private final long banNanos;

	/** Failures per address and login; an entry older than the ban time counts as none, and is swept. */
	private final ConcurrentHashMap<Attempt, Failures> failures = new ConcurrentHashMap<>();

	/** Failed logins since the latest summary line; reset by each summary. */
	private final AtomicLong failedSinceSummary = new AtomicLong();

	/** Bans since the latest summary line; reset by each summary. */
	private final AtomicLong bansSinceSummary = new AtomicLong();

	public LoginThrottle(IdServerProperties properties) {
		this.maxFailures = properties.getLogin().getMaxFailures();
		this.banNanos = properties.getLogin().getBanTime().toNanos();
	}

	/**
	 * Returns how long a login from an address is still refused.
	 * @param address the client's address
	 * @param login what it logs in as: a user or client name, or the placeholder for names nobody has
	 * @return whole seconds until its ban ends, or 0 if it may log in
	 */
	public long refusedForSeconds(String address, String login) {
		Failures current = this.failures.get(new Attempt(address, login));
		if (current == null || current.count < this.maxFailures) {
			return 0;
		}
		long left = this.banNanos - (System.nanoTime() - current.lastNanos);
		return (left <= 0) ? 0 : Math.max(1, (left + 999_999_999L) / 1_000_000_000L);
	}

	/**
	 * Records a failed login; logs it only when it bans the login at that address.
	 * @param address the client's address
	 * @param login what it logs in as: a user or client name, or the placeholder for names nobody has
	 * @param path the path it asked for
	 */
	public void failed(String address, String login, String path) {
		long now = System.nanoTime();
		Failures updated = this.failures.compute(new Attempt(address, login), (key, previous) -> {
			int count = (previous == null || now - previous.lastNanos > this.banNanos) ? 1 : previous.count + 1;
			return new Failures(count, now);
		});
		this.failedSinceSummary.incrementAndGet();
		if (updated.count == this.maxFailures) {
			this.bansSinceSummary.incrementAndGet();
			logger.warn("{} failed logins from {} as {} (latest on {}): refused for {}s", updated.count,
					LogSafe.escape(address), LogSafe.escape(login), LogSafe.escape(path),
					this.banNanos / 1_000_000_000L);
		}
		else if (logger.isDebugEnabled()) {
			logger.debug("Failed login from {} as {} on {} ({} of {} before a ban)", LogSafe.escape(address),
					LogSafe.escape(login), LogSafe.escape(path), updated.count, this.maxFailures);
		}
		if (this.failures.size() > SWEEP_ABOVE) {
			this.failures.values().removeIf((entry) -> now - entry.lastNanos > this.banNanos);
		}
	}

	/**
	 * Logs how many logins failed, and how many bans they caused, since the previous summary; nothing when none
	 * failed.
	 */
	@Scheduled(fixedDelay = 60_000, initialDelay = 60_000)
	public void logSummary() {
		long failed = this.failedSinceSummary.getAndSet(0);
		long bans = this.bansSinceSummary.getAndSet(0);
		if (failed > 0) {
			logger.warn("{} failed logins in the latest minute, {} of them starting a ban; {} address and login "
					+ "pairs tracked", failed, bans, this.failures.size());
		}
	}

	/** A login from an address: what failures are counted and bans are held against. */
	private record Attempt(String address, String login) {
	}

	private record Failures(int count, long lastNanos) {
	}

}
