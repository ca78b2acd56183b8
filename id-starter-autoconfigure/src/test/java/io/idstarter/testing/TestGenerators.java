package io.idstarter.testing;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import io.idstarter.IdWorkerListener;
import io.idstarter.lease.InMemoryLeaseStore;
import io.idstarter.lease.LeaseSettings;
import io.idstarter.lease.WorkerLeaseKeeper;
import io.idstarter.segment.InMemorySegmentStore;
import io.idstarter.segment.SegmentIdGenerator;
import io.idstarter.segment.SegmentOptions;
import io.idstarter.snowflake.ClockBackwardsPolicy;
import io.idstarter.snowflake.SnowflakeIdGenerator;
import io.idstarter.snowflake.SnowflakeLayout;
import io.idstarter.snowflake.WorkerGrant;
import io.idstarter.time.ManualTimeSource;
import io.idstarter.time.TimeSource;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Generator beans as the {@code @EnableIdWorker} wiring creates them: concrete types, each given every
 * {@link IdWorkerListener} bean.
 */
public final class TestGenerators {

	/** Worker ID of the Snowflake generator. */
	public static final int WORKER_ID = 3;

	/** Worker IDs of the layout of {@link LeasedSnowflake}. */
	public static final int LEASED_WORKER_IDS = 2;

	/** Lease namespace of {@link LeasedSnowflake}. */
	public static final String NAMESPACE = "test";

	/** Segment key with step 100 from 1, the default key. */
	public static final String ORDER = "order";

	/** Segment key with step 10 from 1000. */
	public static final String INVOICE = "invoice";

	private TestGenerators() {
	}

	/**
	 * Returns one listener that passes every event to all listener beans, as the wiring does.
	 * @param listeners the listener beans
	 * @return the listener
	 */
	public static IdWorkerListener composite(ObjectProvider<IdWorkerListener> listeners) {
		List<IdWorkerListener> all = listeners.orderedStream().toList();
		return new IdWorkerListener() {

			@Override
			public void storeCall(String key, String operation, long nanos, boolean success) {
				all.forEach((listener) -> listener.storeCall(key, operation, nanos, success));
			}

			@Override
			public void segmentWait(String key, long nanos, boolean served) {
				all.forEach((listener) -> listener.segmentWait(key, nanos, served));
			}

			@Override
			public void clockMovedBackwards(long offsetMillis, String action) {
				all.forEach((listener) -> listener.clockMovedBackwards(offsetMillis, action));
			}

		};
	}

	/**
	 * A Snowflake generator on a manual clock, granted {@link #WORKER_ID}; when the clock is more than 5 ms behind it
	 * issues from the last timestamp (no wait: a manual clock would never catch up).
	 */
	@Configuration(proxyBeanMethods = false)
	public static class Snowflake {

		@Bean
		ManualTimeSource snowflakeTime() {
			return new ManualTimeSource(Instant.parse("2026-11-21T10:00:00Z"));
		}

		@Bean
		SnowflakeIdGenerator snowflakeIdGenerator(ManualTimeSource snowflakeTime,
				ObjectProvider<IdWorkerListener> listeners) {
			SnowflakeIdGenerator generator = new SnowflakeIdGenerator(SnowflakeLayout.defaults(), snowflakeTime,
					ClockBackwardsPolicy.tolerate(Duration.ofMillis(5)), composite(listeners));
			generator.grant(WorkerGrant.fixed(WORKER_ID));
			return generator;
		}

	}

	/**
	 * A Snowflake generator on the system clock whose worker ID is leased from an {@link InMemoryLeaseStore}
	 * with a short TTL (1 s), so that an outage of the store loses the lease within a second. Its layout has two
	 * worker IDs ({@link #LEASED_WORKER_IDS}), so that other nodes can take them all.
	 */
	@Configuration(proxyBeanMethods = false)
	public static class LeasedSnowflake {

		@Bean
		StoreClock storeClock() {
			return new StoreClock();
		}

		@Bean
		InMemoryLeaseStore sequenceManager(StoreClock storeClock) {
			return new InMemoryLeaseStore(storeClock);
		}

		@Bean
		SnowflakeIdGenerator snowflakeIdGenerator(ObjectProvider<IdWorkerListener> listeners) {
			SnowflakeLayout layout = SnowflakeLayout.of(SnowflakeLayout.DEFAULT_EPOCH, 41, 1, 21);
			return new SnowflakeIdGenerator(layout, TimeSource.system(), ClockBackwardsPolicy.defaults(),
					composite(listeners));
		}

		@Bean(initMethod = "start", destroyMethod = "close")
		WorkerLeaseKeeper workerLeaseKeeper(InMemoryLeaseStore sequenceManager, SnowflakeIdGenerator generator,
				ObjectProvider<IdWorkerListener> listeners) {
			LeaseSettings settings = LeaseSettings.builder()
				.namespace(NAMESPACE)
				.ttl(Duration.ofSeconds(1))
				.heartbeat(Duration.ofMillis(200))
				.safetyMargin(Duration.ofMillis(300))
				.build();
			return new WorkerLeaseKeeper(sequenceManager, generator, settings, TimeSource.system(),
					composite(listeners));
		}

	}

	/**
	 * The lease store's clock: the system clock, shifted by an offset that a test can change.
	 */
	public static final class StoreClock implements TimeSource {

		private final AtomicLong offsetMillis = new AtomicLong();

		/**
		 * Sets how far the store's clock is ahead of this node's.
		 * @param offset the offset, negative for behind
		 */
		public void setOffset(Duration offset) {
			this.offsetMillis.set(offset.toMillis());
		}

		@Override
		public long currentTimeMillis() {
			return System.currentTimeMillis() + this.offsetMillis.get();
		}

		@Override
		public long nanoTime() {
			return System.nanoTime();
		}

	}

	/**
	 * A segment generator on an in-memory store with the keys {@link #ORDER} and {@link #INVOICE}.
	 */
	@Configuration(proxyBeanMethods = false)
	public static class Segments {

		@Bean
		InMemorySegmentStore segmentStore() {
			InMemorySegmentStore store = new InMemorySegmentStore();
			store.createKey(ORDER, 1, 100, "orders");
			store.createKey(INVOICE, 1000, 10, "invoices");
			return store;
		}

		@Bean(initMethod = "start")
		SegmentIdGenerator segmentIdGenerator(InMemorySegmentStore store, ObjectProvider<IdWorkerListener> listeners) {
			// Refusal only: tests of a store that lost writes see the key stay refused or missing until they fix it.
			SegmentOptions options = SegmentOptions.builder()
				.defaultKey(ORDER)
				.maxWait(Duration.ofMillis(500))
				.healForward(false)
				.build();
			return new SegmentIdGenerator(store, options, TimeSource.system(), composite(listeners), null);
		}

	}

}
