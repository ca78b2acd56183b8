package io.idstarter.sample.fleet;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Ranges per second per client, with a burst of one second's worth (the generic cell rate algorithm): lock-free, one
 * compare-and-set per range.
 */
final class RangeRate {

	private static final long SECOND = 1_000_000_000L;

	/** Per client: the nanoTime at which its allowance is used up; only moves by compare-and-set. */
	private final ConcurrentHashMap<String, AtomicLong> usedUpAt = new ConcurrentHashMap<>();

	/**
	 * Takes one range of the client's allowance.
	 * @param client the client
	 * @param perSecond its ranges per second
	 * @throws FleetRefusedException (429) if its allowance is used up
	 */
	void acquire(String client, int perSecond) {
		long interval = SECOND / perSecond;
		AtomicLong usedUp = this.usedUpAt.computeIfAbsent(client, (name) -> new AtomicLong(System.nanoTime()));
		while (true) {
			long now = System.nanoTime();
			long current = usedUp.get();
			long next = Math.max(current - now, 0) + now + interval;
			if (next - now > SECOND) {
				throw FleetRefusedException.overQuota(client, "drew " + perSecond + " ranges in the last second, its "
						+ "quota (max-ranges-per-second); draw larger ranges or try again in a second");
			}
			if (usedUp.compareAndSet(current, next)) {
				return;
			}
		}
	}

}
