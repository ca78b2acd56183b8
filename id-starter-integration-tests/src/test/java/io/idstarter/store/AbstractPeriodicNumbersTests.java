package io.idstarter.store;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import io.idstarter.IdWorkerListener;
import io.idstarter.lease.LeaseSettings;
import io.idstarter.segment.PeriodicKey;
import io.idstarter.segment.PeriodicKeyMismatchException;
import io.idstarter.segment.PeriodicNumbers;
import io.idstarter.segment.PeriodicWidthExceededException;
import io.idstarter.segment.ResetPeriod;
import io.idstarter.segment.SegmentIdGenerator;
import io.idstarter.segment.SegmentOptions;
import io.idstarter.segment.SegmentStore;
import io.idstarter.time.ManualTimeSource;
import io.idstarter.time.TimeSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * {@link PeriodicNumbers} on a real segment store: the call at midnight, two nodes whose clocks differ by the lease
 * keeper's clock-skew bound, nodes in another zone or with another reset refused at start by the settings recorded in
 * the store, the width of the format, and the deletion of old periods
 * (or, on a store that cannot delete, their keeping). Each test uses keys of its own.
 */
public abstract class AbstractPeriodicNumbersTests {

	/** A zone east of UTC, so that its midnight is not UTC's. */
	private static final ZoneId ZONE = ZoneId.of("Asia/Shanghai");

	/** Midnight between 26 and 27 November 2026 in {@link #ZONE}. */
	private static final Instant MIDNIGHT = LocalDateTime.of(2026, 11, 27, 0, 0).atZone(ZONE).toInstant();

	/**
	 * Difference between two nodes' clocks in the two-node test: the lease keeper's default bound on a node's clock
	 * against the store's ({@code id-worker.lease.max-clock-skew}).
	 */
	private static final Duration SKEW_BOUND = LeaseSettings.DEFAULT_MAX_CLOCK_SKEW;

	/** Time between two calls of each node in the two-node test. */
	private static final Duration TICK = Duration.ofMillis(50);

	private final List<SegmentIdGenerator> generators = new ArrayList<>();

	/**
	 * Returns a new store object on the shared server, as another node would have.
	 * @return the store, also a {@code SegmentKeyAdmin}
	 */
	protected abstract SegmentStore newStore();

	/**
	 * Returns whether the store deletes keys, so that the retention of periodic keys applies.
	 * @return {@code true} unless overridden
	 */
	protected boolean deletesKeys() {
		return true;
	}

	@AfterEach
	void closeGenerators() {
		this.generators.forEach(SegmentIdGenerator::close);
	}

	@Test
	void theCallAtMidnightGetsTheNewDaysPrefixWithTheNewDaysCounter() {
		String key = uniqueKey();
		ManualTimeSource clock = new ManualTimeSource(MIDNIGHT.minusMillis(2));
		SegmentStore store = newStore();
		PeriodicNumbers numbers = numbers(store, clock,
				PeriodicKey.of(key, ResetPeriod.DAILY, "INV-{yyyyMMdd}-{seq:6}"));

		assertThat(numbers.next(key)).isEqualTo("INV-20261126-000001");
		clock.advanceMillis(1); // 23:59:59.999
		assertThat(numbers.next(key)).isEqualTo("INV-20261126-000002");
		clock.advanceMillis(1); // 00:00:00.000
		assertThat(numbers.next(key)).isEqualTo("INV-20261127-000001");
		clock.advanceMillis(1);
		assertThat(numbers.next(key)).isEqualTo("INV-20261127-000002");

		assertThat(store.keys()).contains(key + ":20261126", key + ":20261127");
	}

	@Test
	void monthlyAndYearlyKeysStartAgainAtTheirOwnBoundaries() {
		String monthly = uniqueKey();
		String yearly = uniqueKey();
		Instant newYear = LocalDateTime.of(2027, 1, 1, 0, 0).atZone(ZONE).toInstant();
		ManualTimeSource clock = new ManualTimeSource(newYear.minusMillis(1));
		PeriodicNumbers numbers = numbers(newStore(), clock,
				PeriodicKey.of(monthly, ResetPeriod.MONTHLY, "M{yyyyMM}{seq:4}"),
				PeriodicKey.of(yearly, ResetPeriod.YEARLY, "{yyyy}/{seq}"));

		assertThat(numbers.next(monthly)).isEqualTo("M2026120001");
		assertThat(numbers.next(yearly)).isEqualTo("2026/1");
		clock.advanceMillis(1);
		assertThat(numbers.next(monthly)).isEqualTo("M2027010001");
		assertThat(numbers.next(yearly)).isEqualTo("2027/1");
	}

