package io.idstarter.segment;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;

import io.idstarter.IdWorkerListener;
import io.idstarter.time.TimeSource;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.awaitility.Awaitility.await;

class SegmentIdGeneratorTests {

	/** Keeps every range at the key's configured step, so tests can predict the ranges. */
	private static final DynamicStep FIXED_STEP = new DynamicStep(Duration.ofMinutes(15), Duration.ofMinutes(30), 1);

	private final InMemorySegmentStore store = new InMemorySegmentStore();

	private final RecordingStore recording = new RecordingStore(this.store);

	private final RecordingListener listener = new RecordingListener();

	private final List<SegmentIdGenerator> generators = new ArrayList<>();

	@AfterEach
	void close() {
		this.generators.forEach(SegmentIdGenerator::close);
	}

	private SegmentIdGenerator start(SegmentOptions.Builder options) {
		return start(options, TimeSource.system());
	}

	private SegmentIdGenerator start(SegmentOptions.Builder options, TimeSource time) {
		return start(options, time, null);
	}

	private SegmentIdGenerator start(SegmentOptions.Builder options, TimeSource time,
			java.util.concurrent.@Nullable Executor prefetchExecutor) {
		SegmentIdGenerator generator = new SegmentIdGenerator(this.recording, options.build(), time, this.listener,
				prefetchExecutor);
		this.generators.add(generator);
		generator.start();
		return generator;
	}

	private static SegmentOptions.Builder fixedStep() {
		return SegmentOptions.builder().dynamicStep(FIXED_STEP);
	}

	private static long[] draw(SegmentIdGenerator generator, String key, int count) {
		long[] ids = new long[count];
		for (int i = 0; i < count; i++) {
			ids[i] = generator.nextId(key);
		}
		return ids;
	}

	@Test
	void firstCallLoadsTheFirstRangeWithTheConfiguredStep() {
		this.store.createKey("order", 1000, 50, "orders");
		SegmentIdGenerator generator = start(SegmentOptions.builder());
		assertThat(generator.nextId("order")).isEqualTo(1000);
		assertThat(generator.nextId("order")).isEqualTo(1001);
		assertThat(this.recording.calls().get(0).requestedStep()).isZero();
		assertThat(this.listener.storeCalls).first()
			.satisfies((call) -> assertThat(call.operation()).isEqualTo("allocate"))
			.satisfies((call) -> assertThat(call.success()).isTrue());
	}

	@Test
	void idsOfAKeyAreConsecutiveAcrossRangeSwitches() {
		this.store.createKey("order", 0, 10, "");
		SegmentIdGenerator generator = start(fixedStep());
		assertThat(draw(generator, "order", 95)).containsExactly(LongStream.range(0, 95).toArray());
		assertThat(generator.view("order").orElseThrow().issuedCount()).isEqualTo(95);
	}

	@Test
	void keysHaveSeparateNumberSpaces() {
		this.store.createKey("a", 0, 10, "");
		this.store.createKey("b", 0, 10, "");
		SegmentIdGenerator generator = start(fixedStep());
		assertThat(generator.nextId("a")).isZero();
		assertThat(generator.nextId("b")).isZero();
		assertThat(generator.nextId("a")).isOne();
	}

	@Test
	void nextIdWithoutKeyUsesTheDefaultKey() {
		this.store.createKey("order", 7, 10, "");
		SegmentIdGenerator generator = start(SegmentOptions.builder().defaultKey("order"));
		assertThat(generator.nextId()).isEqualTo(7);
		assertThat(generator.nextIdString()).isEqualTo("8");
	}

	@Test
	void nextIdWithoutKeyAndWithoutDefaultKeyNamesTheProperty() {
		SegmentIdGenerator generator = start(SegmentOptions.builder());
		assertThatIllegalStateException().isThrownBy(generator::nextId)
			.withMessageContaining("id-worker.segment.default-key");
	}

	@Test
	void everyRangeIsFetchedOnceAheadOfItsFirstId() throws Exception {
		this.store.createKey("order", 0, 100, "");
		this.store.setLatency(Duration.ofMillis(100));
		SegmentIdGenerator generator = start(fixedStep());
		// The first call waits for the first range; 10% of 100 is the 10th number.
		draw(generator, "order", 9);
		Thread.sleep(300);
		assertThat(this.store.allocateCalls()).as("no prefetch before 10% is used").isEqualTo(1);
		generator.nextId("order");
		await().atMost(Duration.ofSeconds(5)).until(() -> generator.view("order").orElseThrow().next() != null);
		for (int range = 1; range <= 4; range++) {
			int waitsBefore = this.listener.waits.size();
			long[] ids = draw(generator, "order", 100);
			// the first ID of the range was fetched ahead, so nobody waited for it
			assertThat(this.listener.waits).hasSize(waitsBefore);
			assertThat(ids[0]).isEqualTo(range * 100L - 90);
			await().atMost(Duration.ofSeconds(5))
				.until(() -> generator.view("order").orElseThrow().next() != null);
			assertThat(this.store.allocateCalls()).isEqualTo(range + 2);
		}
		assertThat(this.listener.waits).hasSize(1);
		assertThat(this.listener.waits.get(0).served()).isTrue();
	}

