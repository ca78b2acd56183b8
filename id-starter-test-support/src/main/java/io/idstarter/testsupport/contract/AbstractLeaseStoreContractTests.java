package io.idstarter.testsupport.contract;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.IntStream;

import io.idstarter.IdWorkerListener;
import io.idstarter.lease.ISequenceManager;
import io.idstarter.lease.LayoutConflictException;
import io.idstarter.lease.LeaseLostException;
import io.idstarter.lease.LeaseRequest;
import io.idstarter.lease.LeaseSettings;
import io.idstarter.lease.LeaseStoreException;
import io.idstarter.lease.NoFreeWorkerIdException;
import io.idstarter.lease.SlotMark;
import io.idstarter.lease.WorkerLease;
import io.idstarter.lease.WorkerLeaseKeeper;
import io.idstarter.snowflake.ClockBackwardsPolicy;
import io.idstarter.snowflake.RecordedLayout;
import io.idstarter.snowflake.SnowflakeIdGenerator;
import io.idstarter.snowflake.SnowflakeLayout;
import io.idstarter.snowflake.SnowflakePresets;
import io.idstarter.time.TimeSource;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatNoException;

/**
 * What every {@link ISequenceManager} promises, written once: extend this class, return the store under test from
 * {@link #createManager()}, and every store (the shipped ones and yours) is held to the same contract.
 *
 * <p>Each test works in a namespace of its own, so one store may serve every test of a class. Leases expire by the
 * store's clock: the tests that need a lease to run out take it with {@link #borrowExpiring(LeaseRequest)} and call
 * {@link #letExpire(WorkerLease)}, which by default lets the lease's TTL pass with
 * {@link #advanceStoreClock(Duration)}, which sleeps by default; a store on a clock the test controls advances that
 * clock instead. A store whose holders live as long as their connection (a ZooKeeper session, kept alive by the
 * client) borrows the expiring lease on a connection of its own and silences it; a store that rounds TTLs up or
 * expires holders on a schedule of its own waits until the slot shows free. The shortest TTL the tests use is
 * {@link #SHORT_TTL}.
 *
 * <p>The contract: the slot order of {@link ISequenceManager}'s javadoc; a fresh random owner token per borrow, and
 * renew and release only with it; expiry by the store's clock, after which another borrower gets the slot, while a
 * lease that expired but was not taken can still be renewed; a slot's timestamp mark that only rises, except on
 * release, where it becomes what the owner reports it issued but never less than the lease's floor; concurrent
 * borrowers never sharing a slot; a borrow never handing out a slot the request excludes; a store that is not set up
 * failing with a {@link LeaseStoreException}; a layout record per namespace that the first node writes, that a read
 * answers without writing, that only a compare-and-set replaces and that is never a slot, and slot marks that say
 * which slots are held (a store of your own that keeps no layouts overrides {@link #keepsLayouts()}); refusals that
 * tell the operator what happened and what to do (the factories {@link NoFreeWorkerIdException#allHeld} and
 * {@link LeaseLostException#notHeld} word them so).
 */
public abstract class AbstractLeaseStoreContractTests {

	/** The TTL of leases that must not expire during a test. */
	protected static final Duration TTL = Duration.ofSeconds(60);

	/** The TTL of leases that the tests let expire: the shortest a {@link LeaseRequest} allows. */
	protected static final Duration SHORT_TTL = Duration.ofSeconds(1);

	/** A timestamp to ask for as ceiling: below 2<sup>53</sup>, where every store is exact. */
	protected static final long NOW = System.currentTimeMillis();

	private ISequenceManager manager;

	private String namespace;

	/**
	 * Returns the store under test. Called before each test; may return the same instance every time.
	 * @return the store
	 */
	protected abstract ISequenceManager createManager();

	/**
	 * Returns a store of the same kind whose storage is not set up (a table never created), or {@code null} if the
	 * store creates its storage on first use (as Redis keys and MongoDB collections are); the test of the error
	 * is then skipped, and says why.
	 * @return the store, or {@code null}
	 */
	protected @Nullable ISequenceManager createManagerWithoutStorage() {
		return null;
	}

	/**
	 * Returns why the test of a store without its storage is skipped when {@link #createManagerWithoutStorage()} returns
	 * {@code null}.
	 * @return the reason, "this store creates its storage on first use" by default
	 */
	protected String withoutStorageSkipReason() {
		return "this store creates its storage on first use";
	}