	@Test
	void twoNodesWhoseClocksDifferByTheSkewBoundNeverIssueTheSameNumberAndStayWithinTheBound() {
		String key = uniqueKey();
		PeriodicKey declared = PeriodicKey.of(key, ResetPeriod.DAILY, "{yyyyMMdd}-{seq:6}").withStep(7);
		Instant start = MIDNIGHT.minus(SKEW_BOUND.multipliedBy(2));
		Instant stop = MIDNIGHT.plus(SKEW_BOUND.multipliedBy(2));
		ManualTimeSource ahead = new ManualTimeSource(start.plus(SKEW_BOUND));
		ManualTimeSource behind = new ManualTimeSource(start);
		PeriodicNumbers a = numbers(newStore(), ahead, declared);
		PeriodicNumbers b = numbers(newStore(), behind, declared);
		DateTimeFormatter day = DateTimeFormatter.ofPattern("yyyyMMdd");
		Set<String> issued = new HashSet<>();
		int oldDayOfAheadNode = 0;
		int newDayOfBehindNode = 0;
		int ticks = 0;
		// True time runs from twice the bound before to twice the bound after midnight; node a reads true time plus
		// the bound, node b true time.
		for (Instant truth = start; truth.isBefore(stop); truth = truth.plus(TICK)) {
			ticks++;
			ahead.setWallClock(truth.plus(SKEW_BOUND));
			behind.setWallClock(truth);
			for (int i = 0; i < 3; i++) {
				for (PeriodicNumbers node : List.of(a, b)) {
					String number = node.next(key);
					assertThat(issued.add(number)).as("issued twice: %s", number).isTrue();
					String earliest = day.format(LocalDate.ofInstant(truth.minus(SKEW_BOUND), ZONE));
					String latest = day.format(LocalDate.ofInstant(truth.plus(SKEW_BOUND), ZONE));
					assertThat(number.substring(0, 8)).isBetween(earliest, latest);
					if (node == a && number.startsWith("20261126") && !truth.isBefore(MIDNIGHT.minus(SKEW_BOUND))) {
						oldDayOfAheadNode++;
					}
					if (node == b && number.startsWith("20261127")) {
						newDayOfBehindNode++;
					}
				}
			}
		}
		// The node ahead switched SKEW_BOUND early, the node behind exactly at midnight, never earlier.
		assertThat(oldDayOfAheadNode).isZero();
		assertThat(newDayOfBehindNode).isEqualTo(3 * ticks / 2);
		assertThat(issued).hasSize(2 * 3 * ticks);
	}

	@Test
	void aNodeInAZoneWhoseDateDiffersIsRefusedAtStartBeforeAnyPeriodExistsAndAZoneOfTheSameRulesIsNot() {
		String key = uniqueKey();
		PeriodicKey declared = PeriodicKey.of(key, ResetPeriod.DAILY, "{yyyyMMdd}-{seq:6}");
		// 20:00 UTC: the 26th in UTC, the 27th in Shanghai.
		ManualTimeSource clock = new ManualTimeSource(Instant.parse("2026-11-26T20:00:00Z"));
		PeriodicNumbers utc = new PeriodicNumbers(generator(newStore(), Duration.ofMinutes(5)), newStore(),
				List.of(declared), ZoneId.of("UTC"), clock);
		SegmentStore store = newStore();
		assertThatExceptionOfType(PeriodicKeyMismatchException.class)
			.isThrownBy(() -> new PeriodicNumbers(generator(store, Duration.ofMinutes(5)), store, List.of(declared),
					ZONE, clock))
			.withMessageContaining("'" + key + "'")
			.withMessageContaining("zone UTC")
			.withMessageContaining("zone " + ZONE.getId())
			.withMessageContaining("id-worker.segment.periodic-zone");
		assertThat(utc.next(key)).isEqualTo("20261126-000001");
		PeriodicNumbers etcUtc = new PeriodicNumbers(generator(store, Duration.ofMinutes(5)), store,
				List.of(declared), ZoneId.of("Etc/UTC"), clock);
		assertThat(etcUtc.next(key)).isEqualTo("20261126-000101");
		assertThat(store.keys()).contains(key + ":settings", key + ":20261126").doesNotContain(key + ":20261127");
	}