	@Test
	void callerOfTheFirstIdOfAPrefetchedRangeDoesNotWait() {
		this.store.createKey("order", 0, 100, "");
		this.store.setLatency(Duration.ofMillis(200));
		SegmentIdGenerator generator = start(fixedStep());
		draw(generator, "order", 99);
		await().atMost(Duration.ofSeconds(5)).until(() -> generator.view("order").orElseThrow().next() != null);
		generator.nextId("order");
		long start = System.nanoTime();
		assertThat(generator.nextId("order")).isEqualTo(100);
		assertThat(System.nanoTime() - start).isLessThan(TimeUnit.MILLISECONDS.toNanos(100));
	}

	@Test
	void dynamicStepIsAppliedFromTheSecondFetchOnAtItsBoundaries() {
		this.store.createKey("order", 0, 10, "");
		ManualTime time = new ManualTime();
		SegmentIdGenerator generator = start(SegmentOptions.builder(), time);
		// range 1 [0, 10): its 1st number triggers fetch 2, right after fetch 1: double
		generator.nextId("order");
		awaitNext(generator);
		time.advance(Duration.ofMinutes(15));
		// range 2 [10, 30): its 2nd number triggers fetch 3, exactly 15 minutes later: keep
		draw(generator, "order", 11);
		awaitNext(generator);
		time.advance(Duration.ofMinutes(30));
		// range 3 [30, 50): its 2nd number triggers fetch 4, exactly 30 minutes later: halve
		draw(generator, "order", 20);
		awaitNext(generator);
		assertThat(this.recording.requestedSteps()).containsExactly(0, 20, 20, 10);
		SegmentBufferView view = generator.view("order").orElseThrow();
		assertThat(view.step()).isEqualTo(10);
		assertThat(view.configuredStep()).isEqualTo(10);
		assertThat(view.lastFetchTime()).isNotNull();
	}

	@Test
	void raisedConfiguredStepIsTheNewFloor() {
		this.store.createKey("order", 0, 10, "");
		ManualTime time = new ManualTime();
		SegmentIdGenerator generator = start(SegmentOptions.builder(), time);
		generator.nextId("order");
		awaitNext(generator);
		this.store.updateStep("order", 100);
		// fetch 3 still knows the old floor; its allocation reports the new one
		time.advance(Duration.ofMinutes(20));
		draw(generator, "order", 11);
		awaitNext(generator);
		time.advance(Duration.ofMinutes(20));
		draw(generator, "order", 20);
		awaitNext(generator);
		assertThat(this.recording.requestedSteps()).containsExactly(0, 20, 20, 100);
	}

	@Test
	void fixedStepFollowsALoweredConfiguredStepOneFetchLater() {
		this.store.createKey("order", 0, 100, "");
		SegmentIdGenerator generator = start(fixedStep());
		// the 10th number of each range of 100 starts the next fetch
		draw(generator, "order", 10);
		awaitNext(generator);
		this.store.updateStep("order", 10);
		// fetch 3 still knows the old configured step; its allocation reports the new one
		draw(generator, "order", 100);
		awaitNext(generator);
		draw(generator, "order", 100);
		awaitNext(generator);
		assertThat(this.recording.requestedSteps()).containsExactly(0, 100, 100, 10);
		assertThat(generator.view("order").orElseThrow().step()).isEqualTo(10);
	}

	private static void awaitNext(SegmentIdGenerator generator) {
		await().atMost(Duration.ofSeconds(5)).until(() -> generator.view("order").orElseThrow().next() != null);
	}

	@Test
	void storeOutageWithBothRangesUsedUpFailsAfterMaxWaitAndRecovers() {
		this.store.createKey("order", 0, 10, "");
		SegmentIdGenerator generator = start(fixedStep().maxWait(Duration.ofMillis(400)));
		List<Long> ids = new ArrayList<>();
		ids.add(generator.nextId("order"));
		awaitNext(generator);
		this.store.setAvailable(false);
		for (int i = 0; i < 19; i++) {
			ids.add(generator.nextId("order"));
		}
		long start = System.nanoTime();
		assertThatExceptionOfType(SegmentsExhaustedException.class).isThrownBy(() -> generator.nextId("order"))
			.withMessageContaining("'order'")
			.withMessageContaining("[0, 10)")
			.withMessageContaining("[10, 20)")
			.withMessageContaining("step 10")
			.withMessageContaining("the fetch has been pending for")
			.withMessageContaining("simulated outage")
			.withCauseInstanceOf(SegmentStoreException.class)
			.satisfies((ex) -> assertThat(ex.getKey()).isEqualTo("order"));
		long waited = System.nanoTime() - start;
		assertThat(waited).isBetween(TimeUnit.MILLISECONDS.toNanos(390), TimeUnit.MILLISECONDS.toNanos(1500));
		assertThat(this.listener.waits).last().satisfies((wait) -> assertThat(wait.served()).isFalse());
		assertThat(this.listener.storeCalls).anySatisfy((call) -> assertThat(call.success()).isFalse());
		SegmentBufferView view = generator.view("order").orElseThrow();
		assertThat(view.fetchInFlight()).isTrue();
		assertThat(view.lastError()).contains("simulated outage");
		assertThat(view.lastErrorCode()).isEqualTo("store-unavailable");
		assertThat(view.lastErrorTime()).isNotNull();

		this.store.setAvailable(true);
		for (int i = 0; i < 30; i++) {
			ids.add(generator.nextId("order"));
		}
		assertThat(ids).containsExactlyElementsOf(LongStream.range(0, 50).boxed().toList());
		assertThat(generator.view("order").orElseThrow().lastError()).isNull();
		assertThat(generator.view("order").orElseThrow().lastErrorCode()).isNull();
	}