	/**
	 * Returns what the error of a store without its storage must say besides naming the namespace, such as the table
	 * and the script that creates it.
	 * @return message fragments
	 */
	protected List<String> missingStorageMessageParts() {
		return List.of();
	}

	/**
	 * Returns what the store's {@link ISequenceManager#identity()} must say: where its slots are (the database and
	 * table, the server and key prefix). Empty by default: the store may say nothing, and this node's files are then
	 * not checked against it.
	 * @return identity fragments
	 */
	protected List<String> identityParts() {
		return List.of();
	}

	/**
	 * Lets at least {@code duration} pass on the store's clock. Sleeps by default.
	 * @param duration how long
	 * @throws InterruptedException if interrupted while sleeping
	 */
	protected void advanceStoreClock(Duration duration) throws InterruptedException {
		Thread.sleep(duration.toMillis());
	}

	/**
	 * Borrows a lease that the test then lets expire with {@link #letExpire(WorkerLease)}, from the store under test
	 * by default. A store whose leases end only when their holder's connection goes silent borrows it on a connection
	 * of its own, which {@link #letExpire(WorkerLease)} silences; the test goes on with {@link #manager()}.
	 * @param request the request, with TTL {@link #SHORT_TTL}
	 * @return the lease
	 */
	protected WorkerLease borrowExpiring(LeaseRequest request) {
		return this.manager.borrow(request);
	}

	/**
	 * Lets a lease taken by {@link #borrowExpiring(LeaseRequest)} run out on the store's clock without its owner
	 * renewing it. By default advances the store's clock by its TTL and 300 ms.
	 * @param lease the lease
	 * @throws InterruptedException if interrupted while waiting
	 */
	protected void letExpire(WorkerLease lease) throws InterruptedException {
		advanceStoreClock(lease.ttl().plusMillis(300));
	}

	/**
	 * Whether the store keeps a layout record per namespace ({@link ISequenceManager#recordLayout}). Every store
	 * id-starter ships does; a store of your own written before layouts were recorded may return {@code false}, and
	 * the layout tests are skipped.
	 * @return {@code true} unless overridden
	 */
	protected boolean keepsLayouts() {
		return true;
	}

	@BeforeEach
	void createManagerAndNamespace() {
		this.manager = createManager();
		this.namespace = ContractSupport.unique("contract-ns-");
	}

	/**
	 * Returns the store under test.
	 * @return the store of this test
	 */
	protected ISequenceManager manager() {
		return this.manager;
	}

	/**
	 * Returns this test's namespace.
	 * @return a namespace no other test uses
	 */
	protected String namespace() {
		return this.namespace;
	}

	/**
	 * Builds a request in this test's namespace.
	 */
	protected LeaseRequest request(int maxWorkerId, Duration ttl, int preferred, long ceiling) {
		return new LeaseRequest(this.namespace, maxWorkerId, ttl, preferred, "contract-test/1", ceiling);
	}

	@Test
	void identitySaysWhereTheSlotsAreAndIsTheSameAtEveryCall() {
		String identity = this.manager.identity();
		assertThat(this.manager.identity()).as("asked again").isEqualTo(identity);
		if (identityParts().isEmpty()) {
			return;
		}
		assertThat(identity).contains(identityParts());
	}

	private WorkerLease borrow(int maxWorkerId, int preferred) {
		return this.manager.borrow(request(maxWorkerId, TTL, preferred, NOW));
	}

	@Test
	void aFirstBorrowTakesSlotZeroWithNoFloorAndTheRequestedCeiling() {
		WorkerLease lease = this.manager.borrow(request(15, TTL, -1, NOW + 5000));
		assertThat(lease.namespace()).isEqualTo(this.namespace);
		assertThat(lease.workerId()).isZero();
		assertThat(lease.timestampFloor()).isEqualTo(-1);
		assertThat(lease.timestampCeiling()).isEqualTo(NOW + 5000);
		assertThat(lease.ttl()).isEqualTo(TTL);
		assertThat(lease.ownerToken()).isNotBlank();
		assertThat(this.manager.borrow(request(15, TTL, -1, NOW)).ownerToken()).isNotEqualTo(lease.ownerToken());
	}