	@Test
	void aDailyAndAMonthlyNodeOfOneKeyNeverWriteTheSameStringTheLaterIsRefusedAtStart() {
		String key = uniqueKey();
		String format = "INV-{yyyyMMdd}-{seq:6}";
		ManualTimeSource clock = new ManualTimeSource(MIDNIGHT.plus(Duration.ofHours(10)));
		PeriodicNumbers daily = numbers(newStore(), clock, PeriodicKey.of(key, ResetPeriod.DAILY, format));
		// The monthly node would draw from <key>:202611, from the first number, and write INV-20261127-000001 too.
		SegmentStore store = newStore();
		assertThatExceptionOfType(PeriodicKeyMismatchException.class)
			.isThrownBy(() -> new PeriodicNumbers(generator(store, Duration.ofMinutes(5)), store,
					List.of(PeriodicKey.of(key, ResetPeriod.MONTHLY, format)), ZONE, clock))
			.withMessageContaining("reset DAILY")
			.withMessageContaining("reset MONTHLY")
			.withMessageContaining("id-worker.segment.periodic-keys." + key + ".reset");
		assertThat(daily.next(key)).isEqualTo("INV-20261127-000001");
		assertThat(store.keys()).doesNotContain(key + ":202611");
	}

	@Test
	void threadsOfTwoNodesDrawingWhileTheClockCrossesMidnightNeverRepeatAString() throws Exception {
		String key = uniqueKey();
		// nine digits: unpaced threads must not run out of numbers within the period, on however fast a machine
		PeriodicKey declared = PeriodicKey.of(key, ResetPeriod.DAILY, "{yyyyMMdd}-{seq:9}").withStep(5);
		ManualTimeSource clock = new ManualTimeSource(MIDNIGHT.minusMillis(100));
		List<PeriodicNumbers> nodes = List.of(numbers(newStore(), clock, declared),
				numbers(newStore(), clock, declared));
		Set<String> issued = ConcurrentHashMap.newKeySet();
		AtomicBoolean running = new AtomicBoolean(true);
		AtomicReference<Throwable> failure = new AtomicReference<>();
		List<Thread> threads = new ArrayList<>();
		for (int t = 0; t < 4; t++) {
			PeriodicNumbers node = nodes.get(t % 2);
			Thread thread = new Thread(() -> {
				try {
					while (running.get()) {
						String number = node.next(key);
						if (!issued.add(number)) {
							throw new AssertionError("issued twice: " + number);
						}
					}
				}
				catch (Throwable ex) {
					failure.compareAndSet(null, ex);
				}
			});
			thread.start();
			threads.add(thread);
		}
		await().atMost(Duration.ofSeconds(10)).until(() -> issued.size() >= 50 || failure.get() != null);
		for (int ms = 0; ms < 200; ms++) {
			clock.advanceMillis(1);
			Thread.sleep(1);
		}
		int before = issued.size();
		await().atMost(Duration.ofSeconds(10)).until(() -> issued.size() >= before + 50 || failure.get() != null);
		running.set(false);
		for (Thread thread : threads) {
			thread.join();
		}
		assertThat(failure.get()).isNull();
		assertThat(issued).anyMatch((number) -> number.startsWith("20261126-"))
			.anyMatch((number) -> number.startsWith("20261127-"));
	}

	@Test
	void aNumberBeyondTheWidthFailsNamingTheKeyThePeriodAndTheWidth() {
		String key = uniqueKey();
		ManualTimeSource clock = new ManualTimeSource(MIDNIGHT.plusSeconds(60));
		PeriodicNumbers numbers = numbers(newStore(), clock,
				PeriodicKey.of(key, ResetPeriod.DAILY, "INV-{yyyyMMdd}-{seq:6}").withFirstId(999_998).withStep(5));

		assertThat(numbers.next(key)).isEqualTo("INV-20261127-999998");
		assertThat(numbers.next(key)).isEqualTo("INV-20261127-999999");
		assertThatExceptionOfType(PeriodicWidthExceededException.class).isThrownBy(() -> numbers.next(key))
			.withMessageContaining("'" + key + "'")
			.withMessageContaining("20261127")
			.withMessageContaining("6 digits")
			.satisfies((ex) -> {
				assertThat(ex.getKey()).isEqualTo(key);
				assertThat(ex.getPeriod()).isEqualTo("20261127");
				assertThat(ex.getWidth()).isEqualTo(6);
			});
		// The next day starts again within the width.
		clock.advance(Duration.ofDays(1));
		assertThat(numbers.next(key)).isEqualTo("INV-20261128-999998");
	}

