package io.idstarter.segment;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import io.idstarter.StoreRegressionException;
import io.idstarter.time.TimeSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * A store that loses writes (its high mark set back, its key deleted) is refused by the node's high marks, never
 * served, also after a restart of the node; with heal forward, the store is then raised to the mark and the key served
 * again from there.
 */
class SegmentStoreRegressionTests {

	private static final DynamicStep FIXED_STEP = new DynamicStep(Duration.ofMinutes(15), Duration.ofMinutes(30), 1);

	private final InMemorySegmentStore store = new InMemorySegmentStore();

	private final RecordingListener listener = new RecordingListener();

	private final List<SegmentIdGenerator> generators = new ArrayList<>();

	@TempDir
	Path directory;

	@AfterEach
	void close() {
		this.generators.forEach(SegmentIdGenerator::close);
	}

	/** Starts a generator that only refuses a store below its marks. */
	private SegmentIdGenerator start(SegmentMarks marks) {
		return start(marks, false);
	}

	private SegmentIdGenerator start(SegmentMarks marks, boolean healForward) {
		return start(marks, healForward, 0);
	}

	private SegmentIdGenerator start(SegmentMarks marks, SegmentStore store) {
		SegmentIdGenerator generator = new SegmentIdGenerator(store, SegmentOptions.builder().build(),
				TimeSource.system(), this.listener, null, marks);
		this.generators.add(generator);
		generator.start();
		return generator;
	}

	private SegmentIdGenerator start(SegmentMarks marks, boolean healForward, long healMargin) {
		SegmentOptions options = SegmentOptions.builder()
			.dynamicStep(FIXED_STEP)
			.maxWait(Duration.ofMillis(500))
			.keyRefreshInterval(Duration.ofSeconds(1))
			.healForward(healForward)
			.healMargin(healMargin)
			.build();
		SegmentIdGenerator generator = new SegmentIdGenerator(this.store, options, TimeSource.system(), this.listener,
				null, marks);
		this.generators.add(generator);
		generator.start();
		return generator;
	}

	/** Draws IDs until the generator refuses; fails if it serves an ID twice. */
	private static List<Long> drawUntilRefused(SegmentIdGenerator generator, Set<Long> seen) {
		List<Long> served = new ArrayList<>();
		for (int i = 0; i < 10_000; i++) {
			long id;
			try {
				id = generator.nextId("order");
			}
			catch (StoreRegressionException ex) {
				return served;
			}
			assertThat(seen.add(id)).as("ID %d served twice", id).isTrue();
			served.add(id);
		}
		throw new AssertionError("never refused; served " + served.size() + " more IDs");
	}

	@Test
	void rangeBelowTheHighMarkIsRefusedNamingTheKeyAndBothValues() {
		this.store.createKey("order", 0, 10, "");
		SegmentIdGenerator generator = start(SegmentMarks.inMemory());
		Set<Long> seen = new HashSet<>();
		for (int i = 0; i < 25; i++) {
			seen.add(generator.nextId("order"));
		}
		await().atMost(Duration.ofSeconds(5)).until(() -> generator.marks().highMark("order") == 40);
		this.store.resetMaxId("order", 0);
		List<Long> served = drawUntilRefused(generator, seen);
		assertThat(served).as("the numbers already in memory are served").containsExactly(25L, 26L, 27L, 28L, 29L,
				30L, 31L, 32L, 33L, 34L, 35L, 36L, 37L, 38L, 39L);
		StoreRegressionException refusal = catchRegression(generator);
		assertThat(refusal.subject()).isEqualTo("segment key 'order'");
		assertThat(refusal.knownMark()).isEqualTo(40);
		assertThat(refusal.storeMark()).isZero();
		assertThat(refusal).hasMessageContaining("[0, 10)").hasMessageContaining("'order'").hasMessageContaining("40");
		assertThat(refusal).hasMessageContaining("the store lost writes while this node ran")
			.hasMessageNotContaining("new or recreated database");
		assertThat(generator.refusedKeys()).containsOnlyKeys("order");
		assertThat(this.listener.refusals).first().isEqualTo(new RecordingListener.Refusal("order", 40, 0));
	}

	@Test
	void refusedKeyIsServedAgainOnceTheStoreIsAboveTheMark() {
		this.store.createKey("order", 0, 10, "");
		SegmentIdGenerator generator = start(SegmentMarks.inMemory());
		Set<Long> seen = new HashSet<>();
		drawSome(generator, seen, 5);
		await().atMost(Duration.ofSeconds(5)).until(() -> generator.marks().highMark("order") == 20);
		this.store.resetMaxId("order", 0);
		drawUntilRefused(generator, seen);
		// an operator raises max_id above every node's mark
		this.store.resetMaxId("order", 1000);
		await().atMost(Duration.ofSeconds(10)).ignoreExceptions()
			.untilAsserted(() -> assertThat(generator.nextId("order")).isGreaterThanOrEqualTo(1000));
		assertThat(generator.refusedKeys()).isEmpty();
	}

