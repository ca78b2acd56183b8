package io.idstarter.testsupport.contract;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import io.idstarter.segment.SegmentAllocation;
import io.idstarter.segment.SegmentKeyAdmin;
import io.idstarter.segment.SegmentKeys;
import io.idstarter.segment.SegmentStore;
import io.idstarter.segment.SegmentKeyExhaustedException;
import io.idstarter.segment.SegmentStoreException;
import io.idstarter.segment.UnknownKeyException;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * What every {@link SegmentStore} (with its {@link SegmentKeyAdmin}) promises, written once: extend this class,
 * return the store under test from {@link #createStore()}, and every store (the shipped ones and yours) is held to the
 * same contract.
 *
 * <p>Each test creates keys of its own, so one store may serve every test of a class. The contract: a key's ranges
 * start at its first ID and follow each other without gap or overlap, whatever the steps and however many callers
 * allocate at once, even while its step changes; {@code allocate(key)} uses the configured step,
 * {@code allocate(key, step)} the caller's, and both report the configured one; a range never passes
 * {@link Long#MAX_VALUE}, and one that would is a {@link SegmentKeyExhaustedException} naming the key; keys are created once; keys, steps, first IDs and descriptions follow {@link SegmentKeys}
 * and a bad one is refused before the store changes; an unknown key is an {@link UnknownKeyException} and is not
 * created; a store that is not set up fails with a {@link SegmentStoreException}; a range's unused tail is given back
 * only while nobody allocated after it, and no later range overlaps a number that was issued; a store with a marker of
 * its key list changes the marker when a key is created or deleted, and not when ranges are allocated;
 * {@code containsKey} answers for one key as the key list does.
 */
public abstract class AbstractSegmentStoreContractTests {

	private SegmentStore store;

	private SegmentKeyAdmin admin;

	/**
	 * Returns the store under test; it must also implement {@link SegmentKeyAdmin}, or {@link #createAdmin} must be
	 * overridden. Called before each test; may return the same instance every time.
	 * @return the store
	 */
	protected abstract SegmentStore createStore();

	/**
	 * Returns the key administration of the store under test.
	 * @param store the store {@link #createStore()} returned
	 * @return the store itself by default
	 */
	protected SegmentKeyAdmin createAdmin(SegmentStore store) {
		assertThat(store).as("the store must implement SegmentKeyAdmin, or the test must override createAdmin")
			.isInstanceOf(SegmentKeyAdmin.class);
		return (SegmentKeyAdmin) store;
	}

	/**
	 * Returns a store of the same kind whose storage is not set up (a table never created), or {@code null} if the
	 * store creates its storage on first use (as Redis keys and MongoDB collections are); the test of the error
	 * is then skipped, and says why.
	 * @return the store, or {@code null}
	 */
	protected @Nullable SegmentStore createStoreWithoutStorage() {
		return null;
	}

	/**
	 * Returns why the test of a store without its storage is skipped when {@link #createStoreWithoutStorage()} returns
	 * {@code null}.
	 * @return the reason, "this store creates its storage on first use" by default
	 */
	protected String withoutStorageSkipReason() {
		return "this store creates its storage on first use";
	}

	/**
	 * Returns what the error of a store without its storage must say, such as the table and the script that creates
	 * it.
	 * @return message fragments
	 */
	protected List<String> missingStorageMessageParts() {
		return List.of();
	}

	/**
	 * Returns whether {@code allocate(key, step)} gives a range of the caller's step. A store whose ranges are always
	 * of the configured step (a database sequence moves by its increment only) answers {@code false}; the contract then
	 * holds it to ranges of the configured step instead.
	 * @return {@code true} by default
	 */
	protected boolean honoursCallersStep() {
		return true;
	}

	/**
	 * Returns whether the store gives back a range's unused tail ({@link SegmentStore#giveBack}). A store that cannot
	 * (a database sequence never moves back) answers {@code false}, and the contract then holds it to refusing every
	 * give-back without changing anything; one that answers {@code true} fails the contract if it refuses one it
	 * should take.
	 * @return {@code true} by default
	 */
	protected boolean givesBack() {
		return true;
	}

	/**
	 * Returns whether the store keeps a marker of its key list ({@link SegmentStore#keysMarker()}). A store without
	 * one answers {@code false} (its {@code keysMarker()} returns {@code null}, and every key refresh reads the whole
	 * list); one that answers {@code true} fails the contract if its marker is missing.
	 * @return {@code true} by default
	 */
	protected boolean keepsKeysMarker() {
		return true;
	}

	/**
	 * Returns the longest key the store accepts; a store whose keys name database objects may accept fewer than
	 * {@link SegmentKeys#MAX_KEY_LENGTH} characters, and must then refuse longer ones before it changes.
	 * @return {@link SegmentKeys#MAX_KEY_LENGTH} by default
	 */
	protected int maxKeyLength() {
		return SegmentKeys.MAX_KEY_LENGTH;
	}

	/**
	 * Changes a key's step, or skips the test if the store cannot change steps while it allocates (it throws
	 * {@link UnsupportedOperationException}, as a database sequence on some databases does).
	 */
	private void updateStepOrAbort(String key, int step) {
		try {
			this.admin.updateStep(key, step);
		}
		catch (UnsupportedOperationException ex) {
			Assumptions.abort("the store cannot change a step while it allocates: " + ex.getMessage());
		}
	}

	/** The range the store gives for {@code allocate(key, callerStep)} starting at {@code start}. */
	private SegmentAllocation callersRange(String key, long start, int callerStep, int configuredStep) {
		int size = honoursCallersStep() ? callerStep : configuredStep;
		return new SegmentAllocation(key, start, start + size, configuredStep);
	}

	@BeforeEach
	void createStoreAndAdmin() {
		this.store = createStore();
		this.admin = createAdmin(this.store);
	}

	/**
	 * Returns the store under test.
	 * @return the store of this test
	 */
	protected SegmentStore store() {
		return this.store;
	}

	/**
	 * Returns a key no other test uses.
	 * @return a valid key
	 */
	protected String newKey() {
		return ContractSupport.unique("contract-key-");
	}

	private String createKey(long firstId, int step) {
		String key = newKey();
		assertThat(this.admin.createKey(key, firstId, step, "contract test")).isTrue();
		return key;
	}

	@Test
	void rangesStartAtTheFirstIdAndUseTheConfiguredOrTheCallersStep() {
		String key = createKey(1000, 100);
		assertThat(this.store.allocate(key)).isEqualTo(new SegmentAllocation(key, 1000, 1100, 100));
		SegmentAllocation callers = callersRange(key, 1100, 7, 100);
		assertThat(this.store.allocate(key, 7)).isEqualTo(callers);
		assertThat(this.store.allocate(key)).isEqualTo(new SegmentAllocation(key, callers.end(), callers.end() + 100, 100));
		assertThat(this.store.allocate(key, 1_000_000)).isEqualTo(callersRange(key, callers.end() + 100, 1_000_000, 100));
		assertThat(this.store.keys()).contains(key);
	}

	@Test
	void createKeyCreatesOnceAndLeavesAnExistingKeyUnchanged() {
		String key = newKey();
		assertThat(this.admin.createKey(key, 7, 10, "first")).isTrue();
		assertThat(this.admin.createKey(key, 1000, 99, "second")).isFalse();
		assertThat(this.store.allocate(key)).isEqualTo(new SegmentAllocation(key, 7, 17, 10));
	}

	@Test
	void ofConcurrentCreatorsOfOneKeyExactlyOneCreatesIt() throws Exception {
		String key = newKey();
		List<Boolean> created = ContractSupport.concurrently(8, () -> this.admin.createKey(key, 1, 10, "raced"));
		assertThat(created).hasSize(8).containsOnlyOnce(true);
		assertThat(this.store.allocate(key)).isEqualTo(new SegmentAllocation(key, 1, 11, 10));
	}

	@Test
	void updateStepChangesTheSizeOfLaterRangesOnly() {
		String key = createKey(0, 10);
		SegmentAllocation before = this.store.allocate(key);
		updateStepOrAbort(key, 25);
		assertThat(before).isEqualTo(new SegmentAllocation(key, 0, 10, 10));
		assertThat(this.store.allocate(key)).isEqualTo(new SegmentAllocation(key, 10, 35, 25));
		assertThat(this.store.allocate(key, 5)).isEqualTo(callersRange(key, 35, 5, 25));
	}

	@Test
	void anUnknownKeyIsReportedByNameAndNotCreated() {
		String key = newKey();
		assertThatExceptionOfType(UnknownKeyException.class).isThrownBy(() -> this.store.allocate(key))
			.withMessageContaining("'" + key + "'")
			.satisfies((ex) -> assertThat(ex.getKey()).isEqualTo(key));
		assertThatExceptionOfType(UnknownKeyException.class).isThrownBy(() -> this.store.allocate(key, 10));
		assertThatExceptionOfType(UnknownKeyException.class).isThrownBy(() -> this.admin.updateStep(key, 10));
		assertThat(this.store.keys()).doesNotContain(key);
	}

	@Test
	void keysListsEveryKeyCreated() {
		String a = createKey(0, 1);
		String b = createKey(0, 1);
		Set<String> keys = this.store.keys();
		assertThat(keys).contains(a, b);
	}

	@Test
	void concurrentAllocationsTileTheKeyWithoutGapOrOverlapWhileItsStepChanges() throws Exception {
		String key = createKey(1, 3);
		// The stepper below changes the step while others allocate: skip a store that cannot.
		updateStepOrAbort(key, 3);
		int threads = 6;
		int perThread = 50;
		AtomicBoolean allocating = new AtomicBoolean(true);
		AtomicReference<@Nullable Throwable> stepperFailure = new AtomicReference<>();
		Thread stepper = new Thread(() -> {
			try {
				for (int step = 4; allocating.get(); step = (step % 9) + 1) {
					this.admin.updateStep(key, step);
					Thread.sleep(5);
				}
			}
			catch (Throwable ex) {
				stepperFailure.set(ex);
			}
		}, "contract-step-changer");
		Set<SegmentAllocation> configured = ConcurrentHashMap.newKeySet();
		List<List<SegmentAllocation>> results;
		stepper.start();
		try {
			results = ContractSupport.concurrently(threads, () -> {
				List<SegmentAllocation> mine = new ArrayList<>();
				for (int i = 0; i < perThread; i++) {
					if (i % 3 == 0) {
						mine.add(this.store.allocate(key, 1 + (i % 7)));
					}
					else {
						SegmentAllocation range = this.store.allocate(key);
						configured.add(range);
						mine.add(range);
					}
				}
				return mine;
			});
		}
		finally {
			allocating.set(false);
			stepper.join();
		}
		assertThat(stepperFailure.get()).isNull();
		List<SegmentAllocation> all = new ArrayList<>();
		results.forEach(all::addAll);
		all.sort(Comparator.comparingLong(SegmentAllocation::start));
		assertThat(all).hasSize(threads * perThread);
		long next = 1;
		for (SegmentAllocation range : all) {
			assertThat(range.start()).as("start of %s", range).isEqualTo(next);
			assertThat(range.configuredStep()).isBetween(1, 9);
			next = range.end();
		}
		assertThat(configured).allSatisfy((range) -> assertThat(range.size())
			.as("a range of the configured step is as long as the step it reports: %s", range)
			.isEqualTo(range.configuredStep()));
		this.admin.updateStep(key, 5);
		assertThat(this.store.allocate(key)).isEqualTo(new SegmentAllocation(key, next, next + 5, 5));
	}

	@Test
	void aRangeNeverPassesLongMaxValue() {
		String key = createKey(Long.MAX_VALUE - 15, 10);
		assertThat(this.store.allocate(key))
			.isEqualTo(new SegmentAllocation(key, Long.MAX_VALUE - 15, Long.MAX_VALUE - 5, 10));
		assertThatExceptionOfType(SegmentKeyExhaustedException.class).isThrownBy(() -> this.store.allocate(key))
			.withMessageContaining("'" + key + "'")
			.withMessageContaining("Long.MAX_VALUE")
			.satisfies((ex) -> assertThat(ex.getKey()).isEqualTo(key))
			.satisfies((ex) -> assertThat(ex.remaining()).as("numbers left, or -1 if the store cannot say")
				.isIn(5L, -1L));
		if (!honoursCallersStep()) {
			// A range of the configured step no longer fits; what is left cannot be handed out.
			assertThatExceptionOfType(SegmentKeyExhaustedException.class).isThrownBy(() -> this.store.allocate(key, 5));
			return;
		}
		assertThat(this.store.allocate(key, 5))
			.as("the refused allocation moved nothing")
			.isEqualTo(new SegmentAllocation(key, Long.MAX_VALUE - 5, Long.MAX_VALUE, 10));
		assertThatExceptionOfType(SegmentKeyExhaustedException.class).isThrownBy(() -> this.store.allocate(key, 1));
		// A store may refuse so large a step before it looks at the key (the ID server's fleet API caps steps).
		assertThatExceptionOfType(SegmentStoreException.class)
			.isThrownBy(() -> this.store.allocate(key, Integer.MAX_VALUE));
	}

	@Test
	void deleteKeyRemovesTheKeyFromTheListAndAllocationAndItCanBeCreatedAgain() {
		String key = createKey(100, 10);
		String other = createKey(7, 1);
		this.store.allocate(key);
		if (!this.admin.deletesKeys()) {
			// Optional: only the clean-up of periodic keys past their retention uses it, and it asks deletesKeys().
			assertThatExceptionOfType(UnsupportedOperationException.class).as("deletesKeys() answers false")
				.isThrownBy(() -> this.admin.deleteKey(key));
			assertThat(this.store.keys()).contains(key, other);
			return;
		}
		assertThat(this.admin.deleteKey(key)).isTrue();
		assertThat(this.store.keys()).doesNotContain(key).contains(other);
		assertThatExceptionOfType(UnknownKeyException.class).isThrownBy(() -> this.store.allocate(key));
		assertThat(this.admin.deleteKey(key)).as("already gone").isFalse();
		assertThat(this.store.allocate(other)).as("other keys untouched")
			.isEqualTo(new SegmentAllocation(other, 7, 8, 1));
		assertThat(this.admin.createKey(key, 1, 10, "")).isTrue();
		assertThat(this.store.allocate(key)).isEqualTo(new SegmentAllocation(key, 1, 11, 10));
	}

	@Test
	void theKeysMarkerChangesWithTheKeyListAndNotWithAllocations() {
		String before = this.store.keysMarker();
		if (!keepsKeysMarker()) {
			assertThat(before).as("keepsKeysMarker() answers false, so keysMarker() must be null").isNull();
			return;
		}
		assertThat(before).as("the store's marker of its key list (override keepsKeysMarker() if it keeps none)")
			.isNotNull();
		String key = createKey(1, 10);
		String created = this.store.keysMarker();
		assertThat(created).as("after a key was created").isNotEqualTo(before);
		this.store.allocate(key);
		this.store.allocate(key, 5);
		updateStepOrKeep(key, 20);
		assertThat(this.store.keysMarker()).as("allocations and steps change no key").isEqualTo(created);
		String other = createKey(1, 10);
		String two = this.store.keysMarker();
		if (!this.admin.deletesKeys()) {
			// Such a store only adds keys: the marker of one that was added changed above.
			return;
		}
		assertThat(this.admin.deleteKey(key)).isTrue();
		String afterDelete = this.store.keysMarker();
		assertThat(afterDelete).as("after a key was deleted").isNotEqualTo(two).isNotEqualTo(created);
		createKey(1, 10);
		assertThat(this.store.keysMarker()).as("a key deleted and another created: as many keys as before")
			.isNotEqualTo(two)
			.isNotEqualTo(afterDelete);
		assertThat(this.store.keys()).contains(other).doesNotContain(key);
	}

	@Test
	void containsKeyAnswersForOneKeyAsTheKeyListDoes() {
		String key = createKey(1, 10);
		String longer = createKey(1, 10);
		String prefixOfLonger = longer.substring(0, longer.length() - 1);
		assertThat(this.store.containsKey(key)).isTrue();
		assertThat(this.store.containsKey(prefixOfLonger)).as("a key only its prefix").isFalse();
		assertThat(this.store.containsKey(newKey())).as("an unknown key").isFalse();
		this.store.allocate(key);
		assertThat(this.store.containsKey(key)).as("after an allocation").isTrue();
		if (!this.admin.deletesKeys()) {
			return;
		}
		assertThat(this.admin.deleteKey(key)).isTrue();
		assertThat(this.store.containsKey(key)).as("after its deletion").isFalse();
		assertThat(this.store.keys()).doesNotContain(key).contains(longer);
	}

	/** Changes a key's step, unless the store cannot change steps while it allocates. */
	private void updateStepOrKeep(String key, int step) {
		try {
			this.admin.updateStep(key, step);
		}
		catch (UnsupportedOperationException ex) {
			// A database sequence on some databases: the step stays.
		}
	}

	@Test
	void raiseMaxIdMovesTheNextRangeUpButNeverDown() {
		String key = createKey(100, 10);
		boolean raised;
		try {
			raised = this.admin.raiseMaxId(key, 500);
		}
		catch (UnsupportedOperationException ex) {
			// Optional: only heal-forward (id-worker.segment.heal-forward) uses it.
			Assumptions.abort("the store does not implement SegmentKeyAdmin.raiseMaxId: " + ex.getMessage());
			return;
		}
		assertThat(raised).isTrue();
		assertThat(this.store.allocate(key)).isEqualTo(new SegmentAllocation(key, 500, 510, 10));
		assertThat(this.admin.raiseMaxId(key, 300)).as("never down").isFalse();
		assertThat(this.admin.raiseMaxId(key, 510)).as("already there").isFalse();
		assertThat(this.store.allocate(key)).isEqualTo(new SegmentAllocation(key, 510, 520, 10));
		assertThat(this.admin.raiseMaxId(key, 9_999)).as("a floor with more digits").isTrue();
		assertThat(this.admin.raiseMaxId(key, 10_000 - 2)).as("below the max_id")
			.isFalse();
		assertThat(this.admin.raiseMaxId(key, Long.MAX_VALUE - 3)).isTrue();
		assertThat(this.store.allocate(key, 3))
			.isEqualTo(new SegmentAllocation(key, Long.MAX_VALUE - 3, Long.MAX_VALUE, 10));
		String unknown = newKey();
		assertThatExceptionOfType(UnknownKeyException.class).isThrownBy(() -> this.admin.raiseMaxId(unknown, 10));
		assertThat(this.store.keys()).doesNotContain(unknown);
	}

	@Test
	void giveBackReturnsTheTailOfTheLatestRangeOnly() {
		String key = createKey(100, 10);
		assertThat(this.store.allocate(key)).isEqualTo(new SegmentAllocation(key, 100, 110, 10));
		boolean given = this.store.giveBack(key, 104, 110);
		if (!givesBack()) {
			assertThat(given).as("givesBack() answers false").isFalse();
			assertThat(this.store.allocate(key)).as("a store that does not give back changes nothing")
				.isEqualTo(new SegmentAllocation(key, 110, 120, 10));
			return;
		}
		assertThat(given).as("the tail of the latest range (override givesBack() if the store never gives back)")
			.isTrue();
		assertThat(this.store.allocate(key)).as("the next range starts at the given-back cursor")
			.isEqualTo(new SegmentAllocation(key, 104, 114, 10));
		assertThat(this.store.giveBack(key, 104, 110)).as("a stale end: someone allocated after it").isFalse();
		assertThat(this.store.allocate(key)).as("the refused give-back changed nothing")
			.isEqualTo(new SegmentAllocation(key, 114, 124, 10));
		// A node's current range and its prefetched successor: the successor goes back whole, then the current's tail.
		assertThat(this.store.allocate(key)).isEqualTo(new SegmentAllocation(key, 124, 134, 10));
		assertThat(this.store.giveBack(key, 124, 134)).isTrue();
		assertThat(this.store.giveBack(key, 120, 124)).as("the range before it, now latest again").isTrue();
		assertThat(this.store.giveBack(key, 120, 124)).as("given back already").isFalse();
		assertThat(this.store.allocate(key, 3)).isEqualTo(new SegmentAllocation(key, 120, 123, 10));
		String large = createKey(Long.MAX_VALUE - 15, 10);
		assertThat(this.store.allocate(large)).isEqualTo(
				new SegmentAllocation(large, Long.MAX_VALUE - 15, Long.MAX_VALUE - 5, 10));
		assertThat(this.store.giveBack(large, Long.MAX_VALUE - 14, Long.MAX_VALUE - 5)).isTrue();
		assertThat(this.store.allocate(large, 2))
			.isEqualTo(new SegmentAllocation(large, Long.MAX_VALUE - 14, Long.MAX_VALUE - 12, 10));
		String unknown = newKey();
		assertThat(this.store.giveBack(unknown, 0, 10)).as("an unknown key").isFalse();
		assertThat(this.store.keys()).doesNotContain(unknown);
	}

	@Test
	void giveBackRefusesATailThatIsNotARange() {
		String key = createKey(100, 10);
		this.store.allocate(key);
		assertThatIllegalArgumentException().isThrownBy(() -> this.store.giveBack(key, 111, 110))
			.withMessageContaining("'" + key + "'");
		assertThatIllegalArgumentException().isThrownBy(() -> this.store.giveBack(key, -1, 110));
		assertThatIllegalArgumentException().as("an empty tail").isThrownBy(() -> this.store.giveBack(key, 110, 110));
		assertThat(this.store.allocate(key)).as("nothing changed").isEqualTo(new SegmentAllocation(key, 110, 120, 10));
	}

	@Test
	void concurrentGiveBacksNeverLetALaterRangeOverlapWhatWasIssued() throws Exception {
		String key = createKey(0, 7);
		int threads = 6;
		int perThread = 40;
		// Each caller issues a prefix of its range and gives back the rest; the issued prefixes must never overlap.
		List<List<long[]>> results = ContractSupport.concurrently(threads, (int thread) -> {
			List<long[]> issued = new ArrayList<>();
			for (int i = 0; i < perThread; i++) {
				SegmentAllocation range = this.store.allocate(key);
				long cursor = range.start() + ((i + thread) % (range.size() + 1));
				if (cursor < range.end()) {
					this.store.giveBack(key, cursor, range.end());
				}
				issued.add(new long[] { range.start(), cursor });
			}
			return issued;
		});
		List<long[]> all = new ArrayList<>();
		results.forEach(all::addAll);
		all.sort(Comparator.comparingLong((long[] range) -> range[0]).thenComparingLong((long[] range) -> range[1]));
		long issuedUpTo = 0;
		for (long[] range : all) {
			if (range[1] > range[0]) {
				assertThat(range[0]).as("issued [%d, %d) overlaps an earlier issued part", range[0], range[1])
					.isGreaterThanOrEqualTo(issuedUpTo);
				issuedUpTo = range[1];
			}
		}
		SegmentAllocation after = this.store.allocate(key);
		assertThat(after.start()).as("the next range starts after everything issued")
			.isGreaterThanOrEqualTo(issuedUpTo);
	}

	@ParameterizedTest
	@ValueSource(strings = { "", " ", "with space", "slash/key", "quote'key", "semi;colon", "dollar$key", "ключ",
			"tab\tkey", "new\nline" })
	void keysOutsideTheAllowedCharactersAreRefusedBeforeTheStoreChanges(String key) {
		assertThatIllegalArgumentException().isThrownBy(() -> this.store.allocate(key))
			.withMessageContaining(key.isEmpty() ? "1 to 128 characters" : "[A-Za-z0-9._:-]");
		assertThatIllegalArgumentException().isThrownBy(() -> this.store.allocate(key, 10));
		assertThatIllegalArgumentException().isThrownBy(() -> this.admin.createKey(key, 1, 10, ""));
		assertThatIllegalArgumentException().isThrownBy(() -> this.admin.updateStep(key, 10));
		assertThat(this.store.keys()).doesNotContain(key);
	}

	@Test
	void keysOf128CharactersAreAcceptedAndLongerOnesRefused() {
		int max = maxKeyLength();
		String longest = (newKey() + "x".repeat(max)).substring(0, max);
		assertThatIllegalArgumentException().isThrownBy(() -> this.admin.createKey(longest + "y", 5, 5, ""))
			.withMessageContaining((max == SegmentKeys.MAX_KEY_LENGTH) ? "1 to 128 characters, it has 129" : "'" + longest + "y'");
		assertThat(this.admin.createKey(longest, 5, 5, "longest key")).isTrue();
		assertThat(this.store.allocate(longest)).isEqualTo(new SegmentAllocation(longest, 5, 10, 5));
		assertThat(this.store.keys()).contains(longest);
	}

	@Test
	void badStepsFirstIdsAndDescriptionsAreRefusedBeforeTheStoreChanges() {
		String key = createKey(1, 10);
		for (int step : new int[] { 0, -1, Integer.MIN_VALUE }) {
			assertThatIllegalArgumentException().isThrownBy(() -> this.store.allocate(key, step))
				.withMessage("step of key '" + key + "' must be at least 1: " + step);
			assertThatIllegalArgumentException().isThrownBy(() -> this.admin.updateStep(key, step));
		}
		String other = newKey();
		assertThatIllegalArgumentException().isThrownBy(() -> this.admin.createKey(other, 1, 0, ""))
			.withMessageContaining("at least 1");
		assertThatIllegalArgumentException().isThrownBy(() -> this.admin.createKey(other, -1, 10, ""))
			.withMessageContaining("first ID of key '" + other + "'");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> this.admin.createKey(other, Long.MAX_VALUE - 9, 10, ""));
		assertThatIllegalArgumentException().isThrownBy(() -> this.admin.createKey(other, 1, 10, "d".repeat(257)))
			.withMessageContaining("at most 256 characters");
		assertThat(this.store.keys()).doesNotContain(other);
		assertThat(this.store.allocate(key)).as("the refused calls moved nothing")
			.isEqualTo(new SegmentAllocation(key, 1, 11, 10));
	}

	@Test
	void aStoreThatIsNotSetUpFailsWithASegmentStoreException() {
		SegmentStore unset = createStoreWithoutStorage();
		Assumptions.assumeTrue(unset != null, withoutStorageSkipReason());
		assertThatExceptionOfType(SegmentStoreException.class).isThrownBy(() -> unset.allocate("any-key"))
			.satisfies((ex) -> assertThat(ex.getMessage()).contains(missingStorageMessageParts()));
		assertThatExceptionOfType(SegmentStoreException.class).isThrownBy(unset::keys)
			.satisfies((ex) -> assertThat(ex.getMessage()).contains(missingStorageMessageParts()));
	}

}