	@Test
	void outageRetriesAreSpacedOut() throws Exception {
		this.store.createKey("order", 0, 10, "");
		SegmentIdGenerator generator = start(fixedStep().maxWait(Duration.ofMillis(400)));
		generator.nextId("order");
		awaitNext(generator);
		this.store.setAvailable(false);
		draw(generator, "order", 10);
		long before = this.store.allocateCalls();
		Thread.sleep(1000);
		// delays 10, 20, 40, 80, 100, 100, ... ms (capped at maxWait / 4), each jittered down to at most half:
		// 10 to 22 calls a second, not thousands
		assertThat(this.store.allocateCalls() - before).isBetween(5L, 24L);
	}

	@Test
	void retryDelaysGrowAndAreJitteredWithinTheirUpperHalf() {
		long maxWait = Duration.ofSeconds(8).toNanos();
		assertThat(SegmentFetcher.retryDelayNanos(1, maxWait)).isBetween(5_000_000L, 10_000_000L);
		assertThat(SegmentFetcher.retryDelayNanos(2, maxWait)).isBetween(10_000_000L, 20_000_000L);
		Set<Long> capped = new HashSet<>();
		for (int i = 0; i < 100; i++) {
			long delay = SegmentFetcher.retryDelayNanos(40, maxWait);
			assertThat(delay).isBetween(500_000_000L, 1_000_000_000L);
			capped.add(delay);
		}
		assertThat(capped).as("nodes that failed together do not retry in lockstep").hasSizeGreaterThan(50);
	}

	@Test
	void theCallThatCrossesThePrefetchThresholdLeavesTheHandOverToThePoll() {
		this.store.createKey("order", 0, 10, "");
		List<Thread> submitters = new java.util.concurrent.CopyOnWriteArrayList<>();
		java.util.concurrent.Executor pool = (task) -> {
			submitters.add(Thread.currentThread());
			task.run();
		};
		SegmentIdGenerator generator = start(fixedStep(), TimeSource.system(), pool);
		generator.nextId("order");
		awaitNext(generator);
		submitters.clear();
		// 10 is the prefetch number of [10, 20): its caller only queues the fetch of [20, 30)
		assertThat(draw(generator, "order", 10)).endsWith(10);
		assertThat(submitters).doesNotContain(Thread.currentThread());
		awaitNext(generator);
		assertThat(submitters).singleElement()
			.satisfies((thread) -> assertThat(thread.getName()).startsWith("id-segment-refresh-"));
	}

	@Test
	void theCallThatCrossesThePrefetchThresholdHandsOverAtOnceWhenThePollCouldMakeCallersWait() {
		List<Thread> submitters = crossThePrefetchThresholdOfAPoolOnlyStore(Duration.ofMillis(5));
		// Ranges last 5 ms, the store's call takes no time on this clock: a poll up to 4 ms later would leave little
		assertThat(submitters).containsExactly(Thread.currentThread());
	}

	@Test
	void theCallThatCrossesThePrefetchThresholdLeavesTheHandOverToThePollWhenRangesLastLong() {
		List<Thread> submitters = crossThePrefetchThresholdOfAPoolOnlyStore(
				Duration.ofNanos(SegmentFetcher.HAND_OVER_NOW_SLACK_NANOS).plusMillis(1));
		await().atMost(Duration.ofSeconds(5)).until(() -> !submitters.isEmpty());
		assertThat(submitters).singleElement()
			.satisfies((thread) -> assertThat(thread.getName()).startsWith("id-segment-refresh-"));
	}

	@Test
	void theCallThatCrossesThePrefetchThresholdHandsOverAtOnceWhenRangesAreShort() {
		// Ranges of under a millisecond: a caller that ran out would hand the fetch over itself and wait for all of it
		List<Thread> submitters = crossThePrefetchThresholdOfAPoolOnlyStore(Duration.ofMillis(1).minusNanos(1));
		assertThat(submitters).containsExactly(Thread.currentThread());
	}