	@Test
	void aStoreBelowTheMarkIsRaisedToItAndTheKeyServedAgainFromThere() {
		this.store.createKey("order", 0, 10, "");
		SegmentIdGenerator generator = start(SegmentMarks.inMemory(), true);
		Set<Long> seen = new HashSet<>();
		drawSome(generator, seen, 25);
		await().atMost(Duration.ofSeconds(5)).until(() -> generator.marks().highMark("order") == 40);
		this.store.resetMaxId("order", 0);
		long refusedAt = System.nanoTime();
		List<Long> served = new ArrayList<>();
		int refused = 0;
		while (served.size() < 100) {
			assertThat(Duration.ofNanos(System.nanoTime() - refusedAt)).as("served %s so far", served)
				.isLessThan(Duration.ofSeconds(5));
			try {
				long id = generator.nextId("order");
				assertThat(seen.add(id)).as("ID %d served twice", id).isTrue();
				served.add(id);
			}
			catch (StoreRegressionException ex) {
				refused++;
			}
		}
		assertThat(Duration.ofNanos(System.nanoTime() - refusedAt)).as("served again well before the retry interval")
			.isLessThan(Duration.ofMillis(900));
		assertThat(refused).as("callers refused while the store was below the mark (the heal may beat them)")
			.isNotNegative();
		assertThat(served.subList(0, 15)).as("the numbers already in memory").startsWith(25L).endsWith(39L);
		// [0, 10) was refused and stays a gap; the store was raised to the mark 40.
		assertThat(served.get(15)).isEqualTo(40);
		assertThat(served).as("nothing below what was served before the loss")
			.allSatisfy((id) -> assertThat(id).isGreaterThanOrEqualTo(25));
		assertThat(this.listener.refusals).first().isEqualTo(new RecordingListener.Refusal("order", 40, 0));
		assertThat(generator.refusedKeys()).isEmpty();
	}

	@Test
	void healForwardMovesTheStorePastTheMarkByTheMargin() {
		this.store.createKey("order", 0, 10, "");
		SegmentIdGenerator generator = start(SegmentMarks.inMemory(), true, 1000);
		Set<Long> seen = new HashSet<>();
		drawSome(generator, seen, 25);
		await().atMost(Duration.ofSeconds(5)).until(() -> generator.marks().highMark("order") == 40);
		this.store.resetMaxId("order", 0);
		drawSome(generator, seen, 15);
		// Numbers another node may have been given above this node's mark in the lost window stay untouched.
		await().atMost(Duration.ofSeconds(5)).until(() -> this.store.maxId("order").orElse(0) >= 1050);
		await().atMost(Duration.ofSeconds(5)).ignoreExceptions()
			.untilAsserted(() -> assertThat(generator.nextId("order")).isEqualTo(1040));
	}

	@Test
	void aVanishedKeyIsCreatedAgainAtTheMarkWithinARefreshSoThatANodeJoiningLaterRepeatsNothing() {
		this.store.createKey("order", 0, 10, "");
		SegmentIdGenerator running = start(SegmentMarks.inMemory(), true);
		Set<Long> seen = new HashSet<>();
		drawSome(running, seen, 5);
		await().atMost(Duration.ofSeconds(5)).until(() -> running.marks().highMark("order") == 20);
		this.store.removeKey("order");
		// The running node draws nothing meanwhile: its key refresh (1 s) alone must notice and heal.
		await().atMost(Duration.ofSeconds(3)).until(() -> this.store.keys().contains("order"));
		assertThat(this.listener.refusals).contains(new RecordingListener.Refusal("order", 20, -1));
		// A node that joins now, with no marks of its own, sets the key up as configured: it exists already.
		assertThat(this.store.createKey("order", 0, 10, "")).isFalse();
		SegmentIdGenerator joining = start(SegmentMarks.inMemory(), true);
		for (int i = 0; i < 50; i++) {
			long id = joining.nextId("order");
			assertThat(id).as("from the running node's mark on").isGreaterThanOrEqualTo(20);
			assertThat(seen.add(id)).as("ID %d served twice", id).isTrue();
		}
		await().atMost(Duration.ofSeconds(5)).ignoreExceptions()
			.untilAsserted(() -> assertThat(seen.add(running.nextId("order"))).isTrue());
		drawSome(running, seen, 50);
		assertThat(running.missingKeys()).isEmpty();
	}