	@Test
	void thePreferredSlotIsTakenWhenFreeOtherwiseTheLowestNeverUsedOne() {
		assertThat(borrow(7, 5).workerId()).isEqualTo(5);
		assertThat(borrow(7, 5).workerId()).isZero();
		assertThat(borrow(7, -1).workerId()).isEqualTo(1);
		WorkerLease two = borrow(7, 2);
		assertThat(two.workerId()).isEqualTo(2);
		this.manager.release(two, NOW + 100);
		WorkerLease again = this.manager.borrow(request(7, TTL, 2, NOW));
		assertThat(again.workerId()).as("the preferred slot, free again, before slots never used").isEqualTo(2);
		assertThat(again.timestampFloor()).isEqualTo(NOW + 100);
	}

	@Test
	void slotsNeverUsedComeBeforeFreedSlotsAndThenTheSlotFreeForLongest() throws InterruptedException {
		List<WorkerLease> leases = new ArrayList<>();
		for (int i = 0; i < 3; i++) {
			leases.add(borrow(4, -1));
		}
		assertThat(leases).extracting(WorkerLease::workerId).containsExactly(0, 1, 2);
		this.manager.release(leases.get(1), -1);
		advanceStoreClock(Duration.ofMillis(30));
		this.manager.release(leases.get(0), -1);
		advanceStoreClock(Duration.ofMillis(30));
		this.manager.release(leases.get(2), -1);
		assertThat(IntStream.range(0, 5).map((i) -> borrow(4, -1).workerId())).containsExactly(3, 4, 1, 0, 2);
		assertThatExceptionOfType(NoFreeWorkerIdException.class).isThrownBy(() -> borrow(4, -1))
			.satisfies((ex) -> assertNamesNamespaceRangeAndRemedy(ex, 4));
	}

	/**
	 * Checks what a refused borrow must tell the operator: the namespace, the slots, and what to do.
	 */
	private void assertNamesNamespaceRangeAndRemedy(NoFreeWorkerIdException ex, int maxWorkerId) {
		assertThat(ex.getMessage()).as("the refusal names the namespace, the slots and the remedy")
			.contains("'" + this.namespace + "'", "[0, " + maxWorkerId + "]", "worker bits", "separate namespace");
	}

	/**
	 * Checks what a refused renewal must tell the operator: which worker ID of which namespace, and to stop issuing.
	 */
	private void assertNamesSlotAndStop(LeaseLostException ex, WorkerLease lease) {
		assertThat(ex.getMessage()).as("the refusal names the slot and says to stop issuing")
			.contains("worker ID " + lease.workerId() + " of namespace '" + this.namespace + "'", "stop issuing");
	}

	@Test
	void slotsAboveTheBorrowersLayoutAreNeitherHandedOutNorCountedAsUsed() {
		WorkerLease wide = borrow(7, 5);
		this.manager.release(wide, NOW + 100);
		assertThat(IntStream.range(0, 4).map((i) -> borrow(3, -1).workerId())).as("a narrower layout's slots")
			.containsExactly(0, 1, 2, 3);
		assertThatExceptionOfType(NoFreeWorkerIdException.class).isThrownBy(() -> borrow(3, -1));
		assertThat(borrow(7, -1).workerId()).as("the wider layout's gaps come before its freed slot").isEqualTo(4);
	}

	@Test
	void excludedSlotsAreNeverHandedOutWhetherFreeOrNeverUsed() {
		List<WorkerLease> all = new ArrayList<>();
		for (int i = 0; i < 3; i++) {
			all.add(borrow(3, -1));
		}
		this.manager.release(all.get(0), -1);
		this.manager.release(all.get(1), -1);
		int excludedFree = all.get(0).workerId();
		int neverUsed = 6 - all.get(0).workerId() - all.get(1).workerId() - all.get(2).workerId();
		Set<Integer> excluded = Set.of(excludedFree, neverUsed);
		LeaseRequest excluding = new LeaseRequest(this.namespace, 3, TTL, -1, "contract-test/2", NOW, excluded);
		assertThat(this.manager.borrow(excluding).workerId()).isEqualTo(all.get(1).workerId());
		assertThatExceptionOfType(NoFreeWorkerIdException.class).isThrownBy(() -> this.manager.borrow(excluding))
			.satisfies((ex) -> assertNamesNamespaceRangeAndRemedy(ex, 3));
		assertThat(borrow(3, -1).workerId()).isIn(excludedFree, neverUsed);
	}

