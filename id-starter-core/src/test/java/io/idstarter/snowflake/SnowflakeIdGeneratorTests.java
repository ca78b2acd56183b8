package io.idstarter.snowflake;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import io.idstarter.IdGenerationException;
import io.idstarter.IdWorkerListener;
import io.idstarter.snowflake.WorkerIdUnavailableException.Reason;
import io.idstarter.time.ManualTimeSource;
import io.idstarter.time.TimeSource;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.assertj.core.api.Assertions.within;

@Timeout(60)
class SnowflakeIdGeneratorTests {

	private static final Instant START = Instant.parse("2026-01-01T00:00:00Z");

	private static final long START_MILLIS = START.toEpochMilli();

	/** How long a caller that should be blocked is watched before the test concludes that it is. */
	private static final long BLOCKED_MILLIS = 100;

	private final ManualTimeSource clock = new ManualTimeSource(START);

	private final RecordingListener listener = new RecordingListener();

	private final ExecutorService executor = Executors.newCachedThreadPool();

	@AfterEach
	void shutdown() {
		this.executor.shutdownNow();
	}

	private SnowflakeIdGenerator generator(ClockBackwardsPolicy policy) {
		SnowflakeIdGenerator generator = new SnowflakeIdGenerator(SnowflakeLayout.defaults(), this.clock, policy,
				this.listener);
		generator.grant(WorkerGrant.fixed(7));
		return generator;
	}

	private <T> Future<T> inOtherThread(java.util.concurrent.Callable<T> call) {
		return this.executor.submit(call);
	}

	private static <T> void assertBlocked(Future<T> future) throws InterruptedException {
		Thread.sleep(BLOCKED_MILLIS);
		assertThat(future).as("caller is still waiting").isNotDone();
	}

	private static <T> T result(Future<T> future) throws Exception {
		return future.get(5, TimeUnit.SECONDS);
	}

	@Test
	void fourThreadsOfAMillionIdsEachGetNoDuplicateAndIncreaseWithinEachThread() throws Exception {
		SnowflakeIdGenerator generator = new SnowflakeIdGenerator(SnowflakeLayout.defaults(), TimeSource.system(),
				ClockBackwardsPolicy.defaults(), IdWorkerListener.NONE);
		generator.grant(WorkerGrant.fixed(1023));
		int threads = 4;
		int perThread = 1_000_000;
		long[][] ids = new long[threads][perThread];
		CountDownLatch go = new CountDownLatch(1);
		List<Future<?>> futures = new ArrayList<>();
		for (int t = 0; t < threads; t++) {
			long[] mine = ids[t];
			futures.add(this.executor.submit(() -> {
				go.await();
				for (int i = 0; i < perThread; i++) {
					mine[i] = generator.nextId();
				}
				return null;
			}));
		}
		go.countDown();
		for (Future<?> future : futures) {
			future.get(60, TimeUnit.SECONDS);
		}
		long[] all = new long[threads * perThread];
		for (int t = 0; t < threads; t++) {
			for (int i = 1; i < perThread; i++) {
				if (ids[t][i] <= ids[t][i - 1]) {
					throw new AssertionError("thread " + t + ": ID " + i + " (" + ids[t][i]
							+ ") is not greater than the one before (" + ids[t][i - 1] + ")");
				}
			}
			System.arraycopy(ids[t], 0, all, t * perThread, perThread);
		}
		Arrays.sort(all);
		assertThat(all[0]).isPositive();
		for (int i = 1; i < all.length; i++) {
			if (all[i] == all[i - 1]) {
				throw new AssertionError("duplicate ID " + all[i] + ": " + generator.parse(all[i]));
			}
		}
		assertThat(generator.parse(all[all.length - 1]).workerId()).isEqualTo(1023);
		assertThat(generator.issuedCount()).isEqualTo(threads * (long) perThread);
		assertThat(generator.lastTimestamp()).isEqualTo(generator.parse(all[all.length - 1]).timestamp().toEpochMilli());
	}

	@Test
	void idsOfOneMillisecondCountUpTheSequence() {
		SnowflakeIdGenerator generator = generator(ClockBackwardsPolicy.defaults());
		assertThat(generator.lastTimestamp()).isEqualTo(-1);
		long first = generator.nextId();
		long second = generator.nextId("any key");
		assertThat(generator.parse(first)).isEqualTo(new SnowflakeId(first, START, 7, 0));
		assertThat(generator.parse(second)).isEqualTo(new SnowflakeId(second, START, 7, 1));
		assertThat(generator.lastTimestamp()).isEqualTo(START_MILLIS);
		this.clock.advanceMillis(3);
		assertThat(generator.parse(generator.nextId()))
			.isEqualTo(new SnowflakeId(second + (3L << 22) - 1, START.plusMillis(3), 7, 0));
	}