	@Test
	void aKeyCreatedAgainBelowTheMarkByAJoiningNodeIsRaisedToIt() {
		this.store.createKey("order", 0, 10, "");
		SegmentIdGenerator running = start(SegmentMarks.inMemory(), true);
		Set<Long> seen = new HashSet<>();
		drawSome(running, seen, 5);
		await().atMost(Duration.ofSeconds(5)).until(() -> running.marks().highMark("order") == 20);
		// Lost and created again at its first ID before the running node's refresh saw it missing.
		this.store.removeKey("order");
		this.store.createKey("order", 0, 10, "");
		long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
		List<Long> served = new ArrayList<>();
		while (served.size() < 40) {
			assertThat(System.nanoTime() - deadline).as("served %s so far", served).isNegative();
			try {
				long id = running.nextId("order");
				assertThat(seen.add(id)).as("ID %d served twice", id).isTrue();
				served.add(id);
			}
			catch (StoreRegressionException ex) {
				// refused until the store is raised
			}
		}
		assertThat(served).allSatisfy((id) -> assertThat(id).isGreaterThanOrEqualTo(5));
		assertThat(this.store.keys()).contains("order");
	}

	@Test
	void restartedNodeWithAMarksFileRefusesAStoreThatWentBack() throws Exception {
		Path file = this.directory.resolve("state/segment-marks");
		this.store.createKey("order", 0, 10, "");
		SegmentIdGenerator before = start(SegmentMarks.file(file));
		Set<Long> seen = new HashSet<>();
		drawSome(before, seen, 15);
		await().atMost(Duration.ofSeconds(5)).until(() -> before.marks().highMark("order") == 30);
		before.close();
		// The close gave back [15, 30): the mark followed it, and still guards what was served.
		assertThat(Files.readString(file)).contains("order=15");
		this.store.resetMaxId("order", 0);
		SegmentIdGenerator after = start(SegmentMarks.file(file));
		StoreRegressionException refusal = catchRegression(after);
		assertThat(refusal.knownMark()).isEqualTo(15);
		assertThat(refusal).hasMessageContaining(file.toString());
	}

	@Test
	void aFreshStoreBesideAnOldMarksFileIsNotCalledAStoreThatLostWrites() throws Exception {
		Path file = this.directory.resolve("segment-marks");
		this.store.createKey("order", 1, 100, "");
		SegmentIdGenerator firstRun = start(SegmentMarks.file(file));
		drawSome(firstRun, new HashSet<>(), 150);
		await().atMost(Duration.ofSeconds(5)).until(() -> firstRun.marks().highMark("order") >= 201);
		firstRun.close();
		// the next run: an embedded database that starts empty, the marks file of the last run
		InMemorySegmentStore freshDatabase = new InMemorySegmentStore();
		freshDatabase.createKey("order", 1, 100, "");
		SegmentOptions options = SegmentOptions.builder().dynamicStep(FIXED_STEP).maxWait(Duration.ofMillis(500)).build();
		SegmentIdGenerator secondRun = new SegmentIdGenerator(freshDatabase, options, TimeSource.system(),
				this.listener, null, SegmentMarks.file(file));
		this.generators.add(secondRun);
		secondRun.start();
		StoreRegressionException refusal = catchRegression(secondRun);
		assertThat(refusal).hasMessageContaining("[1, 101)")
			.hasMessageContaining("kept from an earlier run")
			.hasMessageContaining("a new or recreated database (an embedded test database starts empty on every run)")
			.hasMessageContaining("delete it")
			.hasMessageContaining("Or the store lost writes since")
			.hasMessageContaining("Find out which before acting")
			.hasMessageNotContaining("lost writes while this node ran");
	}

	@Test
	void markIsOnDiskBeforeAnyNumberOfItsRangeIsServed() throws Exception {
		Path file = this.directory.resolve("segment-marks");
		this.store.createKey("order", 100, 10, "");
		SegmentIdGenerator generator = start(SegmentMarks.file(file));
		assertThat(generator.nextId("order")).isEqualTo(100);
		assertThat(Files.readString(file)).contains("order=110");
		// the prefetch the first number started: let it finish before the directory goes
		await().atMost(Duration.ofSeconds(5)).until(() -> generator.marks().highMark("order") == 120);
	}