	@Test
	void aPreferredSlotThatIsHeldFallsBackPastTheExcludedSlots() {
		WorkerLease held = borrow(7, 5);
		Set<Integer> excluded = Set.of(0, 1, 2, 3);
		LeaseRequest excluding = new LeaseRequest(this.namespace, 7, TTL, held.workerId(), "contract-test/2", NOW,
				excluded);
		WorkerLease taken = this.manager.borrow(excluding);
		assertThat(taken.workerId()).as("the preferred slot is held; 0 to 3 are excluded").isEqualTo(4);
		this.manager.release(taken, -1);
		LeaseRequest preferringFree = new LeaseRequest(this.namespace, 7, TTL, 6, "contract-test/2", NOW, excluded);
		assertThat(this.manager.borrow(preferringFree).workerId()).as("a free preferred slot that is not excluded")
			.isEqualTo(6);
	}

	@Test
	void renewExtendsTheLeaseAndOnlyRaisesTheMark() {
		WorkerLease lease = this.manager.borrow(request(3, TTL, -1, NOW + 1000));
		WorkerLease raised = this.manager.renew(lease, NOW + 3000);
		assertThat(raised.timestampCeiling()).isEqualTo(NOW + 3000);
		assertThat(raised.timestampFloor()).isEqualTo(-1);
		assertThat(raised.workerId()).isEqualTo(lease.workerId());
		assertThat(raised.ownerToken()).isEqualTo(lease.ownerToken());
		assertThat(raised.storeTimeMillis()).isGreaterThanOrEqualTo(lease.storeTimeMillis());
		WorkerLease kept = this.manager.renew(raised, NOW + 2000);
		assertThat(kept.timestampCeiling()).as("a lower ceiling never lowers the mark").isEqualTo(NOW + 3000);
		this.manager.release(kept, -1);
		assertThat(this.manager.borrow(request(0, TTL, 0, NOW)).timestampFloor()).isEqualTo(NOW + 3000);
	}

	@Test
	void renewAndReleaseNeedTheOwnerToken() {
		WorkerLease lease = this.manager.borrow(request(0, TTL, -1, NOW + 1000));
		WorkerLease impostor = new WorkerLease(this.namespace, 0, "not-the-owner", TTL, -1, NOW + 1000, NOW);
		assertThatExceptionOfType(LeaseLostException.class).isThrownBy(() -> this.manager.renew(impostor, NOW + 9000))
			.satisfies((ex) -> assertNamesSlotAndStop(ex, impostor));
		assertThatNoException().isThrownBy(() -> this.manager.release(impostor, NOW + 9000));
		assertThatExceptionOfType(NoFreeWorkerIdException.class)
			.isThrownBy(() -> this.manager.borrow(request(0, TTL, -1, NOW)));
		assertThat(this.manager.renew(lease, NOW + 1000).timestampCeiling()).as("the impostor changed nothing")
			.isEqualTo(NOW + 1000);
		WorkerLease neverBorrowed = new WorkerLease(this.namespace, 5, "nobody", TTL, -1, NOW, NOW);
		assertThatExceptionOfType(LeaseLostException.class).isThrownBy(() -> this.manager.renew(neverBorrowed, NOW));
	}

	@Test
	void aReleasedLeaseCannotBeRenewed() {
		WorkerLease lease = this.manager.borrow(request(0, TTL, -1, NOW));
		this.manager.release(lease, NOW);
		assertThatExceptionOfType(LeaseLostException.class).isThrownBy(() -> this.manager.renew(lease, NOW))
			.satisfies((ex) -> assertNamesSlotAndStop(ex, lease));
		assertThat(this.manager.borrow(request(0, TTL, -1, NOW)).workerId()).isZero();
	}