	@Test
	void theIdAfterAMillisecondsSequenceIsUsedUpWaitsForTheClockToMove() throws Exception {
		SnowflakeIdGenerator generator = generator(ClockBackwardsPolicy.defaults());
		long last = 0;
		for (int i = 0; i < 4096; i++) {
			long id = generator.nextId();
			assertThat(generator.parse(id).sequence()).isEqualTo(i);
			assertThat(generator.parse(id).timestamp()).isEqualTo(START);
			last = id;
		}
		Future<Long> next = inOtherThread(generator::nextId);
		assertBlocked(next);
		this.clock.advanceMillis(1);
		long id = result(next);
		assertThat(id).isGreaterThan(last);
		assertThat(generator.parse(id)).isEqualTo(new SnowflakeId(id, START.plusMillis(1), 7, 0));
		assertThat(this.listener.events).isEmpty();
	}

	@Test
	void aCallerWaitingForAFrozenWallClockFailsAfterASecondOfMonotonicTime() throws Exception {
		TimeSource frozenWallClock = new TimeSource() {

			@Override
			public long currentTimeMillis() {
				return START_MILLIS;
			}

			@Override
			public long nanoTime() {
				return System.nanoTime();
			}

		};
		SnowflakeIdGenerator generator = new SnowflakeIdGenerator(SnowflakeLayout.defaults(), frozenWallClock,
				ClockBackwardsPolicy.defaults(), this.listener);
		generator.grant(WorkerGrant.fixed(7));
		generator.nextIds("any", 4096);
		Future<Long> next = inOtherThread(generator::nextId);
		assertThat(next).failsWithin(Duration.ofSeconds(10))
			.withThrowableOfType(java.util.concurrent.ExecutionException.class)
			.havingCause()
			.isExactlyInstanceOf(IdGenerationException.class)
			.withMessage("the wall clock has stayed at 2026-01-01T00:00:00Z for more than 1000 ms of monotonic time "
					+ "while that millisecond's 4096 sequence numbers are used up: the wall clock seems frozen; no ID "
					+ "was issued; check this node's clock source (NTP, the hypervisor's clock)");
		assertThat(generator.issuedCount()).isEqualTo(4096);
	}

	@Test
	void aClockStepBackOfOneMillisecondIsWaitedOut() throws Exception {
		SnowflakeIdGenerator generator = generator(ClockBackwardsPolicy.defaults());
		long before = generator.nextId();
		this.clock.stepWallClock(Duration.ofMillis(-1));
		Future<Long> next = inOtherThread(generator::nextId);
		assertBlocked(next);
		this.clock.advanceMillis(1);
		long id = result(next);
		assertThat(id).isEqualTo(before + 1);
		assertThat(generator.parse(id).timestamp()).isEqualTo(START);
		assertThat(this.listener.events).containsExactly("1 waited");
	}

	@Test
	void aStepBackWithinTheBoundFailsWhenTheClockDoesNotMakeItUpInTime() throws Exception {
		SnowflakeIdGenerator generator = generator(ClockBackwardsPolicy.defaults());
		generator.nextId();
		this.clock.stepWallClock(Duration.ofMillis(-3));
		Future<Long> next = inOtherThread(generator::nextId);
		assertBlocked(next);
		// 10 ms pass but the wall clock stays 3 ms behind: it is not catching up
		this.clock.stepWallClock(Duration.ofMillis(-10));
		this.clock.advanceMillis(10);
		assertThat(next).failsWithin(Duration.ofSeconds(5))
			.withThrowableOfType(java.util.concurrent.ExecutionException.class)
			.havingCause()
			.isInstanceOf(ClockMovedBackwardsException.class)
			.withMessageContaining("3 ms behind");
		assertThat(this.listener.events).containsExactly("3 failed");
	}