	@Test
	void theStepIsTheSizeOfTheRangeTheStoreGave() {
		this.store.createKey("order", 0, 50, "");
		// A store with a step of its own, as a database sequence's INCREMENT BY: it gives 50 whatever is asked.
		SegmentStore ownStep = new SegmentStore() {
			@Override
			public SegmentAllocation allocate(String key) {
				return SegmentIdGeneratorTests.this.store.allocate(key);
			}

			@Override
			public SegmentAllocation allocate(String key, int step) {
				return SegmentIdGeneratorTests.this.store.allocate(key);
			}

			@Override
			public Set<String> keys() {
				return SegmentIdGeneratorTests.this.store.keys();
			}
		};
		SegmentIdGenerator generator = new SegmentIdGenerator(ownStep, SegmentOptions.builder().build(),
				TimeSource.system(), this.listener, null);
		this.generators.add(generator);
		generator.start();
		draw(generator, "order", 500);
		awaitNext(generator);
		// The dynamic step asked for more each time (ranges last milliseconds here); the store gave 50 each time
		assertThat(generator.view("order").orElseThrow().step()).isEqualTo(50);
	}

	/**
	 * Draws [0, 10) of a key whose store takes calls from the pool only, lets the given time pass on a clock the store's
	 * calls take no time on, and draws up to 10, the prefetch number of [10, 20).
	 * @return the threads that handed fetches to the pool from then on
	 */
	private List<Thread> crossThePrefetchThresholdOfAPoolOnlyStore(Duration rangeLasts) {
		this.store.createKey("order", 0, 10, "");
		List<Thread> submitters = new java.util.concurrent.CopyOnWriteArrayList<>();
		java.util.concurrent.Executor pool = (task) -> {
			submitters.add(Thread.currentThread());
			task.run();
		};
		ManualTime time = new ManualTime();
		SegmentIdGenerator generator = new SegmentIdGenerator(poolOnlyStore(), fixedStep().build(), time,
				this.listener, pool);
		this.generators.add(generator);
		generator.start();
		generator.nextId("order");
		awaitNext(generator);
		submitters.clear();
		time.advance(rangeLasts);
		assertThat(draw(generator, "order", 10)).endsWith(10);
		return submitters;
	}

	@Test
	void waitingCallerRunsAFetchNoPoolThreadHasStartedWhenTheStoreIsFast() {
		this.store.createKey("order", 0, 10, "");
		HeldExecutor pool = new HeldExecutor();
		// The generator times store calls with its own clock: on a clock that stands still every call reads 0 ns, so a
		// busy machine cannot make the in-memory store look slow (a call over 1 ms is left to the pool).
		SegmentIdGenerator generator = start(fixedStep().maxWait(Duration.ofMillis(200)), new ManualTime(), pool);
		assertThat(generator.nextId("order")).isZero();
		awaitNext(generator);
		pool.hold();
		// [10, 20) was fetched ahead; the fetch of [20, 30), requested at 10, stays queued and the caller of 20 runs it
		assertThat(draw(generator, "order", 29)).containsExactly(LongStream.range(1, 30).toArray());
		assertThat(this.listener.failedWaits()).isZero();
		assertThat(this.recording.calls()).hasSize(3);
		// a late run of the fetch the caller ran does nothing; the next one (requested at 20) runs
		await().atMost(Duration.ofSeconds(5)).until(() -> pool.queued() >= 1);
		pool.release();
		await().atMost(Duration.ofSeconds(5)).until(() -> this.recording.calls().size() == 4);
		assertThat(generator.nextId("order")).isEqualTo(30);
	}

	@Test
	void waitingCallerLeavesAQueuedFetchToThePoolWhenTheStoreIsSlow() {
		this.store.createKey("order", 0, 10, "");
		this.store.setLatency(Duration.ofMillis(5));
		HeldExecutor pool = new HeldExecutor();
		SegmentIdGenerator generator = start(fixedStep().maxWait(Duration.ofMillis(200)), TimeSource.system(), pool);
		generator.nextId("order");
		awaitNext(generator);
		pool.hold();
		draw(generator, "order", 19);
		long start = System.nanoTime();
		assertThatExceptionOfType(SegmentsExhaustedException.class).isThrownBy(() -> generator.nextId("order"));
		assertThat(System.nanoTime() - start).isGreaterThan(TimeUnit.MILLISECONDS.toNanos(190));
		assertThat(this.store.allocateCalls()).isEqualTo(2);
		pool.release();
		assertThat(generator.nextId("order")).isEqualTo(20);
	}

	/**
	 * The in-memory store, refusing calls on callers' threads like the JDBC, MongoDB and Redis stores (which could join
	 * a transaction bound to the caller's thread).
	 */
	private SegmentStore poolOnlyStore() {
		return new SegmentStore() {
			@Override
			public SegmentAllocation allocate(String key) {
				return SegmentIdGeneratorTests.this.store.allocate(key);
			}

			@Override
			public SegmentAllocation allocate(String key, int step) {
				return SegmentIdGeneratorTests.this.store.allocate(key, step);
			}

			@Override
			public Set<String> keys() {
				return SegmentIdGeneratorTests.this.store.keys();
			}
		};
	}