	@Test
	void releaseSetsTheMarkToTheReportedTimestampButNeverBelowTheFloor() {
		WorkerLease first = this.manager.borrow(request(0, TTL, -1, NOW + 5000));
		this.manager.release(first, NOW + 1000);
		WorkerLease second = this.manager.borrow(request(0, TTL, -1, NOW));
		assertThat(second.timestampFloor()).as("lowered to what was really issued").isEqualTo(NOW + 1000);
		assertThat(second.timestampCeiling()).isEqualTo(NOW + 1000);
		this.manager.release(second, NOW + 500);
		WorkerLease third = this.manager.borrow(request(0, TTL, -1, NOW));
		assertThat(third.timestampFloor()).as("never below the previous owners' mark").isEqualTo(NOW + 1000);
		this.manager.renew(third, NOW + 7000);
		this.manager.release(third, -1);
		WorkerLease fourth = this.manager.borrow(request(0, TTL, -1, NOW));
		assertThat(fourth.timestampFloor()).as("an unknown last timestamp keeps the mark").isEqualTo(NOW + 7000);
	}

	@Test
	void anExpiredLeaseGoesByTheStoresClockToTheNextBorrowerAboveTheOldCeiling() throws InterruptedException {
		WorkerLease expiring = borrowExpiring(request(1, SHORT_TTL, -1, NOW + 123_456));
		WorkerLease held = this.manager.borrow(request(1, TTL, -1, NOW));
		assertThat(held.workerId()).isEqualTo(1);
		assertThatExceptionOfType(NoFreeWorkerIdException.class)
			.isThrownBy(() -> this.manager.borrow(request(1, TTL, -1, NOW)));
		letExpire(expiring);
		this.manager.release(held, NOW);

		WorkerLease next = this.manager.borrow(request(1, TTL, -1, NOW + 100));
		assertThat(next.workerId()).as("free since its expiry, before the slot released after it").isZero();
		assertThat(next.ownerToken()).isNotEqualTo(expiring.ownerToken());
		assertThat(next.timestampFloor()).as("the mark survives expiry").isEqualTo(NOW + 123_456);
		assertThat(next.timestampCeiling()).isEqualTo(NOW + 123_456);
		assertThat(next.storeTimeMillis()).isGreaterThanOrEqualTo(expiring.storeTimeMillis() + SHORT_TTL.toMillis());
		assertThatExceptionOfType(LeaseLostException.class)
			.isThrownBy(() -> this.manager.renew(expiring, NOW + 200_000));
		this.manager.release(expiring, NOW);
		assertThat(this.manager.renew(next, NOW).timestampCeiling()).as("the old owner changed nothing")
			.isEqualTo(NOW + 123_456);
		assertThat(this.manager.borrow(request(1, TTL, -1, NOW)).workerId()).isEqualTo(1);
	}

	@Test
	void anExpiredLeaseThatNobodyTookCanStillBeRenewed() throws InterruptedException {
		WorkerLease lease = borrowExpiring(request(0, SHORT_TTL, -1, NOW + 1000));
		letExpire(lease);
		WorkerLease renewed = this.manager.renew(lease, NOW + 2000);
		assertThat(renewed.timestampCeiling()).isEqualTo(NOW + 2000);
		assertThat(renewed.storeTimeMillis()).isGreaterThanOrEqualTo(lease.storeTimeMillis() + SHORT_TTL.toMillis());
		assertThatExceptionOfType(NoFreeWorkerIdException.class)
			.isThrownBy(() -> this.manager.borrow(request(0, TTL, -1, NOW)));
	}

	@Test
	void concurrentBorrowersNeverShareASlot() throws Exception {
		List<WorkerLease> inserted = borrowEverySlotConcurrently();
		inserted.forEach((lease) -> this.manager.release(lease, -1));
		List<WorkerLease> retaken = borrowEverySlotConcurrently();
		assertThat(retaken).extracting(WorkerLease::ownerToken).doesNotContainAnyElementsOf(
				inserted.stream().map(WorkerLease::ownerToken).toList());
		assertThatExceptionOfType(NoFreeWorkerIdException.class)
			.isThrownBy(() -> this.manager.borrow(request(15, TTL, 3, NOW)))
			.withMessageContaining(this.namespace);
	}