	@Test
	void aClockStepBackOfTwoSecondsFailsWithTheOffsetUntilTheClockCatchesUp() {
		SnowflakeIdGenerator generator = generator(ClockBackwardsPolicy.defaults());
		long before = generator.nextId();
		this.clock.stepWallClock(Duration.ofSeconds(-2));
		assertThatExceptionOfType(ClockMovedBackwardsException.class).isThrownBy(generator::nextId)
			.withMessageStartingWith("clock moved backwards: it is 2000 ms behind the last ID's timestamp "
					+ "(2026-01-01T00:00:00Z), more than the 5 ms that are waited out")
			.satisfies((ex) -> assertThat(ex.offsetMillis()).isEqualTo(2000));
		this.clock.advanceMillis(1000);
		assertThatExceptionOfType(ClockMovedBackwardsException.class).isThrownBy(generator::nextId)
			.withMessageContaining("1000 ms behind");
		assertThat(this.listener.events).containsExactly("2000 failed", "1000 failed");
		this.clock.advanceMillis(1001);
		long after = generator.nextId();
		assertThat(after).isGreaterThan(before);
		assertThat(generator.parse(after).timestamp()).isEqualTo(START.plusMillis(1));
	}

	@Test
	void theTolerantPolicyKeepsIssuingUniqueIncreasingIdsThroughAStepBack() {
		SnowflakeIdGenerator generator = generator(ClockBackwardsPolicy.tolerate(Duration.ofMillis(5)));
		long[] ids = new long[10_010];
		for (int i = 0; i < 10; i++) {
			ids[i] = generator.nextId();
		}
		this.clock.stepWallClock(Duration.ofSeconds(-2));
		for (int i = 10; i < ids.length; i++) {
			ids[i] = generator.nextId();
		}
		for (int i = 1; i < ids.length; i++) {
			assertThat(ids[i]).isGreaterThan(ids[i - 1]);
		}
		// 10,010 IDs at 4096 per ms: logical time moved on two milliseconds while the clock was behind
		assertThat(generator.parse(ids[ids.length - 1]).timestamp()).isEqualTo(START.plusMillis(2));
		assertThat(generator.parse(ids[4096]).timestamp()).isEqualTo(START.plusMillis(1));
		assertThat(this.listener.events).containsExactly("2000 tolerated");
		this.clock.advance(Duration.ofMillis(2010));
		long caughtUp = generator.nextId();
		assertThat(generator.parse(caughtUp)).isEqualTo(new SnowflakeId(caughtUp, START.plusMillis(10), 7, 0));
	}

	@Test
	void aStepBackWhileWaitingForTheNextMillisecondFails() throws Exception {
		SnowflakeIdGenerator generator = generator(ClockBackwardsPolicy.defaults());
		exhaustMillisecond(generator);
		Future<Long> next = inOtherThread(generator::nextId);
		assertBlocked(next);
		this.clock.stepWallClock(Duration.ofSeconds(-2));
		assertThat(next).failsWithin(Duration.ofSeconds(5))
			.withThrowableOfType(java.util.concurrent.ExecutionException.class)
			.havingCause()
			.isInstanceOf(ClockMovedBackwardsException.class)
			.withMessageContaining("2000 ms behind");
	}

	@Test
	void aStepBackWhileWaitingForTheNextMillisecondIsToleratedByBorrowingIt() throws Exception {
		SnowflakeIdGenerator generator = generator(ClockBackwardsPolicy.tolerate(Duration.ofMillis(5)));
		long last = exhaustMillisecond(generator);
		Future<Long> next = inOtherThread(generator::nextId);
		assertBlocked(next);
		this.clock.stepWallClock(Duration.ofSeconds(-2));
		long id = result(next);
		assertThat(id).isGreaterThan(last);
		assertThat(generator.parse(id)).isEqualTo(new SnowflakeId(id, START.plusMillis(1), 7, 0));
		assertThat(this.listener.events).containsExactly("2000 tolerated");
	}

	@Test
	void aSmallStepBackWhileWaitingForTheNextMillisecondWaitsUntilTheClockPassesIt() throws Exception {
		SnowflakeIdGenerator generator = generator(ClockBackwardsPolicy.defaults());
		long last = exhaustMillisecond(generator);
		Future<Long> next = inOtherThread(generator::nextId);
		assertBlocked(next);
		this.clock.stepWallClock(Duration.ofMillis(-1));
		assertBlocked(next);
		this.clock.advanceMillis(1);
		assertBlocked(next);
		this.clock.advanceMillis(1);
		long id = result(next);
		assertThat(id).isGreaterThan(last);
		assertThat(generator.parse(id)).isEqualTo(new SnowflakeId(id, START.plusMillis(1), 7, 0));
		assertThat(this.listener.events).containsExactly("1 waited");
	}

