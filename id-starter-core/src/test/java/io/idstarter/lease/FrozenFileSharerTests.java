package io.idstarter.lease;

import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;

import io.idstarter.IdWorkerListener;
import io.idstarter.lease.LeaseStatus.State;
import io.idstarter.local.LocalFileLock;
import io.idstarter.local.LocalFileLockTimeoutException;
import io.idstarter.local.OtherProcessLock;
import io.idstarter.snowflake.ClockBackwardsPolicy;
import io.idstarter.snowflake.SnowflakeIdGenerator;
import io.idstarter.snowflake.SnowflakeLayout;
import io.idstarter.snowflake.WorkerIdUnavailableException;
import io.idstarter.time.ManualTimeSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.Timeout.ThreadMode;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * A lease keeper whose cache file is shared with another process that holds the slot marks file's lock and never
 * lets go (frozen, stuck): the keeper neither hangs nor issues under a ceiling the file does not hold, and recovers
 * once the other process lets go.
 */
@Timeout(value = 120, threadMode = ThreadMode.SEPARATE_THREAD)
class FrozenFileSharerTests {

	private static final Instant START = Instant.parse("2026-01-01T00:00:00Z");

	/** Two worker IDs: 0 and 1. */
	private static final SnowflakeLayout TWO_WORKERS = SnowflakeLayout.of(SnowflakeLayout.DEFAULT_EPOCH, 50, 1, 12);

	private static final Duration TTL = Duration.ofSeconds(60);

	private static final Duration HEARTBEAT = Duration.ofSeconds(20);

	private static final Duration SAFETY_MARGIN = Duration.ofSeconds(5);

	/** Longest a blocked file write may hold the keeper: the lock's wait and some slack. */
	private static final Duration BOUND = LocalFileLock.DEFAULT_TIMEOUT.plusSeconds(5);

	private final String namespace = "test-" + UUID.randomUUID();

	private final ManualTimeSource clock = new ManualTimeSource(START);

	private final InMemoryLeaseStore store = new InMemoryLeaseStore(this.clock);

	private final SnowflakeIdGenerator generator = new SnowflakeIdGenerator(TWO_WORKERS, this.clock,
			ClockBackwardsPolicy.defaults(), IdWorkerListener.NONE);

	@TempDir
	Path directory;

	private WorkerLeaseKeeper keeper;

	@AfterEach
	void close() {
		if (this.keeper != null) {
			this.keeper.close();
		}
	}

	private Path cacheFile() {
		return this.directory.resolve("worker-id");
	}

	private WorkerLeaseKeeper keeper(SnowflakeIdGenerator generator) {
		LeaseSettings settings = LeaseSettings.builder()
			.namespace(this.namespace)
			.ttl(TTL)
			.heartbeat(HEARTBEAT)
			.safetyMargin(SAFETY_MARGIN)
			.instance("node-a")
			.cacheFile(cacheFile())
			.build();
		return new WorkerLeaseKeeper(this.store, generator, settings, this.clock, IdWorkerListener.NONE);
	}

	private WorkerSlotMarks marks() {
		return WorkerSlotMarks.besideCacheFile(cacheFile());
	}

	@Test
	void startWhileAnotherProcessHoldsTheMarksLockFailsWithinTheWaitAndGivesTheSlotBack() throws Exception {
		this.keeper = keeper(this.generator);
		try (OtherProcessLock frozen = OtherProcessLock.hold(marks().file())) {
			long started = System.nanoTime();
			assertThatExceptionOfType(UncheckedIOException.class).isThrownBy(() -> this.keeper.startLease(false))
				.withMessageContaining("no ID is issued under it")
				.withMessageContaining(marks().file().toString())
				.withMessageContaining("another process holds")
				.withCauseInstanceOf(LocalFileLockTimeoutException.class);
			assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(BOUND);
			assertThatExceptionOfType(WorkerIdUnavailableException.class).isThrownBy(this.generator::nextId);
			assertThat(this.store.holder(this.namespace, 0)).as("slot 0 given back").isEmpty();
		}
		this.keeper.startLease(false);
		assertThat(this.keeper.status().state()).isEqualTo(State.ACTIVE);
		long id = this.generator.nextId();
		assertThat(marks().known(this.namespace, this.keeper.status().workerId()))
			.isGreaterThanOrEqualTo(this.generator.parse(id).timestamp().toEpochMilli());
	}

	@Test
	void renewalWhileAnotherProcessHoldsTheMarksLockIssuesNothingAboveTheRecordedMarkAndRecovers() throws Exception {
		this.keeper = keeper(this.generator);
		this.keeper.startLease(false);
		int workerId = this.keeper.status().workerId();
		long recorded = marks().known(this.namespace, workerId);
		try (OtherProcessLock frozen = OtherProcessLock.hold(marks().file())) {
			this.clock.advance(HEARTBEAT);
			long started = System.nanoTime();
			this.keeper.heartbeat();
			assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(BOUND);
			assertThat(this.keeper.status().state()).isEqualTo(State.RENEWAL_FAILING);
			// The grant in force is the one whose ceiling is on disk.
			assertThat(this.generator.parse(this.generator.nextId()).timestamp().toEpochMilli())
				.isLessThanOrEqualTo(recorded);
			this.clock.advance(TTL.minus(SAFETY_MARGIN).minus(HEARTBEAT));
			assertThatExceptionOfType(WorkerIdUnavailableException.class).isThrownBy(this.generator::nextId)
				.withMessageContaining("another process holds");
			this.keeper.heartbeat();
			assertThatExceptionOfType(WorkerIdUnavailableException.class).isThrownBy(this.generator::nextId);
			assertThat(marks().known(this.namespace, workerId)).isEqualTo(recorded);
		}
		this.keeper.heartbeat();
		assertThat(this.keeper.status().state()).isEqualTo(State.ACTIVE);
		long id = this.generator.nextId();
		assertThat(this.generator.parse(id).workerId()).isEqualTo(workerId);
		assertThat(marks().known(this.namespace, workerId)).isGreaterThan(recorded)
			.isGreaterThanOrEqualTo(this.generator.parse(id).timestamp().toEpochMilli());
	}

	@Test
	void closeWhileAnotherProcessHoldsTheMarksLockLeavesTheStoreAtTheMarkOnDisk() throws Exception {
		this.keeper = keeper(this.generator);
		this.keeper.startLease(false);
		int workerId = this.keeper.status().workerId();
		this.generator.nextId();
		try (OtherProcessLock frozen = OtherProcessLock.hold(marks().file())) {
			long started = System.nanoTime();
			this.keeper.close();
			assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(BOUND);
		}
		assertThat(this.store.holder(this.namespace, workerId)).as("slot given back").isEmpty();
		assertThat(this.store.highWaterMark(this.namespace, workerId))
			.isGreaterThanOrEqualTo(marks().known(this.namespace, workerId));
		// The same node starts again on its slot, once its clock has passed the ceiling the store now holds: the
		// store is not taken for one that lost writes.
		this.clock.advance(TTL.multipliedBy(3));
		SnowflakeIdGenerator restarted = new SnowflakeIdGenerator(TWO_WORKERS, this.clock,
				ClockBackwardsPolicy.defaults(), IdWorkerListener.NONE);
		this.keeper = keeper(restarted);
		this.keeper.startLease(false);
		assertThat(this.keeper.status().workerId()).isEqualTo(workerId);
		restarted.nextId();
	}

}