	private List<WorkerLease> borrowEverySlotConcurrently() throws Exception {
		List<List<WorkerLease>> perThread = ContractSupport.concurrently(8, () -> {
			List<WorkerLease> mine = new ArrayList<>();
			while (true) {
				try {
					mine.add(this.manager.borrow(request(15, TTL, -1, NOW)));
				}
				catch (NoFreeWorkerIdException ex) {
					return mine;
				}
			}
		});
		List<WorkerLease> all = perThread.stream().flatMap(List::stream).toList();
		assertThat(all).extracting(WorkerLease::workerId)
			.containsExactlyInAnyOrderElementsOf(IntStream.rangeClosed(0, 15).boxed().toList());
		assertThat(all).extracting(WorkerLease::ownerToken).doesNotHaveDuplicates();
		return all;
	}

	@Test
	void namespacesHaveTheirOwnSlots() {
		this.manager.borrow(request(0, TTL, -1, NOW));
		WorkerLease other = this.manager.borrow(
				new LeaseRequest(this.namespace + "-other", 0, TTL, -1, "contract-test/2", NOW));
		assertThat(other.workerId()).isZero();
		assertThat(other.timestampFloor()).isEqualTo(-1);
	}

	@Test
	void aStoreThatIsNotSetUpFailsWithALeaseStoreException() {
		ISequenceManager unset = createManagerWithoutStorage();
		Assumptions.assumeTrue(unset != null, withoutStorageSkipReason());
		assertThatExceptionOfType(LeaseStoreException.class)
			.isThrownBy(() -> unset.borrow(request(15, TTL, -1, NOW)))
			.withMessageContaining(this.namespace)
			.satisfies((ex) -> assertThat(ex.getMessage()).contains(missingStorageMessageParts()));
	}


	private static final String TWITTER = new RecordedLayout(SnowflakePresets.twitter(), "twitter").format();

	private static final String DEFAULTS = new RecordedLayout(SnowflakeLayout.defaults(), null).format();

	private static final String SAFE = new RecordedLayout(
			SnowflakeLayout.javaScriptSafe(SnowflakeLayout.DEFAULT_EPOCH), null).format();

	/**
	 * Returns the first step of a planned change from one recorded layout to another: the new layout, pending,
	 * replacing the old one. Replacements in these tests are such steps, so that a store that judges a change (the ID
	 * server's fleet API) carries them out as every other store does.
	 */
	private static String pending(String replacement, String replaced) {
		return RecordedLayout.parse(replacement).replacing(RecordedLayout.parse(replaced)).format();
	}

	@Test
	void theFirstRecordedLayoutStaysAndEveryLaterNodeIsToldIt() {
		assumeKeepsLayouts();
		assertThat(this.manager.recordLayout(this.namespace, TWITTER)).isEqualTo(TWITTER);
		assertThat(this.manager.recordLayout(this.namespace, DEFAULTS)).isEqualTo(TWITTER);
		assertThat(this.manager.recordLayout(this.namespace, TWITTER)).isEqualTo(TWITTER);
		assertThat(this.manager.recordLayout(this.namespace + "-other", DEFAULTS)).isEqualTo(DEFAULTS);
	}

	@Test
	void readingTheLayoutAnswersTheRecordAndWritesNone() {
		assumeKeepsLayouts();
		assertThat(this.manager.readLayout(this.namespace)).as("nothing recorded").isNull();
		assertThat(this.manager.recordLayout(this.namespace, DEFAULTS)).as("the read recorded nothing")
			.isEqualTo(DEFAULTS);
		assertThat(this.manager.readLayout(this.namespace)).isEqualTo(DEFAULTS);
		assertThat(this.manager.replaceLayout(this.namespace, DEFAULTS, pending(TWITTER, DEFAULTS))).isTrue();
		assertThat(this.manager.readLayout(this.namespace)).isEqualTo(pending(TWITTER, DEFAULTS));
		assertThat(this.manager.readLayout(this.namespace + "-other")).isNull();
		assertThat(this.manager.slotMarks(this.namespace)).isEmpty();
	}

	@Test
	void aRecordedLayoutIsKeptAsWrittenUpToItsLongestForm() {
		assumeKeepsLayouts();
		String longest = TWITTER + ";note=" + "x".repeat(RecordedLayout.MAX_LENGTH - TWITTER.length() - 6);
		assertThat(longest).hasSize(RecordedLayout.MAX_LENGTH);
		assertThat(this.manager.recordLayout(this.namespace, longest)).isEqualTo(longest);
		assertThat(this.manager.readLayout(this.namespace)).isEqualTo(longest);
		assertThat(RecordedLayout.parse(this.manager.recordLayout(this.namespace, DEFAULTS)).preset())
			.isEqualTo("twitter");
	}