	private SegmentIdGenerator startPoolOnly(SegmentOptions.Builder options, java.util.concurrent.Executor pool) {
		SegmentIdGenerator generator = new SegmentIdGenerator(poolOnlyStore(), options.build(), TimeSource.system(),
				this.listener, pool);
		this.generators.add(generator);
		generator.start();
		return generator;
	}

	@Test
	void waitingCallerNeverCallsAStoreThatMustOnlyBeCalledFromThePool() {
		this.store.createKey("order", 0, 10, "");
		HeldExecutor pool = new HeldExecutor();
		SegmentIdGenerator generator = startPoolOnly(fixedStep().maxWait(Duration.ofMillis(200)), pool);
		generator.nextId("order");
		awaitNext(generator);
		pool.hold();
		draw(generator, "order", 19);
		assertThatExceptionOfType(SegmentsExhaustedException.class).isThrownBy(() -> generator.nextId("order"));
		assertThat(this.store.allocateCalls()).isEqualTo(2);
		pool.release();
		assertThat(generator.nextId("order")).isEqualTo(20);
	}

	@Test
	void aPrefetchExecutorThatThrowsIsRetriedAndDoesNotStopThePoll() {
		this.store.createKey("order", 0, 10, "");
		java.util.concurrent.atomic.AtomicBoolean failNext = new java.util.concurrent.atomic.AtomicBoolean();
		java.util.concurrent.Executor pool = (task) -> {
			if (failNext.compareAndSet(true, false)) {
				throw new IllegalStateException("prefetch executor failed (test)");
			}
			task.run();
		};
		SegmentIdGenerator generator = startPoolOnly(fixedStep().maxWait(Duration.ofSeconds(2)), pool);
		generator.nextId("order");
		awaitNext(generator);
		failNext.set(true);
		// The poll's hand-over of the fetch of [20, 30), requested at 10, throws: the fetch is retried like a rejected
		// one instead of staying marked as handed over, and the poll goes on handing over the later fetches.
		assertThat(draw(generator, "order", 10)).containsExactly(LongStream.range(1, 11).toArray());
		await().atMost(Duration.ofSeconds(5)).untilFalse(failNext);
		assertThat(draw(generator, "order", 49)).containsExactly(LongStream.range(11, 60).toArray());
		assertThat(this.listener.failedWaits()).isZero();
	}

	@Test
	void afterAFailedStoreCallWaitingCallersLeaveTheRetryToThePool() {
		this.store.createKey("order", 0, 10, "");
		HeldExecutor pool = new HeldExecutor();
		SegmentIdGenerator generator = start(fixedStep().maxWait(Duration.ofMillis(200)), TimeSource.system(), pool);
		generator.nextId("order");
		awaitNext(generator);
		pool.hold();
		draw(generator, "order", 19);
		this.store.setAvailable(false);
		// the first waiting caller runs the queued fetch, which fails; its retry goes to the (held) pool
		assertThatExceptionOfType(SegmentsExhaustedException.class).isThrownBy(() -> generator.nextId("order"))
			.withMessageContaining("simulated outage");
		assertThat(this.store.allocateCalls()).isEqualTo(3);
		// later callers wait for the retry instead of calling the failing store themselves
		for (int i = 0; i < 2; i++) {
			assertThatExceptionOfType(SegmentsExhaustedException.class).isThrownBy(() -> generator.nextId("order"));
		}
		assertThat(this.store.allocateCalls()).isEqualTo(3);
		this.store.setAvailable(true);
		pool.release();
		assertThat(generator.nextId("order")).isEqualTo(20);
	}

	@Test
	void firstCallDuringAnOutageSaysTheFirstRangeDidNotArrive() {
		this.store.createKey("order", 0, 10, "");
		SegmentIdGenerator generator = start(fixedStep().maxWait(Duration.ofMillis(200)));
		this.store.setAvailable(false);
		assertThatExceptionOfType(SegmentsExhaustedException.class).isThrownBy(() -> generator.nextId("order"))
			.withMessageContaining("The first range of key 'order' did not arrive within")
			.withMessageContaining("simulated outage");
		this.store.setAvailable(true);
		assertThat(generator.nextId("order")).isZero();
	}

	@Test
	void slowStoreMakesCallersWaitInsteadOfFailing() {
		this.store.createKey("order", 0, 10, "");
		this.store.setLatency(Duration.ofMillis(300));
		SegmentIdGenerator generator = start(fixedStep());
		long[] ids = draw(generator, "order", 35);
		assertThat(ids).containsExactly(LongStream.range(0, 35).toArray());
		assertThat(this.listener.failedWaits()).isZero();
	}