	@Test
	void aCallerWaitingForTheClockStopsWhenInterrupted() throws Exception {
		SnowflakeIdGenerator generator = generator(ClockBackwardsPolicy.defaults());
		exhaustMillisecond(generator);
		CompletableFuture<Throwable> failure = new CompletableFuture<>();
		Thread caller = new Thread(() -> {
			try {
				generator.nextId();
			}
			catch (Throwable ex) {
				failure.complete(ex);
			}
		});
		caller.start();
		Thread.sleep(BLOCKED_MILLIS);
		caller.interrupt();
		assertThat(failure.get(5, TimeUnit.SECONDS)).isInstanceOf(IdGenerationException.class)
			.hasMessageStartingWith("interrupted while waiting for the clock to pass 2026-01-01T00:00:00Z");
		assertThat(generator.issuedCount()).isEqualTo(4096);
	}

	private long exhaustMillisecond(SnowflakeIdGenerator generator) {
		long[] ids = generator.nextIds("any", 4096);
		assertThat(generator.parse(ids[4095]).timestamp()).isEqualTo(START);
		return ids[4095];
	}

	@Test
	void withoutAGrantNoIdIsIssued() {
		SnowflakeIdGenerator generator = new SnowflakeIdGenerator(SnowflakeLayout.defaults(), this.clock,
				ClockBackwardsPolicy.defaults(), this.listener);
		assertThat(generator.workerId()).isEmpty();
		assertThatExceptionOfType(WorkerIdUnavailableException.class).isThrownBy(generator::nextId)
			.withMessageStartingWith("no worker ID has been granted")
			.satisfies((ex) -> assertThat(ex.reason()).isEqualTo(Reason.NOT_GRANTED));
		assertThatExceptionOfType(WorkerIdUnavailableException.class)
			.isThrownBy(() -> generator.nextIds("any", 10));
		assertThat(generator.issuedCount()).isZero();
	}

	@Test
	void aRevokedGrantStopsIssuingUntilTheNextGrant() {
		SnowflakeIdGenerator generator = generator(ClockBackwardsPolicy.defaults());
		long before = generator.nextId();
		generator.revoke("lease lost: taken over");
		assertThat(generator.workerId()).isEmpty();
		assertThatExceptionOfType(WorkerIdUnavailableException.class).isThrownBy(generator::nextId)
			.withMessage("worker ID 7 was revoked (lease lost: taken over); issuing resumes once a lease is held "
					+ "again")
			.satisfies((ex) -> assertThat(ex.reason()).isEqualTo(Reason.REVOKED));
		generator.grant(WorkerGrant.fixed(9));
		assertThat(generator.workerId()).hasValue(9);
		long after = generator.nextId();
		assertThat(after).isGreaterThan(before);
		assertThat(generator.parse(after).workerId()).isEqualTo(9);
	}

	@Test
	void aGrantRunsOutAtItsMonotonicDeadline() {
		SnowflakeIdGenerator generator = generator(ClockBackwardsPolicy.defaults());
		generator.grant(new WorkerGrant(3, WorkerGrant.NO_FLOOR, WorkerGrant.NO_CEILING,
				this.clock.nanoTime() + TimeUnit.SECONDS.toNanos(1)));
		this.clock.advance(Duration.ofMillis(999));
		generator.nextId();
		this.clock.advance(Duration.ofMillis(1));
		assertThatExceptionOfType(WorkerIdUnavailableException.class).isThrownBy(generator::nextId)
			.withMessageStartingWith("the lease of worker ID 3 ran out 0 ms ago without a successful renewal")
			.satisfies((ex) -> assertThat(ex.reason()).isEqualTo(Reason.EXPIRED));
		// the wall clock does not matter, only monotonic time
		this.clock.stepWallClock(Duration.ofHours(-1));
		assertThatExceptionOfType(WorkerIdUnavailableException.class).isThrownBy(generator::nextId);
	}

	@Test
	void deadlinesAreComparedSafelyAcrossMonotonicOverflow() {
		ManualTimeSource nearOverflow = new ManualTimeSource(START, Long.MAX_VALUE - 500_000_000L);
		SnowflakeIdGenerator generator = new SnowflakeIdGenerator(SnowflakeLayout.defaults(), nearOverflow,
				ClockBackwardsPolicy.defaults(), this.listener);
		generator.grant(new WorkerGrant(3, WorkerGrant.NO_FLOOR, WorkerGrant.NO_CEILING,
				nearOverflow.nanoTime() + TimeUnit.SECONDS.toNanos(1)));
		generator.nextId();
		nearOverflow.advance(Duration.ofMillis(999));
		generator.nextId();
		nearOverflow.advance(Duration.ofMillis(1));
		assertThatExceptionOfType(WorkerIdUnavailableException.class).isThrownBy(generator::nextId);
	}