	@Test
	void keyThatVanishedIsMissingAndARecreationBelowTheMarkIsRefused() {
		this.store.createKey("order", 0, 10, "");
		SegmentIdGenerator generator = start(SegmentMarks.inMemory());
		Set<Long> seen = new HashSet<>();
		drawSome(generator, seen, 5);
		await().atMost(Duration.ofSeconds(5)).until(() -> generator.marks().highMark("order") == 20);
		this.store.removeKey("order");
		await().atMost(Duration.ofSeconds(5)).until(() -> generator.missingKeys().containsKey("order"));
		assertThat(generator.missingKeys()).containsEntry("order", 20L);
		assertThatExceptionOfType(UnknownKeyException.class).isThrownBy(() -> generator.nextId("order"))
			.withMessageContaining("missing from the store")
			.withMessageContaining("20");
		assertThat(this.listener.refusals).contains(new RecordingListener.Refusal("order", 20, -1));
		this.store.createKey("order", 0, 10, "");
		await().atMost(Duration.ofSeconds(5)).until(() -> !generator.missingKeys().containsKey("order"));
		assertThat(catchRegression(generator).storeMark()).isZero();
	}

	@Test
	void defaultKeyThatThisNodeUsedButTheStoreLacksIsMissingFromTheStart() throws Exception {
		Path file = this.directory.resolve("segment-marks");
		Files.writeString(file, "order=5000\n");
		SegmentOptions options = SegmentOptions.builder().defaultKey("order").build();
		SegmentIdGenerator generator = new SegmentIdGenerator(this.store, options, TimeSource.system(), this.listener,
				null, SegmentMarks.file(file));
		this.generators.add(generator);
		generator.start();
		assertThat(generator.missingKeys()).containsEntry("order", 5000L);
	}

	@Test
	void aMarksFileOfAnotherStoreFailsTheStartBeforeAnyKeyIsReportedLost() throws Exception {
		Path file = this.directory.resolve("segment-marks");
		this.store.createKey("order", 0, 10, "");
		SegmentIdGenerator production = start(SegmentMarks.file(file), new Named(this.store, "store of production"));
		drawSome(production, new HashSet<>(), 5);
		await().atMost(Duration.ofSeconds(5)).until(() -> !production.view("order").orElseThrow().fetchInFlight());
		production.close();
		assertThat(Files.readString(file)).contains("@store:store+of+production");
		InMemorySegmentStore other = new InMemorySegmentStore();
		SegmentIdGenerator staging = new SegmentIdGenerator(new Named(other, "store of staging"),
				SegmentOptions.builder().build(), TimeSource.system(), this.listener, null, SegmentMarks.file(file));
		this.generators.add(staging);
		assertThatExceptionOfType(SegmentMarksException.class).isThrownBy(staging::start)
			.withMessageContaining("holds the marks of store of production")
			.withMessageContaining("this node uses store of staging");
		assertThat(this.listener.refusals).as("the other store's keys are not reported lost").isEmpty();
	}

	/** A store with an identity. */
	private record Named(InMemorySegmentStore delegate, String identity) implements SegmentStore {

		@Override
		public SegmentAllocation allocate(String key) {
			return this.delegate.allocate(key);
		}

		@Override
		public SegmentAllocation allocate(String key, int step) {
			return this.delegate.allocate(key, step);
		}

		@Override
		public Set<String> keys() {
			return this.delegate.keys();
		}

	}

	@Test
	void corruptMarksFileFailsNamingTheFile() throws Exception {
		Path file = this.directory.resolve("segment-marks");
		Files.writeString(file, "order=lots\n");
		assertThatExceptionOfType(SegmentMarksException.class).isThrownBy(() -> SegmentMarks.file(file))
			.withMessageContaining(file.toString())
			.withMessageContaining("line 1");
	}

	@Test
	void marksSharedThroughAFileKeepTheHighestOfEachKey() throws Exception {
		Path file = this.directory.resolve("segment-marks");
		SegmentMarks first = SegmentMarks.file(file);
		SegmentMarks second = SegmentMarks.file(file);
		first.raise("order", 500);
		second.raise("invoice", 70);
		second.raise("order", 300);
		assertThat(SegmentMarks.file(file).all()).containsEntry("order", 500L).containsEntry("invoice", 70L);
		assertThat(Files.readString(file)).doesNotContain("order=300");
	}

	@Test
	void markIsNeverLowered() {
		SegmentMarks marks = SegmentMarks.inMemory();
		marks.raise("order", 500);
		marks.raise("order", 100);
		assertThat(marks.highMark("order")).isEqualTo(500);
		assertThat(marks.highMark("other")).isZero();
	}

	private static void drawSome(SegmentIdGenerator generator, Set<Long> seen, int count) {
		for (int i = 0; i < count; i++) {
			assertThat(seen.add(generator.nextId("order"))).isTrue();
		}
	}

	private static StoreRegressionException catchRegression(SegmentIdGenerator generator) {
		try {
			long id = generator.nextId("order");
			throw new AssertionError("served " + id + " from a store below the mark");
		}
		catch (StoreRegressionException ex) {
			return ex;
		}
	}

}