	@Test
	void rangePastLongMaxValueFailsNamingTheKeyAndNeverWrapsAround() {
		this.store.createKey("order", Long.MAX_VALUE - 3, 3, "");
		SegmentIdGenerator generator = start(fixedStep().maxWait(Duration.ofMillis(50)));
		assertThat(draw(generator, "order", 3)).containsExactly(Long.MAX_VALUE - 3, Long.MAX_VALUE - 2,
				Long.MAX_VALUE - 1);
		// The cursor passes Long.MAX_VALUE and wraps to negative values; none of them may come out as an ID.
		for (int i = 0; i < 4; i++) {
			assertThatExceptionOfType(SegmentKeyExhaustedException.class).isThrownBy(() -> generator.nextId("order"))
				.withMessageContaining("'order'")
				.withMessageContaining("Long.MAX_VALUE");
		}
		assertThat(generator.view("order").orElseThrow().current().remaining()).isZero();
	}

	@Test
	void unknownKeyIsRejected() {
		SegmentIdGenerator generator = start(SegmentOptions.builder());
		assertThatExceptionOfType(UnknownKeyException.class).isThrownBy(() -> generator.nextId("nope"))
			.withMessageContaining("'nope'")
			.satisfies((ex) -> assertThat(ex.getKey()).isEqualTo("nope"));
		assertThat(generator.view("nope")).isEmpty();
	}

	@Test
	void unknownKeysReadTheStoreAtMostOnceASecond() {
		SegmentIdGenerator generator = start(SegmentOptions.builder());
		long start = System.nanoTime();
		int calls = 0;
		while (System.nanoTime() - start < TimeUnit.MILLISECONDS.toNanos(2500)) {
			String junk = "junk-" + calls++;
			assertThatExceptionOfType(UnknownKeyException.class).isThrownBy(() -> generator.nextId(junk));
		}
		assertThat(calls).isGreaterThan(1000);
		// one read of the list at start, then at most one lookup of a key per second (after 1 s and after 2 s)
		assertThat(this.store.keysCalls()).isOne();
		assertThat(this.store.keysMarkerCalls()).isOne();
		assertThat(this.store.containsKeyCalls()).isBetween(2L, 3L);
	}

	@Test
	void aKeyTheStoresMarkerMissedIsFoundByItsLookupWithoutReadingTheList() {
		// A marker that misses a change: a key added by hand, or a failover to a replica that missed writes.
		SegmentStore frozenMarker = new SegmentStore() {

			@Override
			public SegmentAllocation allocate(String key) {
				return SegmentIdGeneratorTests.this.store.allocate(key);
			}

			@Override
			public SegmentAllocation allocate(String key, int step) {
				return SegmentIdGeneratorTests.this.store.allocate(key, step);
			}

			@Override
			public Set<String> keys() {
				return SegmentIdGeneratorTests.this.store.keys();
			}

			@Override
			public boolean containsKey(String key) {
				return SegmentIdGeneratorTests.this.store.containsKey(key);
			}

			@Override
			public String keysMarker() {
				return "unchanged";
			}

		};
		this.store.createKey("old", 0, 10, "");
		// No periodic refresh: the lookup adds the key and clears the marker, so a refresh after it reads the list.
		SegmentIdGenerator generator = new SegmentIdGenerator(frozenMarker,
				SegmentOptions.builder().keyRefreshInterval(Duration.ofHours(1)).build());
		this.generators.add(generator);
		generator.start();
		this.store.createKey("new", 100, 10, "");
		generator.refreshKeysNow();
		await().atMost(Duration.ofSeconds(3))
			.pollInterval(Duration.ofMillis(100))
			.ignoreException(UnknownKeyException.class)
			.until(() -> generator.nextId("new") == 100);
		assertThat(generator.keys()).containsExactlyInAnyOrder("old", "new");
		assertThat(this.store.keysCalls()).as("the list read at start only").isOne();
	}

	@Test
	void keyCreatedAfterStartIsFoundByTheUnknownKeyReadAfterASecond() {
		SegmentIdGenerator generator = start(SegmentOptions.builder());
		this.store.createKey("late", 0, 10, "");
		assertThatExceptionOfType(UnknownKeyException.class).isThrownBy(() -> generator.nextId("late"));
		await().atMost(Duration.ofSeconds(3))
			.pollInterval(Duration.ofMillis(100))
			.ignoreException(UnknownKeyException.class)
			.until(() -> generator.nextId("late") >= 0);
		assertThat(generator.keys()).contains("late");
	}

	@Test
	void aRefreshMakesNewKeysUsable() {
		this.store.createKey("old", 0, 10, "");
		SegmentIdGenerator generator = start(SegmentOptions.builder().keyRefreshInterval(Duration.ofMillis(200)));
		this.store.createKey("new", 0, 10, "");
		await().atMost(Duration.ofSeconds(3)).until(() -> generator.keys().equals(Set.of("old", "new")));
		assertThat(generator.nextId("new")).isZero();
		assertThat(generator.views()).extracting(SegmentBufferView::key).containsExactly("new", "old");
	}