	@Test
	void oldPeriodsAreDeletedAfterTheRetentionButNeverTheCurrentOrPreviousAndOtherNodesDoNotReportThemLost() {
		Assumptions.assumeTrue(deletesKeys(), "the store cannot delete keys");
		String key = uniqueKey();
		PeriodicKey declared = PeriodicKey.of(key, ResetPeriod.DAILY, "{yyyyMMdd}{seq:4}")
			.withRetention(Duration.ofHours(12));
		ManualTimeSource clock = new ManualTimeSource(MIDNIGHT.plusSeconds(1)); // 27 November
		SegmentStore store = newStore();
		PeriodicNumbers first = numbers(store, clock, declared);
		SegmentIdGenerator other = generator(newStore(), Duration.ofMillis(100));
		PeriodicNumbers second = new PeriodicNumbers(other, newStore(), List.of(declared), ZONE, clock);

		assertThat(second.next(key)).isEqualTo("202611270001");
		clock.advance(Duration.ofDays(1)); // 28 November: the 27th is the previous day and stays
		assertThat(first.next(key)).isEqualTo("202611280001");
		assertThat(store.keys()).contains(key + ":20261127", key + ":20261128");
		clock.advance(Duration.ofDays(1)); // 29 November: the 27th ended 48 h ago, past the 12 h retention
		assertThat(first.next(key)).isEqualTo("202611290001");
		assertThat(store.keys()).doesNotContain(key + ":20261127").contains(key + ":20261128", key + ":20261129");

		// The other node was given numbers of the 27th; the key leaving the store is no loss to it.
		assertThat(other.marks().highMark(key + ":20261127")).isPositive();
		await().atMost(Duration.ofSeconds(10))
			.untilAsserted(() -> assertThat(other.marks().highMark(key + ":20261127")).isZero());
		assertThat(other.missingKeys()).isEmpty();
		assertThat(other.refusedKeys()).isEmpty();
		// Its first number of the 29th comes from the range after the one the first node holds (step 100).
		assertThat(second.next(key)).isEqualTo("202611290101");
	}

	@Test
	void aRetentionOfZeroStillKeepsThePreviousPeriod() {
		Assumptions.assumeTrue(deletesKeys(), "the store cannot delete keys");
		String key = uniqueKey();
		PeriodicKey declared = PeriodicKey.of(key, ResetPeriod.DAILY, "{period}-{seq}").withRetention(Duration.ZERO);
		ManualTimeSource clock = new ManualTimeSource(MIDNIGHT.minusSeconds(1));
		SegmentStore store = newStore();
		PeriodicNumbers numbers = numbers(store, clock, declared);

		assertThat(numbers.next(key)).isEqualTo("20261126-1");
		clock.advance(Duration.ofSeconds(2));
		assertThat(numbers.next(key)).isEqualTo("20261127-1");
		assertThat(numbers.removeExpired()).isEmpty();
		assertThat(store.keys()).contains(key + ":20261126");
		clock.advance(Duration.ofDays(1));
		assertThat(numbers.next(key)).isEqualTo("20261128-1");
		assertThat(store.keys()).doesNotContain(key + ":20261126").contains(key + ":20261127");
	}

	@Test
	void aStoreThatCannotDeleteKeepsEveryPeriodAndTheNodeKeepsServingThem() {
		Assumptions.assumeFalse(deletesKeys(), "the store deletes keys");
		String key = uniqueKey();
		PeriodicKey declared = PeriodicKey.of(key, ResetPeriod.DAILY, "{period}-{seq}").withRetention(Duration.ZERO);
		ManualTimeSource clock = new ManualTimeSource(MIDNIGHT.plusSeconds(1));
		SegmentStore store = newStore();
		SegmentIdGenerator generator = generator(store, Duration.ofMinutes(5));
		PeriodicNumbers numbers = new PeriodicNumbers(generator, store, List.of(declared), ZONE, clock);
		for (int day = 27; day <= 30; day++) {
			assertThat(numbers.next(key)).isEqualTo("202611" + day + "-1");
			clock.advance(Duration.ofDays(1));
		}
		assertThat(numbers.removeExpired()).isEmpty();
		assertThat(store.keys()).contains(key + ":20261127", key + ":20261130");
		assertThat(generator.keys()).as("the node forgot none of them").contains(key + ":20261127");
	}

	private PeriodicNumbers numbers(SegmentStore store, TimeSource clock, PeriodicKey... keys) {
		SegmentIdGenerator generator = generator(store, Duration.ofMinutes(5));
		return new PeriodicNumbers(generator, store, List.of(keys), ZONE, clock);
	}

	private SegmentIdGenerator generator(SegmentStore store, Duration keyRefresh) {
		SegmentOptions options = SegmentOptions.builder().keyRefreshInterval(keyRefresh).giveBackOnClose(false).build();
		SegmentIdGenerator generator = new SegmentIdGenerator(store, options, TimeSource.system(),
				IdWorkerListener.NONE, null);
		generator.start();
		this.generators.add(generator);
		return generator;
	}

	private static String uniqueKey() {
		return "periodic-" + UUID.randomUUID().toString().substring(0, 8);
	}

}
