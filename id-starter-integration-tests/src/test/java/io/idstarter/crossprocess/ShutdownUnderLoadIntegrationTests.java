package io.idstarter.crossprocess;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;

import io.idstarter.IdWorkerListener;
import io.idstarter.lease.LeaseSettings;
import io.idstarter.lease.WorkerLeaseKeeper;
import io.idstarter.snowflake.ClockBackwardsPolicy;
import io.idstarter.snowflake.SnowflakeIdGenerator;
import io.idstarter.snowflake.SnowflakeLayout;
import io.idstarter.snowflake.WorkerIdUnavailableException;
import io.idstarter.time.TimeSource;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A node shuts down under load and a new owner of its worker ID, whose clock is a few hundred milliseconds behind
 * (well within the default 2 s clock-skew guard), takes the slot at once, as a restart on the same host with the
 * worker-ID cache file does. Repeated for a bounded number of rounds, to catch the race between
 * {@link WorkerLeaseKeeper#close()} and calls already inside {@code nextId} / {@code nextIds}.
 *
 * <p>Each round: node A (system clock, default {@link LeaseSettings} but for the namespace and the cache file) leases
 * a worker ID; {@value #LOAD_THREADS} threads call {@code nextId} and {@code nextIds} as fast as they can; after
 * {@link #LOAD_BEFORE_CLOSE} the keeper is closed: it revokes the generator and gives the worker ID back with the
 * last timestamp issued, the slot's new floor. Node B, its clock {@link #BEHIND} behind, starts at once with the same
 * cache file, gets the same worker ID, waits for its clock to pass the floor and issues above it for
 * {@link #WINDOW} of its clock. Checked over every round: no ID of A has a timestamp above the last timestamp A
 * reported when it gave the worker ID back (such an ID was issued after {@code close()} revoked the grant), and no ID
 * was issued by both.
 */
class ShutdownUnderLoadIntegrationTests {

	private static final Logger logger = LoggerFactory.getLogger(ShutdownUnderLoadIntegrationTests.class);

	private static final SnowflakeLayout LAYOUT = DrillLayout.of(2);

	/** Threads of A in nextId / nextIds: many more than this 2-core machine's cores, so some are preempted mid-call. */
	private static final int LOAD_THREADS = 16;

	/** How long A's threads issue before the keeper is closed. */
	private static final Duration LOAD_BEFORE_CLOSE = Duration.ofMillis(40);

	/** How far B's clock is behind A's (and the store's). */
	private static final Duration BEHIND = Duration.ofMillis(250);

	/** How far past the floor, by its own clock, B issues. */
	private static final Duration WINDOW = Duration.ofMillis(150);

	private static final int MAX_ROUNDS = 30;

	/** Rounds stop after this long per store, even if fewer than {@link #MAX_ROUNDS} ran. */
	private static final Duration TIME_BOUND = Duration.ofSeconds(12);

	static List<StoreKind> stores() {
		return StoreKind.selected().stream()
			.filter((kind) -> kind == StoreKind.POSTGRESQL || kind == StoreKind.MARIADB)
			.toList();
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("stores")
	void aNewOwnerWithAClockBehindNeverRepeatsAnIdOfANodeThatShutDownUnderLoad(StoreKind kind) throws Exception {
		StoreSpec spec = kind.locate("xd_" + UUID.randomUUID().toString().replace("-", "").substring(0, 10));
		logger.info("Shutdown-under-load drill on {} from {}", spec, kind.origin());
		Path cache = Files.createTempFile("id-drill-shutdown-", ".worker-id");
		Files.delete(cache);
		Totals totals = new Totals();
		try (DrillStore store = DrillStore.open(spec)) {
			store.createSchema();
			try {
				long deadline = System.nanoTime() + TIME_BOUND.toNanos();
				while (totals.rounds < MAX_ROUNDS && System.nanoTime() - deadline < 0) {
					totals.add(round(store, spec, cache, totals.rounds));
				}
			}
			finally {
				store.dropAll();
				Files.deleteIfExists(cache);
			}
		}
		logger.info("Shutdown under load on {}: {} rounds, the closing nodes issued {} IDs, {} IDs checked (the last "
				+ "{} of each closing thread, {} by the new owners), {} IDs issued after close() above the reported "
				+ "last timestamp (in {} rounds; up to {} ms above it), "
				+ "{} duplicates (in {} rounds); the new owner issued its first ID {} to {} ms after the old one "
				+ "gave the worker ID back; {}", kind, totals.rounds, totals.issuedA,
				totals.idsA + totals.idsB, Tail.SIZE, totals.idsB, totals.late, totals.roundsWithLate, totals.mostLateMillis,
				totals.duplicates, totals.roundsWithDuplicates, totals.minTakeover,
				totals.maxTakeover, totals.examples);
		assertThat(new long[] { totals.late, totals.duplicates })
			.as("over %d rounds: IDs of a closing node above the last timestamp it reported when it gave the worker "
					+ "ID back, and IDs issued by both it and the new owner; e.g. %s", totals.rounds, totals.examples)
			.containsExactly(0, 0);
	}

	private Round round(DrillStore store, StoreSpec spec, Path cache, int index) throws Exception {
		EventLog.MemoryLog logA = EventLog.inMemory("A");
		EventLog.MemoryLog logB = EventLog.inMemory("B");
		SnowflakeIdGenerator generatorA = generator(TimeSource.system());
		TimeSource behind = new OffsetClock(-BEHIND.toMillis());
		SnowflakeIdGenerator generatorB = generator(behind);
		WorkerLeaseKeeper keeperA = keeper(store, logA, generatorA, spec, cache, "a" + index, TimeSource.system());
		WorkerLeaseKeeper keeperB = keeper(store, logB, generatorB, spec, cache, "b" + index, behind);
		keeperA.start();
		int worker = generatorA.workerId().orElseThrow();
		List<Issuer> load = new ArrayList<>();
		CountDownLatch running = new CountDownLatch(LOAD_THREADS);
		for (int i = 0; i < LOAD_THREADS; i++) {
			int batch = (i % 2 == 0) ? 1 : 8;
			load.add(Issuer.start("a" + i, () -> issueUntilRefused(generatorA, running, batch)));
		}
		running.await();
		Thread.sleep(LOAD_BEFORE_CLOSE.toMillis());
		keeperA.close();
		long releasedAt = System.currentTimeMillis();

		// B takes the worker ID at once; its threads ask until it is granted, then issue through the window.
		OwnerB b = new OwnerB(generatorB, behind);
		try {
			keeperB.start();
			assertThat(generatorB.workerId()).as("worker ID of the new owner (from the cache file)").hasValue(worker);
			b.issueUntil(logB.events().stream().filter((event) -> event.kind().equals("lease-borrow-ok"))
				.findFirst().orElseThrow().longField("floor") + WINDOW.toMillis());
			long[] idsB = b.join();
			long reported = logA.events().stream().filter((event) -> event.kind().equals("lease-release-start"))
				.findFirst().orElseThrow().longField("last");
			LongList idsA = new LongList();
			long issuedA = 0;
			for (Issuer issuer : load) {
				Tail tail = issuer.join().tail;
				issuedA += tail.count;
				long[] kept = tail.toArray();
				// A thread's IDs increase: if its oldest kept ID is not above the mark, none it dropped was.
				assertThat(tail.count == kept.length || timestamp(kept[0]) <= reported)
					.as("the tail kept by %s reaches below the reported mark", issuer).isTrue();
				idsA.addAll(kept);
			}
			long[] a = idsA.toArray();
			long late = 0;
			long lateExample = -1;
			long mostLate = 0;
			for (long id : a) {
				if (timestamp(id) > reported) {
					late++;
					lateExample = id;
					mostLate = Math.max(mostLate, timestamp(id) - reported);
				}
			}
			Map<String, long[]> ids = new LinkedHashMap<>();
			ids.put("A", a);
			ids.put("B", idsB);
			IdSet all = IdSet.of(ids);
			long duplicates = all.duplicateCount();
			@Nullable String example = (duplicates > 0) ? "round " + index + ": " + all.describeDuplicates(2)
					: (late > 0) ? "round " + index + ": A issued " + lateExample + " (timestamp " + timestamp(
							lateExample) + ") after reporting " + reported : null;
			return new Round(issuedA, a.length, idsB.length, late, mostLate, duplicates, b.firstIssuedAt - releasedAt,
					example);
		}
		finally {
			b.stop();
			keeperB.close();
		}
	}

	private static long timestamp(long id) {
		return LAYOUT.parse(id).timestamp().toEpochMilli();
	}

	/**
	 * One thread of A's load: issues as fast as it can until the generator refuses (the keeper closed).
	 */
	private static Outcome issueUntilRefused(SnowflakeIdGenerator generator, CountDownLatch running, int batch) {
		Tail tail = new Tail();
		running.countDown();
		for (;;) {
			try {
				if (batch == 1) {
					tail.add(generator.nextId());
				}
				else {
					for (long id : generator.nextIds("", batch)) {
						tail.add(id);
					}
				}
			}
			catch (WorkerIdUnavailableException ex) {
				return new Outcome(null, tail);
			}
		}
	}

	/**
	 * The last IDs one of A's threads issued, and how many it issued in all: millions a round, of which only the
	 * last can be above the mark A reports (after close() revokes the grant a thread gets at most one more run).
	 */
	private static final class Tail {

		private static final int SIZE = 4096;

		private final long[] ring = new long[SIZE];

		long count;

		void add(long id) {
			this.ring[(int) (this.count++ & (SIZE - 1))] = id;
		}

		/** Returns the kept IDs, oldest first. */
		long[] toArray() {
			int kept = (int) Math.min(this.count, SIZE);
			long[] ids = new long[kept];
			for (int i = 0; i < kept; i++) {
				ids[i] = this.ring[(int) ((this.count - kept + i) & (SIZE - 1))];
			}
			return ids;
		}

	}

	private static SnowflakeIdGenerator generator(TimeSource time) {
		return new SnowflakeIdGenerator(LAYOUT, time, ClockBackwardsPolicy.defaults(), IdWorkerListener.NONE);
	}

	private static WorkerLeaseKeeper keeper(DrillStore store, EventLog log, SnowflakeIdGenerator generator,
			StoreSpec spec, Path cache, String instance, TimeSource time) {
		LeaseSettings settings = LeaseSettings.builder()
			.namespace(spec.name())
			.instance(instance)
			.cacheFile(cache)
			.build();
		return new WorkerLeaseKeeper(new RecordingLeaseStore(store.sequenceManager(), log), generator, settings,
				time, IdWorkerListener.NONE);
	}

	/**
	 * This machine's clock, shifted.
	 */
	private record OffsetClock(long offsetMillis) implements TimeSource {

		@Override
		public long currentTimeMillis() {
			return System.currentTimeMillis() + this.offsetMillis;
		}

		@Override
		public long nanoTime() {
			return System.nanoTime();
		}

	}

	/**
	 * The new owner's two threads (one on nextId, one on nextIds), started before its keeper so that they issue as
	 * soon as the worker ID is granted; paced, so that they cover every millisecond without millions of IDs.
	 */
	private static final class OwnerB {

		private final SnowflakeIdGenerator generator;

		private final TimeSource clock;

		private final List<Issuer> issuers = new ArrayList<>();

		/** B's clock at which its threads stop; set once the floor is known. */
		private volatile long until = Long.MAX_VALUE;

		private volatile boolean stopped;

		/** Wall-clock ms (this machine's) when B's first ID was issued; 0 before. */
		volatile long firstIssuedAt;

		OwnerB(SnowflakeIdGenerator generator, TimeSource clock) {
			this.generator = generator;
			this.clock = clock;
			this.issuers.add(Issuer.start("b0", () -> issue(1)));
			this.issuers.add(Issuer.start("b1", () -> issue(4)));
		}

		private Outcome issue(int batch) {
			LongList ids = new LongList();
			while (!this.stopped && this.clock.currentTimeMillis() <= this.until) {
				try {
					if (batch == 1) {
						ids.add(this.generator.nextId());
					}
					else {
						ids.addAll(this.generator.nextIds("", batch));
					}
					if (this.firstIssuedAt == 0) {
						this.firstIssuedAt = System.currentTimeMillis();
					}
				}
				catch (WorkerIdUnavailableException ex) {
					// Not granted yet.
				}
				LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(50));
			}
			return new Outcome(ids, null);
		}

		void issueUntil(long clockMillis) {
			this.until = clockMillis;
		}

		void stop() {
			this.stopped = true;
		}

		long[] join() throws InterruptedException {
			LongList ids = new LongList();
			for (Issuer issuer : this.issuers) {
				ids.addAll(Objects.requireNonNull(issuer.join().ids).toArray());
			}
			return ids.toArray();
		}

	}

	/**
	 * A platform thread that issues IDs and hands back what it issued.
	 */
	private static final class Issuer {

		private final Thread thread;

		private volatile @Nullable Outcome outcome;

		private volatile @Nullable Throwable failure;

		private Issuer(String name, Supplier<Outcome> work) {
			this.thread = new Thread(() -> {
				try {
					this.outcome = work.get();
				}
				catch (Throwable ex) {
					this.failure = ex;
				}
			}, "shutdown-drill-" + name);
			this.thread.setDaemon(true);
		}

		static Issuer start(String name, Supplier<Outcome> work) {
			Issuer issuer = new Issuer(name, work);
			issuer.thread.start();
			return issuer;
		}

		Outcome join() throws InterruptedException {
			this.thread.join(TimeUnit.SECONDS.toMillis(30));
			if (this.thread.isAlive()) {
				throw new AssertionError(this.thread.getName() + " still issuing 30 s after it should have stopped");
			}
			Throwable failure = this.failure;
			if (failure != null) {
				throw new AssertionError(this.thread.getName() + " failed", failure);
			}
			return Objects.requireNonNull(this.outcome);
		}

		@Override
		public String toString() {
			return this.thread.getName();
		}

	}

	/**
	 * What a thread issued: all of it (B) or the tail (A).
	 */
	private record Outcome(@Nullable LongList ids, @Nullable Tail tail) {
	}

	private record Round(long issuedA, long idsA, long idsB, long late, long mostLateMillis, long duplicates,
			long takeoverMillis,
			@Nullable String example) {
	}

	/**
	 * The figures of every round so far.
	 */
	private static final class Totals {

		int rounds;

		long issuedA;

		long idsA;

		long idsB;

		long late;

		int roundsWithLate;

		long mostLateMillis;

		long duplicates;

		int roundsWithDuplicates;

		long minTakeover = Long.MAX_VALUE;

		long maxTakeover = Long.MIN_VALUE;

		final List<String> examples = new ArrayList<>();

		void add(Round round) {
			this.rounds++;
			this.issuedA += round.issuedA;
			this.idsA += round.idsA;
			this.idsB += round.idsB;
			this.late += round.late;
			this.roundsWithLate += (round.late > 0) ? 1 : 0;
			this.mostLateMillis = Math.max(this.mostLateMillis, round.mostLateMillis);
			this.duplicates += round.duplicates;
			this.roundsWithDuplicates += (round.duplicates > 0) ? 1 : 0;
			this.minTakeover = Math.min(this.minTakeover, round.takeoverMillis);
			this.maxTakeover = Math.max(this.maxTakeover, round.takeoverMillis);
			if (round.example != null && this.examples.size() < 3) {
				this.examples.add(round.example);
			}
		}

	}

}