	@Test
	void aRefreshStopsRemovedKeys() {
		this.store.createKey("old", 0, 10, "");
		this.store.createKey("new", 0, 10, "");
		SegmentIdGenerator generator = start(SegmentOptions.builder().keyRefreshInterval(Duration.ofMillis(200)));
		assertThat(generator.nextId("old")).isZero();
		this.store.removeKey("old");
		await().atMost(Duration.ofSeconds(3)).until(() -> generator.keys().equals(Set.of("new")));
		assertThatExceptionOfType(UnknownKeyException.class).isThrownBy(() -> generator.nextId("old"));
		assertThat(generator.views()).extracting(SegmentBufferView::key).containsExactly("new");
	}

	@Test
	void aRefreshReadsTheKeyListOnlyWhenTheStoresMarkerChanged() {
		this.store.createKey("old", 0, 10, "");
		this.store.createKey("used", 0, 10, "");
		SegmentIdGenerator generator = start(SegmentOptions.builder().keyRefreshInterval(Duration.ofHours(1)));
		assertThat(generator.nextId("used")).isZero();
		generator.refreshKeysNow();
		generator.refreshKeysNow();
		assertThat(this.store.keysCalls()).as("the list is read at start only").isOne();
		// Another node swaps a key for another: as many keys as before, a new marker.
		this.store.removeKey("old");
		this.store.createKey("new", 0, 10, "");
		generator.refreshKeysNow();
		assertThat(this.store.keysCalls()).isEqualTo(2);
		assertThat(generator.keys()).containsExactlyInAnyOrder("new", "used");
		this.store.removeKey("used");
		generator.refreshKeysNow();
		assertThat(generator.keys()).containsExactly("new");
		assertThatExceptionOfType(UnknownKeyException.class).isThrownBy(() -> generator.nextId("used"));
		assertThat(generator.missingKeys()).as("a key this node was given a range of").containsOnlyKeys("used");
		generator.refreshKeysNow();
		assertThat(this.store.keysCalls()).isEqualTo(3);
	}

	@Test
	void keyRemovedAndCreatedAgainIsServedAgain() {
		this.store.createKey("order", 0, 10, "");
		SegmentIdGenerator generator = start(SegmentOptions.builder().keyRefreshInterval(Duration.ofMillis(200)));
		assertThat(generator.nextId("order")).isZero();
		this.store.removeKey("order");
		await().atMost(Duration.ofSeconds(3)).until(() -> !generator.keys().contains("order"));
		assertThatExceptionOfType(UnknownKeyException.class).isThrownBy(() -> generator.nextId("order"));
		this.store.createKey("order", 1000, 10, "");
		await().atMost(Duration.ofSeconds(3)).until(() -> generator.keys().contains("order"));
		assertThat(generator.nextId("order")).isEqualTo(1000);
	}

	@Test
	void keyRemovedFromTheStoreStopsOnceItsNextFetchIsRefused() {
		this.store.createKey("order", 0, 10, "");
		SegmentIdGenerator generator = start(fixedStep().maxWait(Duration.ofSeconds(1)));
		generator.nextId("order");
		awaitNext(generator);
		this.store.removeKey("order");
		// 10 is the first number of the range fetched ahead and asks for its successor, which the store refuses
		assertThat(draw(generator, "order", 10)).containsExactly(LongStream.rangeClosed(1, 10).toArray());
		await().atMost(Duration.ofSeconds(5))
			.untilAsserted(() -> assertThatExceptionOfType(UnknownKeyException.class)
				.isThrownBy(() -> generator.nextId("order")));
		assertThat(generator.keys()).doesNotContain("order");
		assertThat(generator.view("order")).isEmpty();
	}

	@Test
	void nextIdsReturnsARunAcrossARangeSwitchWithoutDuplicates() {
		this.store.createKey("order", 0, 10, "");
		SegmentIdGenerator generator = start(fixedStep());
		generator.nextId("order");
		assertThat(generator.nextIds("order", 25)).containsExactly(LongStream.range(1, 26).toArray());
		assertThat(generator.nextIds("order", 1)).containsExactly(26);
		assertThat(generator.view("order").orElseThrow().issuedCount()).isEqualTo(27);
		assertThatIllegalArgumentException().isThrownBy(() -> generator.nextIds("order", 0))
			.withMessage("count must be at least 1: 0");
	}