	@Test
	void noTimestampAboveTheGrantsCeilingIsIssued() {
		SnowflakeIdGenerator generator = generator(ClockBackwardsPolicy.defaults());
		generator.grant(new WorkerGrant(3, WorkerGrant.NO_FLOOR, START_MILLIS + 10, WorkerGrant.NEVER_EXPIRES));
		this.clock.advanceMillis(10);
		long[] ids = generator.nextIds("any", 4096);
		assertThat(generator.parse(ids[4095]).timestamp()).isEqualTo(START.plusMillis(10));
		// the millisecond at the ceiling is used up: the next one is refused rather than waited for
		assertThatExceptionOfType(WorkerIdUnavailableException.class).isThrownBy(generator::nextId)
			.withMessageStartingWith("worker ID 3 may stamp IDs up to 2026-01-01T00:00:00.010Z (its lease's "
					+ "ceiling) and the next would be at 2026-01-01T00:00:00.011Z")
			.satisfies((ex) -> assertThat(ex.reason()).isEqualTo(Reason.CEILING_REACHED));
		this.clock.advanceMillis(5);
		assertThatExceptionOfType(WorkerIdUnavailableException.class).isThrownBy(generator::nextId)
			.withMessageContaining("the next would be at 2026-01-01T00:00:00.015Z");
		generator.grant(new WorkerGrant(3, WorkerGrant.NO_FLOOR, START_MILLIS + 20, WorkerGrant.NEVER_EXPIRES));
		assertThat(generator.parse(generator.nextId()).timestamp()).isEqualTo(START.plusMillis(15));
	}

	@Test
	void aGrantsFloorIsNeverIssuedAtOrBelowEvenWhenTheClockIsBehindIt() {
		SnowflakeIdGenerator strict = generator(ClockBackwardsPolicy.defaults());
		strict.grant(new WorkerGrant(3, START_MILLIS + 1000, WorkerGrant.NO_CEILING, WorkerGrant.NEVER_EXPIRES));
		assertThat(strict.lastTimestamp()).isEqualTo(START_MILLIS + 1000);
		assertThatExceptionOfType(ClockMovedBackwardsException.class).isThrownBy(strict::nextId)
			.withMessageContaining("1000 ms behind");

		SnowflakeIdGenerator tolerant = generator(ClockBackwardsPolicy.tolerate(Duration.ofMillis(5)));
		tolerant.grant(new WorkerGrant(3, START_MILLIS + 1000, WorkerGrant.NO_CEILING, WorkerGrant.NEVER_EXPIRES));
		long id = tolerant.nextId();
		assertThat(tolerant.parse(id)).isEqualTo(new SnowflakeId(id, START.plusMillis(1001), 3, 0));

		this.clock.advanceMillis(1001);
		long caughtUp = strict.nextId();
		assertThat(strict.parse(caughtUp)).isEqualTo(new SnowflakeId(caughtUp, START.plusMillis(1001), 3, 0));
	}

	@Test
	void aGrantMustFitTheLayout() {
		SnowflakeIdGenerator generator = generator(ClockBackwardsPolicy.defaults());
		assertThatIllegalArgumentException().isThrownBy(() -> generator.grant(WorkerGrant.fixed(1024)))
			.withMessage("workerId must be in [0, 1023]: 1024");
		assertThatIllegalArgumentException().isThrownBy(() -> WorkerGrant.fixed(-1))
			.withMessage("workerId must not be negative: -1");
	}

	@Test
	void afterRevokeReturnsNoIdAboveTheLastTimestampAppears() throws Exception {
		SnowflakeIdGenerator generator = new SnowflakeIdGenerator(SnowflakeLayout.defaults(), TimeSource.system(),
				ClockBackwardsPolicy.defaults(), IdWorkerListener.NONE);
		generator.grant(WorkerGrant.fixed(5));
		int threads = 4;
		CountDownLatch running = new CountDownLatch(threads);
		List<Future<long[]>> futures = new ArrayList<>();
		for (int t = 0; t < threads; t++) {
			futures.add(this.executor.submit(() -> {
				long max = 0;
				long count = 0;
				try {
					for (;;) {
						max = Math.max(max, generator.nextId());
						if (++count == 1000) {
							running.countDown();
						}
					}
				}
				catch (WorkerIdUnavailableException ex) {
					return new long[] { max, count };
				}
			}));
		}
		running.await(10, TimeUnit.SECONDS);
		generator.revoke("closed");
		long lastTimestamp = generator.lastTimestamp();
		for (Future<long[]> future : futures) {
			long[] result = future.get(10, TimeUnit.SECONDS);
			assertThat(result[1]).isGreaterThanOrEqualTo(1000);
			assertThat(generator.parse(result[0]).timestamp().toEpochMilli()).isLessThanOrEqualTo(lastTimestamp);
		}
	}