	@Test
	void aLayoutIsReplacedOnlyWhileItIsStillTheExpectedOne() {
		assumeKeepsLayouts();
		String change = pending(DEFAULTS, TWITTER);
		assertThat(this.manager.replaceLayout(this.namespace, TWITTER, change)).as("nothing recorded yet").isFalse();
		this.manager.recordLayout(this.namespace, TWITTER);
		assertThat(this.manager.replaceLayout(this.namespace, SAFE, pending(DEFAULTS, SAFE)))
			.as("another layout expected").isFalse();
		assertThat(this.manager.recordLayout(this.namespace, SAFE)).isEqualTo(TWITTER);
		assertThat(this.manager.replaceLayout(this.namespace, TWITTER, change)).isTrue();
		assertThat(this.manager.readLayout(this.namespace)).isEqualTo(change);
		assertThat(this.manager.replaceLayout(this.namespace, TWITTER, pending(SAFE, TWITTER)))
			.as("the old layout again").isFalse();
		assertThat(this.manager.readLayout(this.namespace)).isEqualTo(change);
		assertThat(this.manager.replaceLayout(this.namespace, change, TWITTER)).as("put back").isTrue();
		assertThat(this.manager.readLayout(this.namespace)).isEqualTo(TWITTER);
	}

	@Test
	void theLayoutRecordIsNeitherLentNorListedAsASlot() {
		assumeKeepsLayouts();
		this.manager.recordLayout(this.namespace, TWITTER);
		assertThat(this.manager.slotMarks(this.namespace)).isEmpty();
		LeaseRequest twitter = new LeaseRequest(this.namespace, 0, TTL, -1, "contract-test/1", NOW, Set.of(), TWITTER);
		WorkerLease lease = this.manager.borrow(twitter);
		assertThat(lease.workerId()).isZero();
		assertThat(lease.timestampFloor()).isEqualTo(-1);
		assertThatExceptionOfType(NoFreeWorkerIdException.class).isThrownBy(() -> this.manager.borrow(twitter));
		assertThat(this.manager.slotMarks(this.namespace)).extracting(SlotMark::workerId).containsExactly(0);
		this.manager.release(lease, NOW);
		assertThat(this.manager.readLayout(this.namespace)).isEqualTo(TWITTER);
	}

	@Test
	void slotMarksShowEachSlotsMarkAndWhetherALeaseHoldsItByTheStoresClock() throws InterruptedException {
		assumeKeepsLayouts();
		assertThat(this.manager.slotMarks(this.namespace)).isEmpty();
		WorkerLease held = this.manager.borrow(request(15, TTL, -1, NOW + 1_000));
		WorkerLease released = this.manager.borrow(request(15, TTL, -1, NOW + 2_000));
		this.manager.release(released, NOW + 500);
		WorkerLease expiring = borrowExpiring(request(15, SHORT_TTL, -1, NOW + 3_000));
		this.manager.renew(held, NOW + 4_000);
		assertThat(this.manager.slotMarks(this.namespace)).containsExactlyInAnyOrder(
				new SlotMark(held.workerId(), NOW + 4_000, true),
				new SlotMark(released.workerId(), NOW + 500, false),
				new SlotMark(expiring.workerId(), NOW + 3_000, true));
		letExpire(expiring);
		assertThat(this.manager.slotMarks(this.namespace)).contains(new SlotMark(expiring.workerId(), NOW + 3_000,
				false));
		assertThat(this.manager.slotMarks(this.namespace + "-other")).isEmpty();
	}

	@Test
	void concurrentFirstNodesAgreeOnOneLayout() throws Exception {
		assumeKeepsLayouts();
		List<String> layouts = List.of(TWITTER, DEFAULTS, SAFE, TWITTER + ";preset-note=x");
		ExecutorService pool = Executors.newFixedThreadPool(layouts.size());
		try {
			for (int round = 0; round < 5; round++) {
				String namespace = this.namespace + "-" + round;
				List<Callable<String>> calls = new ArrayList<>();
				layouts.forEach((layout) -> calls.add(() -> this.manager.recordLayout(namespace, layout)));
				List<String> answers = new ArrayList<>();
				for (Future<String> answer : pool.invokeAll(calls)) {
					answers.add(answer.get());
				}
				assertThat(answers).as("answers of round %s", round).containsOnly(answers.get(0));
				assertThat(layouts).contains(answers.get(0));
				assertThat(this.manager.readLayout(namespace)).isEqualTo(answers.get(0));
			}
		}
		finally {
			pool.shutdownNow();
		}
	}