	@Test
	void nextIdsAndNextIdFromManyThreadsNeverRepeat() throws Exception {
		this.store.createKey("order", 0, 100, "");
		SegmentIdGenerator generator = start(SegmentOptions.builder());
		List<CompletableFuture<List<Long>>> results = new ArrayList<>();
		for (int t = 0; t < 4; t++) {
			boolean batches = (t % 2 == 0);
			results.add(CompletableFuture.supplyAsync(() -> {
				List<Long> ids = new ArrayList<>();
				for (int i = 0; i < 5000; i++) {
					if (batches) {
						for (long id : generator.nextIds("order", 7)) {
							ids.add(id);
						}
					}
					else {
						ids.add(generator.nextId("order"));
					}
				}
				return ids;
			}, runner()));
		}
		Set<Long> all = new HashSet<>();
		int total = 0;
		for (CompletableFuture<List<Long>> result : results) {
			List<Long> ids = result.get(30, TimeUnit.SECONDS);
			assertThat(ids).isSorted();
			all.addAll(ids);
			total += ids.size();
		}
		assertThat(total).isEqualTo(2 * 5000 * 7 + 2 * 5000);
		assertThat(all).hasSize(total);
		assertThat(generator.view("order").orElseThrow().issuedCount()).isEqualTo(total);
	}

	private static java.util.concurrent.Executor runner() {
		return (task) -> new Thread(task).start();
	}

	@Test
	void viewsDescribeEveryKnownKey() {
		this.store.createKey("a", 100, 10, "");
		this.store.createKey("b", 0, 10, "");
		SegmentIdGenerator generator = start(fixedStep());
		draw(generator, "a", 3);
		awaitNext(generator, "a");
		List<SegmentBufferView> views = generator.views();
		assertThat(views).extracting(SegmentBufferView::key).containsExactly("a", "b");
		SegmentBufferView a = views.get(0);
		assertThat(a.current()).isEqualTo(new SegmentView(100, 110, 103));
		assertThat(a.current().remaining()).isEqualTo(7);
		assertThat(a.next()).isEqualTo(new SegmentView(110, 120, 110));
		assertThat(a.issuedCount()).isEqualTo(3);
		assertThat(a.step()).isEqualTo(10);
		assertThat(a.lastFetchDuration()).isNotNull();
		assertThat(a.fetchInFlight()).isFalse();
		assertThat(a.loaded()).isTrue();
		assertThat(views.get(1).loaded()).isFalse();
		assertThat(views.get(1).issuedCount()).isZero();
	}

	private static void awaitNext(SegmentIdGenerator generator, String key) {
		await().atMost(Duration.ofSeconds(5)).until(() -> generator.view(key).orElseThrow().next() != null);
	}

	@Test
	void generatorMustBeStartedOnce() {
		SegmentIdGenerator generator = new SegmentIdGenerator(this.store, SegmentOptions.defaults());
		this.generators.add(generator);
		assertThatIllegalStateException().isThrownBy(() -> generator.nextId("order"))
			.withMessageContaining("call start() first");
		generator.start();
		assertThatIllegalStateException().isThrownBy(generator::start).withMessageContaining("already started");
	}

	@Test
	void startFailsWhenTheStoreIsDownAndCanBeRetried() {
		this.store.setAvailable(false);
		SegmentIdGenerator generator = new SegmentIdGenerator(this.store, SegmentOptions.defaults());
		this.generators.add(generator);
		assertThatExceptionOfType(SegmentStoreException.class).isThrownBy(generator::start);
		this.store.setAvailable(true);
		generator.start();
		assertThat(generator.keys()).isEmpty();
	}

	@Test
	void closeFailsEveryCallFromThenOnEvenOneAlreadyWaiting() throws Exception {
		this.store.createKey("order", 0, 10, "");
		SegmentIdGenerator generator = new SegmentIdGenerator(this.store, SegmentOptions.builder()
			.maxWait(Duration.ofSeconds(10))
			.build(), TimeSource.system(), IdWorkerListener.NONE, null);
		generator.start();
		this.store.setLatency(Duration.ofSeconds(3));
		CompletableFuture<Long> waiting = CompletableFuture.supplyAsync(() -> generator.nextId("order"), runner());
		Thread.sleep(200);
		long start = System.nanoTime();
		generator.close();
		assertThatExceptionOfType(ExecutionException.class).isThrownBy(() -> waiting.get(2, TimeUnit.SECONDS))
			.withCauseInstanceOf(IllegalStateException.class)
			.withMessageContaining("closed");
		assertThat(System.nanoTime() - start).isLessThan(TimeUnit.SECONDS.toNanos(2));
		assertThatIllegalStateException().isThrownBy(() -> generator.nextId("order")).withMessageContaining("closed");
		generator.close();
	}


	/**
	 * A prefetch executor that runs tasks at once on the submitting thread until held, then queues them until
	 * released.
	 */
	private static final class HeldExecutor implements java.util.concurrent.Executor {

		private final List<Runnable> queue = new java.util.concurrent.CopyOnWriteArrayList<>();

		private volatile boolean held;

		@Override
		public void execute(Runnable task) {
			if (this.held) {
				this.queue.add(task);
			}
			else {
				task.run();
			}
		}

		void hold() {
			this.held = true;
		}

		int queued() {
			return this.queue.size();
		}

		/** Runs the queued tasks in order and stops holding. */
		void release() {
			this.held = false;
			List<Runnable> tasks = new ArrayList<>(this.queue);
			this.queue.clear();
			tasks.forEach(Runnable::run);
		}

	}

}