	@Test
	void aCallInFlightWhenRevokeReturnsIssuesNothingAboveTheLastTimestamp() throws Exception {
		GatedClock gated = new GatedClock(this.clock, /* stale= */ false);
		SnowflakeIdGenerator generator = new SnowflakeIdGenerator(SnowflakeLayout.defaults(), gated,
				ClockBackwardsPolicy.defaults(), this.listener);
		generator.grant(WorkerGrant.fixed(7));
		generator.nextId();
		// a caller has checked the grant and read the state, and is about to read the clock
		Future<Long> inFlight = inOtherThread(() -> {
			gated.gate(Thread.currentThread());
			return generator.nextId();
		});
		gated.reached.await(5, TimeUnit.SECONDS);
		generator.revoke("closed");
		long lastTimestamp = generator.lastTimestamp();
		this.clock.advanceMillis(1);
		gated.open.countDown();
		assertThat(inFlight).failsWithin(Duration.ofSeconds(5))
			.withThrowableOfType(java.util.concurrent.ExecutionException.class)
			.havingCause()
			.isInstanceOf(WorkerIdUnavailableException.class)
			.withMessageContaining("was revoked (closed)");
		assertThat(lastTimestamp).isEqualTo(START_MILLIS);
	}

	@Test
	void aCallerThatCheckedTheGrantBeforeRevokeAndReadsTheStateAfterItIssuesNothing() {
		RevokingClock clock = new RevokingClock(this.clock);
		SnowflakeIdGenerator generator = clock.generator(this.listener);
		long before = generator.nextId();
		clock.revokeInsideNextGrantCheck();
		assertThatExceptionOfType(WorkerIdUnavailableException.class).isThrownBy(generator::nextId)
			.withMessageContaining("was revoked (closed)");
		assertThat(clock.lastTimestampAfterRevoke).isEqualTo(generator.parse(before).timestamp().toEpochMilli());
	}

	@Test
	void aBatchThatCheckedTheGrantBeforeRevokeAndReadsTheStateAfterItIssuesNothing() {
		RevokingClock clock = new RevokingClock(this.clock);
		SnowflakeIdGenerator generator = clock.generator(this.listener);
		long before = generator.nextId();
		clock.revokeInsideNextGrantCheck();
		assertThatExceptionOfType(WorkerIdUnavailableException.class)
			.isThrownBy(() -> generator.nextIds("any", 10))
			.withMessageContaining("was revoked (closed)");
		assertThat(clock.lastTimestampAfterRevoke).isEqualTo(generator.parse(before).timestamp().toEpochMilli());
	}

	@Test
	void aCallerThatCheckedAGrantRevokedAndGrantedAgainMeanwhileIssuesUnderTheNewGrant() {
		RevokingClock clock = new RevokingClock(this.clock);
		SnowflakeIdGenerator generator = clock.generator(this.listener);
		generator.nextId();
		clock.regrantAs = 9;
		clock.revokeInsideNextGrantCheck();
		long id = generator.nextId();
		assertThat(generator.parse(id).workerId()).isEqualTo(9);
		assertThat(generator.parse(id).timestamp().toEpochMilli()).isGreaterThan(clock.lastTimestampAfterRevoke);
	}

	@Test
	void aCallerDescheduledBetweenItsReadsIsNotMistakenForAClockStepBack() throws Exception {
		GatedClock gated = new GatedClock(this.clock, /* stale= */ true);
		SnowflakeIdGenerator generator = new SnowflakeIdGenerator(SnowflakeLayout.defaults(), gated,
				ClockBackwardsPolicy.defaults(), this.listener);
		generator.grant(WorkerGrant.fixed(7));
		long first = generator.nextId();
		// a caller reads the clock and is descheduled for 36 ms, while others go on issuing
		Future<Long> descheduled = inOtherThread(() -> {
			gated.gate(Thread.currentThread());
			return generator.nextId();
		});
		gated.reached.await(5, TimeUnit.SECONDS);
		this.clock.advanceMillis(36);
		long other = generator.nextId();
		gated.open.countDown();
		long late = result(descheduled);
		assertThat(late).isGreaterThan(other).isGreaterThan(first);
		assertThat(this.listener.events).isEmpty();
	}