	@Test
	void concurrentReplacementsOfTheSameTextSucceedExactlyOnce() throws Exception {
		assumeKeepsLayouts();
		for (int round = 0; round < 5; round++) {
			String namespace = this.namespace + "-" + round;
			this.manager.recordLayout(namespace, TWITTER);
			String change = pending(DEFAULTS, TWITTER);
			List<Boolean> answers = ContractSupport.concurrently(4,
					() -> this.manager.replaceLayout(namespace, TWITTER, change));
			assertThat(answers).as("answers of round %s: two writers that both believe they made the change would "
					+ "both go on as its maker", round).containsOnlyOnce(true);
			assertThat(this.manager.readLayout(namespace)).isEqualTo(change);
		}
	}

	@Test
	void aLayoutRecordLongerThanItsLongestFormIsRefusedAndNothingIsWritten() {
		assumeKeepsLayouts();
		String tooLong = TWITTER + ";note=" + "x".repeat(RecordedLayout.MAX_LENGTH - TWITTER.length() - 5);
		assertThat(tooLong).hasSize(RecordedLayout.MAX_LENGTH + 1);
		assertThatIllegalArgumentException().isThrownBy(() -> this.manager.recordLayout(this.namespace, tooLong))
			.withMessageContaining("must be 1 to " + RecordedLayout.MAX_LENGTH + " characters")
			.withMessageContaining("was " + (RecordedLayout.MAX_LENGTH + 1));
		assertThat(this.manager.readLayout(this.namespace)).isNull();
		this.manager.recordLayout(this.namespace, TWITTER);
		assertThatIllegalArgumentException()
			.isThrownBy(() -> this.manager.replaceLayout(this.namespace, TWITTER, tooLong))
			.withMessageContaining("must be 1 to " + RecordedLayout.MAX_LENGTH + " characters");
		assertThat(this.manager.readLayout(this.namespace)).isEqualTo(TWITTER);
	}

	@Test
	void aLeaseKeeperOfAnotherLayoutIsRefusedBeforeItTakesASlot() {
		assumeKeepsLayouts();
		WorkerLeaseKeeper first = keeper(SnowflakeLayout.defaults());
		WorkerLeaseKeeper other = keeper(SnowflakePresets.twitter());
		try {
			first.start();
			assertThat(this.manager.readLayout(this.namespace)).isEqualTo(DEFAULTS);
			assertThatExceptionOfType(LayoutConflictException.class).isThrownBy(other::start)
				.withMessageContaining("differs from the one recorded for namespace '" + this.namespace + "'");
			assertThat(this.manager.slotMarks(this.namespace)).as("only the first keeper's slot")
				.singleElement()
				.satisfies((mark) -> assertThat(mark.held()).isTrue());
		}
		finally {
			other.close();
			first.close();
		}
	}

	/**
	 * Returns a lease keeper on the store under test in this test's namespace. Its clock is this machine's, which a
	 * store on a clock of the test's own does not follow, so the check of the clock against the store's is off.
	 */
	private WorkerLeaseKeeper keeper(SnowflakeLayout layout) {
		SnowflakeIdGenerator generator = new SnowflakeIdGenerator(layout, TimeSource.system(),
				ClockBackwardsPolicy.defaults(), IdWorkerListener.NONE);
		LeaseSettings settings = LeaseSettings.builder()
			.namespace(this.namespace)
			.ttl(TTL)
			.heartbeat(TTL.dividedBy(4))
			.safetyMargin(TTL.dividedBy(4))
			.maxClockSkew(null)
			.build();
		return new WorkerLeaseKeeper(this.manager, generator, settings, TimeSource.system(), IdWorkerListener.NONE);
	}

	private void assumeKeepsLayouts() {
		Assumptions.assumeTrue(keepsLayouts(), "this store keeps no layouts");
	}

}