	@Test
	void nextIdsReservesRunsOfTheSequence() throws Exception {
		SnowflakeIdGenerator generator = generator(ClockBackwardsPolicy.defaults());
		long[] run = generator.nextIds("any", 4000);
		for (int i = 0; i < run.length; i++) {
			assertThat(run[i]).isEqualTo(run[0] + i);
		}
		assertThat(generator.parse(run[0])).isEqualTo(new SnowflakeId(run[0], START, 7, 0));
		Future<long[]> more = inOtherThread(() -> generator.nextIds("any", 5000));
		assertBlocked(more);
		this.clock.advanceMillis(1);
		assertBlocked(more);
		this.clock.advanceMillis(1);
		long[] next = result(more);
		assertThat(next[0]).isEqualTo(run[run.length - 1] + 1);
		assertThat(generator.parse(next[95])).isEqualTo(new SnowflakeId(next[95], START, 7, 4095));
		assertThat(generator.parse(next[96])).isEqualTo(new SnowflakeId(next[96], START.plusMillis(1), 7, 0));
		assertThat(generator.parse(next[4999])).isEqualTo(new SnowflakeId(next[4999], START.plusMillis(2), 7, 807));
		for (int i = 1; i < next.length; i++) {
			assertThat(next[i]).isGreaterThan(next[i - 1]);
		}
		assertThat(generator.issuedCount()).isEqualTo(9000);
		assertThatIllegalArgumentException().isThrownBy(() -> generator.nextIds("any", 0))
			.withMessage("count must be at least 1: 0");
	}

	@Test
	void batchesAndSingleIdsFromManyThreadsNeverCollide() throws Exception {
		SnowflakeIdGenerator generator = new SnowflakeIdGenerator(SnowflakeLayout.defaults(), TimeSource.system(),
				ClockBackwardsPolicy.defaults(), IdWorkerListener.NONE);
		generator.grant(WorkerGrant.fixed(0));
		int threads = 4;
		int perThread = 250_000;
		List<Future<long[]>> futures = new ArrayList<>();
		for (int t = 0; t < threads; t++) {
			int batch = 1 + t * 1500;
			futures.add(this.executor.submit(() -> {
				long[] mine = new long[perThread];
				int filled = 0;
				while (filled < perThread) {
					long[] ids = generator.nextIds("any", Math.min(batch, perThread - filled));
					System.arraycopy(ids, 0, mine, filled, ids.length);
					filled += ids.length;
					if (filled < perThread) {
						mine[filled++] = generator.nextId();
					}
				}
				return mine;
			}));
		}
		long[] all = new long[threads * perThread];
		for (int t = 0; t < threads; t++) {
			long[] mine = futures.get(t).get(60, TimeUnit.SECONDS);
			for (int i = 1; i < mine.length; i++) {
				assertThat(mine[i]).isGreaterThan(mine[i - 1]);
			}
			System.arraycopy(mine, 0, all, t * perThread, perThread);
		}
		Arrays.sort(all);
		for (int i = 1; i < all.length; i++) {
			if (all[i] == all[i - 1]) {
				throw new AssertionError("duplicate ID " + all[i]);
			}
		}
	}

	@Test
	void aLayoutWhoseTimestampFieldHasRunOutIsRefused() {
		SnowflakeLayout layout = SnowflakeLayout.of(Instant.EPOCH, 31, 16, 16);
		assertThatIllegalStateException()
			.isThrownBy(() -> new SnowflakeIdGenerator(layout, TimeSource.system(), ClockBackwardsPolicy.defaults(),
					IdWorkerListener.NONE))
			.withMessageStartingWith("the 31-bit timestamp field of layout (65536 workers, 65536 IDs/ms, valid until "
					+ "1970-01-25T20:31:23.647Z) from epoch 1970-01-01T00:00:00Z ran out at 1970-01-25T20:31:23.647Z")
			.withMessageEndingWith("use a later epoch or more timestamp bits");
	}

	@Test
	void noIdIsIssuedOnceTheTimestampFieldRunsOut() {
		SnowflakeLayout layout = SnowflakeLayout.of(START.minus(Duration.ofDays(1)), 31, 16, 16);
		SnowflakeIdGenerator generator = new SnowflakeIdGenerator(layout, this.clock, ClockBackwardsPolicy.defaults(),
				this.listener);
		generator.grant(WorkerGrant.fixed(1));
		this.clock.setWallClock(layout.exhaustedAt());
		assertThat(generator.parse(generator.nextId()).timestamp()).isEqualTo(layout.exhaustedAt());
		this.clock.advanceMillis(1);
		assertThatExceptionOfType(IdGenerationException.class).isThrownBy(generator::nextId)
			.withMessageContaining("has run out");
	}

	@Test
	void aClockBeforeTheEpochIsReported() {
		SnowflakeIdGenerator generator = generator(ClockBackwardsPolicy.defaults());
		this.clock.setWallClock(Instant.parse("2019-12-31T23:59:59Z"));
		assertThatExceptionOfType(IdGenerationException.class).isThrownBy(generator::nextId)
			.withMessageStartingWith("clock (2019-12-31T23:59:59Z) is before the layout's epoch "
					+ "(2020-01-01T00:00:00Z)");
	}

	@Test
	void waitingDoesNotBurnACore() throws Exception {
		SnowflakeIdGenerator generator = generator(ClockBackwardsPolicy.defaults());
		exhaustMillisecond(generator);
		AtomicBoolean done = new AtomicBoolean();
		long[] cpuNanos = new long[1];
		Thread caller = new Thread(() -> {
			generator.nextId();
			cpuNanos[0] = java.lang.management.ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
			done.set(true);
		});
		caller.start();
		Thread.sleep(500);
		this.clock.advanceMillis(1);
		caller.join(5000);
		assertThat(done).isTrue();
		// parked for 500 ms: a spinning caller would have used about that much CPU time
		assertThat(TimeUnit.NANOSECONDS.toMillis(cpuNanos[0])).isCloseTo(0, within(150L));
	}

	/**
	 * Holds one chosen thread inside its next wall-clock read until {@link #open} is counted down, as if it were
	 * descheduled there; it then returns the value read before the pause ({@code stale}) or a fresh one.
	 */
	static final class GatedClock implements TimeSource {

		final CountDownLatch reached = new CountDownLatch(1);

		final CountDownLatch open = new CountDownLatch(1);

		private final ManualTimeSource delegate;

		private final boolean stale;

		private volatile Thread gated;

		GatedClock(ManualTimeSource delegate, boolean stale) {
			this.delegate = delegate;
			this.stale = stale;
		}

		void gate(Thread thread) {
			this.gated = thread;
		}

		@Override
		public long currentTimeMillis() {
			long value = this.delegate.currentTimeMillis();
			if (Thread.currentThread() == this.gated) {
				this.gated = null;
				this.reached.countDown();
				try {
					this.open.await();
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
				if (!this.stale) {
					value = this.delegate.currentTimeMillis();
				}
			}
			return value;
		}

		@Override
		public long nanoTime() {
			return this.delegate.nanoTime();
		}

	}

	/**
	 * Runs {@code revoke("closed")} inside the caller's next monotonic-clock read, the one that checks the grant's
	 * deadline, as if the caller were descheduled there while another thread closed the lease; then lets the wall
	 * clock move on 5 ms, and optionally grants the generator again.
	 */
	static final class RevokingClock implements TimeSource {

		private final ManualTimeSource delegate;

		private @Nullable SnowflakeIdGenerator generator;

		private boolean armed;

		/** Worker ID to grant right after the revoke, or -1 for none. */
		int regrantAs = -1;

		long lastTimestampAfterRevoke = Long.MIN_VALUE;

		RevokingClock(ManualTimeSource delegate) {
			this.delegate = delegate;
		}

		SnowflakeIdGenerator generator(IdWorkerListener listener) {
			SnowflakeIdGenerator generator = new SnowflakeIdGenerator(SnowflakeLayout.defaults(), this,
					ClockBackwardsPolicy.defaults(), listener);
			generator.grant(expiringGrant(7));
			this.generator = generator;
			return generator;
		}

		private WorkerGrant expiringGrant(int workerId) {
			return new WorkerGrant(workerId, WorkerGrant.NO_FLOOR, WorkerGrant.NO_CEILING,
					this.delegate.nanoTime() + TimeUnit.SECONDS.toNanos(30));
		}

		void revokeInsideNextGrantCheck() {
			this.armed = true;
		}

		@Override
		public long currentTimeMillis() {
			return this.delegate.currentTimeMillis();
		}

		@Override
		public long nanoTime() {
			long now = this.delegate.nanoTime();
			SnowflakeIdGenerator generator = this.generator;
			if (this.armed && generator != null) {
				this.armed = false;
				generator.revoke("closed");
				this.lastTimestampAfterRevoke = generator.lastTimestamp();
				this.delegate.advanceMillis(5);
				if (this.regrantAs >= 0) {
					generator.grant(expiringGrant(this.regrantAs));
				}
			}
			return now;
		}

	}

	/**
	 * Records clock-backwards events as "offset action".
	 */
	static final class RecordingListener implements IdWorkerListener {

		final List<String> events = new CopyOnWriteArrayList<>();

		@Override
		public void clockMovedBackwards(long offsetMillis, String action) {
			this.events.add(offsetMillis + " " + action);
		}

	}

}
