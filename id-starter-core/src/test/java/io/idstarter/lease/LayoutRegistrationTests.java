package io.idstarter.lease;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.UnaryOperator;

import io.idstarter.IdWorkerListener;
import io.idstarter.lease.LayoutConflictException.Reason;
import io.idstarter.lease.LeaseStatus.State;
import io.idstarter.snowflake.ClockBackwardsPolicy;
import io.idstarter.snowflake.RecordedLayout;
import io.idstarter.snowflake.SnowflakeIdGenerator;
import io.idstarter.snowflake.SnowflakeLayout;
import io.idstarter.snowflake.WorkerIdUnavailableException;
import io.idstarter.time.ManualTimeSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The layout record of a namespace, through lease keepers on one in-memory store: a node of another layout is refused,
 * and a planned change happens only when no node of the old layout can still issue and the new IDs sort above the old
 * ones, including when an old node borrows, or wakes from a pause, while the change is under way.
 */
@Timeout(60)
class LayoutRegistrationTests {

	private static final Instant START = Instant.parse("2026-01-01T00:00:00Z");

	private static final Duration TTL = Duration.ofSeconds(60);

	/** The old layout: the default one. */
	private static final SnowflakeLayout OLD = SnowflakeLayout.defaults();

	/** A new layout whose IDs of the same millisecond sort above the old one's: same epoch and timestamp bits. */
	private static final SnowflakeLayout WIDER_SEQUENCE = SnowflakeLayout.of(SnowflakeLayout.DEFAULT_EPOCH, 41, 8, 14);

	/** A new layout whose IDs of today sort far below the old one's: an epoch a day before START. */
	private static final SnowflakeLayout LATER_EPOCH = SnowflakeLayout.of(START.minus(Duration.ofDays(1)), 41, 10, 12);

	/** A layout whose IDs of a millisecond sort below the old one's of the same millisecond: an epoch a second later. */
	private static final SnowflakeLayout SECOND = SnowflakeLayout.of(SnowflakeLayout.DEFAULT_EPOCH.plusSeconds(1), 41, 10,
			12);

	/** The layout that replaces SECOND: its epoch, other widths. */
	private static final SnowflakeLayout THIRD = SnowflakeLayout.of(SnowflakeLayout.DEFAULT_EPOCH.plusSeconds(1), 41, 8,
			14);

	private final String namespace = "layout-" + UUID.randomUUID();

	private final ManualTimeSource clock = new ManualTimeSource(START);

	private final InMemoryLeaseStore store = new InMemoryLeaseStore(this.clock);

	private final List<WorkerLeaseKeeper> keepers = new ArrayList<>();

	@AfterEach
	void closeKeepers() {
		this.keepers.forEach(WorkerLeaseKeeper::close);
	}

	private Node node(SnowflakeLayout layout) {
		return node(layout, this.store, UnaryOperator.identity());
	}

	private Node node(SnowflakeLayout layout, ISequenceManager store, UnaryOperator<LeaseSettings.Builder> settings) {
		SnowflakeIdGenerator generator = new SnowflakeIdGenerator(layout, this.clock, ClockBackwardsPolicy.defaults(),
				IdWorkerListener.NONE);
		WorkerLeaseKeeper keeper = new WorkerLeaseKeeper(store, generator, settings.apply(LeaseSettings.builder()
			.namespace(this.namespace)
			.ttl(TTL)
			.heartbeat(Duration.ofSeconds(20))
			.safetyMargin(Duration.ofSeconds(5))
			.maxStartupWait(Duration.ofSeconds(2))).build(), this.clock, IdWorkerListener.NONE);
		this.keepers.add(keeper);
		return new Node(generator, keeper);
	}

	private Node changer(SnowflakeLayout layout, ISequenceManager store) {
		return node(layout, store, (settings) -> settings.replacedLayout(new RecordedLayout(OLD, null).format()));
	}

	private String recorded() {
		return this.store.readLayout(this.namespace);
	}

	@Test
	void theFirstNodeRecordsItsLayoutWithItsPresetAndNodesOfThatLayoutShareTheNamespace() {
		Node first = node(OLD, this.store, (settings) -> settings.layoutPreset("mine"));
		first.keeper.startLease(false);
		Node second = node(OLD);
		second.keeper.startLease(false);
		assertThat(RecordedLayout.parse(recorded())).isEqualTo(new RecordedLayout(OLD, "mine"));
		assertThat(first.generator.nextId()).isNotEqualTo(second.generator.nextId());
	}

	@Test
	void aNodeOfAnotherLayoutIsRefusedNamingBothLayoutsAndBorrowsNothing() {
		node(OLD).keeper.startLease(false);
		Node other = node(WIDER_SEQUENCE);
		assertThatExceptionOfType(LayoutConflictException.class).isThrownBy(() -> other.keeper.startLease(false))
			.withMessageContaining(new RecordedLayout(WIDER_SEQUENCE, null).describe())
			.withMessageContaining(new RecordedLayout(OLD, null).describe())
			.withMessageContaining("'" + new RecordedLayout(OLD, null).format() + "'")
			.satisfies((ex) -> assertThat(ex.getReason()).isEqualTo(Reason.LAYOUT_DIFFERS));
		assertThat(this.store.slotMarks(this.namespace)).extracting(SlotMark::workerId).containsExactly(0);
		assertThatExceptionOfType(WorkerIdUnavailableException.class).isThrownBy(other.generator::nextId);
	}

	@Test
	void aPlannedChangeAfterTheOldNodesStoppedRecordsTheFloorAndEveryNewIdSortsAboveEveryOldOne() {
		Node old = node(OLD);
		old.keeper.startLease(false);
		long lastOld = 0;
		for (int i = 0; i < 1_000; i++) {
			lastOld = Math.max(lastOld, old.generator.nextId());
		}
		old.keeper.close();
		this.clock.advance(Duration.ofMillis(1));
		Node changer = changer(WIDER_SEQUENCE, this.store);
		changer.keeper.startLease(false);
		RecordedLayout record = RecordedLayout.parse(recorded());
		assertThat(record.sameLayoutAs(new RecordedLayout(WIDER_SEQUENCE, null))).isTrue();
		assertThat(record.pending()).isFalse();
		assertThat(record.floorId()).isGreaterThanOrEqualTo(lastOld);
		assertThat(changer.generator.nextId()).isGreaterThan(record.floorId());
		Node later = node(WIDER_SEQUENCE);
		later.keeper.startLease(false);
		assertThat(later.generator.nextId()).isGreaterThan(record.floorId());
		assertThatExceptionOfType(LayoutConflictException.class).isThrownBy(() -> node(OLD).keeper.startLease(false));
	}

	@Test
	void aSecondChangeBeforeTheFirstLayoutsIdsPassedItsFloorKeepsThatFloor() {
		Node old = node(OLD);
		old.keeper.startLease(false);
		old.generator.nextId();
		old.keeper.close();
		long firstFloor = OLD.greatestIdUpTo(START.toEpochMilli());
		// OLD -> SECOND, completed with the old layout's floor; no node of SECOND borrowed, so the marks are OLD's
		RecordedLayout second = new RecordedLayout(SECOND, null);
		String pending = second.replacing(RecordedLayout.parse(recorded())).format();
		assertThat(this.store.replaceLayout(this.namespace, recorded(), pending)).isTrue();
		assertThat(this.store.replaceLayout(this.namespace, pending, second.completedAbove(firstFloor).format()))
			.isTrue();
		assertThat(SECOND.greatestIdUpTo(START.toEpochMilli())).as("SECOND's IDs of the marks sort below the floor")
			.isLessThan(firstFloor);
		this.clock.advance(Duration.ofSeconds(2));
		Node third = node(THIRD, this.store, (settings) -> settings.replacedLayout(second.format()));
		third.keeper.startLease(false);
		RecordedLayout record = RecordedLayout.parse(recorded());
		assertThat(record.layout()).isEqualTo(THIRD);
		assertThat(record.floorId()).as("at least the floor of the change before").isGreaterThanOrEqualTo(firstFloor);
		assertThat(third.generator.nextId()).isGreaterThan(firstFloor);
	}

	@Test
	void aPlannedChangeOfANamespaceWhoseSlotsWereNeverUsedIsMadeAtOnce() {
		String old = new RecordedLayout(OLD, null).format();
		assertThat(this.store.recordLayout(this.namespace, old)).isEqualTo(old);
		Node changer = changer(LATER_EPOCH, this.store);
		changer.keeper.startLease(false);
		RecordedLayout record = RecordedLayout.parse(recorded());
		assertThat(record.layout()).isEqualTo(LATER_EPOCH);
		assertThat(record.pending()).isFalse();
		assertThat(record.floorId()).as("the old layout issued nothing").isEqualTo(-1);
		assertThat(changer.generator.nextId()).isPositive();
	}

	@Test
	void aPlannedChangeIsRefusedWhileANodeOfTheOldLayoutHoldsASlot() {
		node(OLD).keeper.startLease(false);
		String before = recorded();
		assertThatExceptionOfType(LayoutConflictException.class)
			.isThrownBy(() -> changer(WIDER_SEQUENCE, this.store).keeper.startLease(false))
			.withMessageContaining("worker IDs [0] are still held under the old layout")
			.satisfies((ex) -> assertThat(ex.getReason()).isEqualTo(Reason.CHANGE_REFUSED));
		assertThat(recorded()).isEqualTo(before);
	}

	@Test
	void aPlannedChangeIsRefusedWhenTheNewIdsWouldSortBelowTheOldOnes() {
		Node old = node(OLD);
		old.keeper.startLease(false);
		old.generator.nextId();
		old.keeper.close();
		String before = recorded();
		assertThatExceptionOfType(LayoutConflictException.class)
			.isThrownBy(() -> changer(LATER_EPOCH, this.store).keeper.startLease(false))
			.withMessageContaining("refused: its IDs would sort above every ID")
			.withMessageContaining("beyond maxStartupWait");
		assertThat(recorded()).isEqualTo(before);
	}

	@Test
	void anOldNodeThatBorrowsWhileTheChangeIsUnderWayIsSeenAndTheOldRecordIsPutBack() {
		node(OLD).keeper.startLease(false);
		this.keepers.get(0).close();
		String before = recorded();
		// an old node whose look at the record came before the compare-and-set borrows right after it
		ISequenceManager racing = new DelegatingStore(this.store) {
			@Override
			public boolean replaceLayout(String namespace, String expected, String replacement) {
				boolean replaced = super.replaceLayout(namespace, expected, replacement);
				if (replaced && RecordedLayout.parse(replacement).pending()) {
					LayoutRegistrationTests.this.store.borrow(new LeaseRequest(namespace, OLD.maxWorkerId(), TTL, -1,
							"old-node", START.toEpochMilli()));
				}
				return replaced;
			}
		};
		assertThatExceptionOfType(LayoutConflictException.class)
			.isThrownBy(() -> changer(WIDER_SEQUENCE, racing).keeper.startLease(false))
			.withMessageContaining("still held under the old layout");
		assertThat(recorded()).isEqualTo(before);
	}

	@Test
	void aCompletionTheStoreRefusesFromItsOwnReadOfTheSlotsPutsTheOldRecordBackAndRefusesTheChange() {
		Node old = node(OLD);
		old.keeper.startLease(false);
		old.keeper.close();
		String before = recorded();
		// the ID server judges the completion itself, and its read of the slots finds one held
		ISequenceManager judging = new DelegatingStore(this.store) {
			@Override
			public boolean replaceLayout(String namespace, String expected, String replacement) {
				if (RecordedLayout.parse(expected).pending() && !RecordedLayout.parse(replacement).pending()
						&& RecordedLayout.parse(replacement).layout().equals(WIDER_SEQUENCE)) {
					throw new LayoutChangeRefusedException("ID server: worker IDs [3] are held");
				}
				return super.replaceLayout(namespace, expected, replacement);
			}
		};
		assertThatExceptionOfType(LayoutConflictException.class)
			.isThrownBy(() -> changer(WIDER_SEQUENCE, judging).keeper.startLease(false))
			.withMessageContaining("refused by the lease store (ID server: worker IDs [3] are held)")
			.withMessageContaining("the old record was put back")
			.satisfies((ex) -> assertThat(ex.getReason()).isEqualTo(Reason.CHANGE_REFUSED));
		assertThat(recorded()).isEqualTo(before);
	}

	@Test
	void aChangeLeftPendingByAChangerThatDiedIsCompletedByTheNextNodeOfTheNewLayout() {
		Node old = node(OLD);
		old.keeper.startLease(false);
		long lastOld = old.generator.nextId();
		old.keeper.close();
		String oldRecord = recorded();
		String pending = new RecordedLayout(WIDER_SEQUENCE, null).replacing(new RecordedLayout(OLD, null)).format();
		assertThat(this.store.replaceLayout(this.namespace, oldRecord, pending)).isTrue();
		this.clock.advance(Duration.ofMillis(1));
		assertThatExceptionOfType(LayoutConflictException.class).isThrownBy(() -> node(OLD).keeper.startLease(false));
		Node next = node(WIDER_SEQUENCE);
		next.keeper.startLease(false);
		RecordedLayout record = RecordedLayout.parse(recorded());
		assertThat(record.pending()).isFalse();
		assertThat(record.floorId()).isGreaterThanOrEqualTo(lastOld);
		assertThat(next.generator.nextId()).isGreaterThan(record.floorId());
	}

	@Test
	void nodesOfTheNewLayoutStartedTogetherWithTheChangeAllStartWhicheverMakesIt() {
		Node old = node(OLD);
		old.keeper.startLease(false);
		long lastOld = old.generator.nextId();
		old.keeper.close();
		this.clock.advance(Duration.ofMillis(1));
		// A makes the whole change and borrows while B reads the slots for the same change
		List<Node> started = new ArrayList<>();
		Node b = changer(WIDER_SEQUENCE, runningFirst(() -> started.add(startedChanger(WIDER_SEQUENCE))));
		b.keeper.startLease(false);
		assertThat(started).hasSize(1);
		assertBothIssueAboveTheFloor(started.get(0), b, lastOld);
	}

	@Test
	void aNodeOfTheNewLayoutCompletingAPendingChangeStartsWhenAnotherCompletedItAndBorrowedMeanwhile() {
		Node old = node(OLD);
		old.keeper.startLease(false);
		long lastOld = old.generator.nextId();
		old.keeper.close();
		String pending = new RecordedLayout(WIDER_SEQUENCE, null).replacing(RecordedLayout.parse(recorded())).format();
		assertThat(this.store.replaceLayout(this.namespace, recorded(), pending)).isTrue();
		this.clock.advance(Duration.ofMillis(1));
		// B reads the pending record; A completes it and borrows while B reads the slots to complete it
		List<Node> started = new ArrayList<>();
		Node b = changer(WIDER_SEQUENCE, runningFirst(() -> started.add(startedChanger(WIDER_SEQUENCE))));
		b.keeper.startLease(false);
		assertThat(started).hasSize(1);
		assertBothIssueAboveTheFloor(started.get(0), b, lastOld);
	}

	private Node startedChanger(SnowflakeLayout layout) {
		Node node = changer(layout, this.store);
		node.keeper.startLease(false);
		return node;
	}

	/**
	 * Returns the store, whose first slotMarks call runs {@code first} before it reads.
	 */
	private ISequenceManager runningFirst(Runnable first) {
		return new DelegatingStore(this.store) {

			private boolean ran;

			@Override
			public List<SlotMark> slotMarks(String namespace) {
				if (!this.ran) {
					this.ran = true;
					first.run();
				}
				return super.slotMarks(namespace);
			}

		};
	}

	private void assertBothIssueAboveTheFloor(Node a, Node b, long lastOld) {
		RecordedLayout record = RecordedLayout.parse(recorded());
		assertThat(record.pending()).isFalse();
		assertThat(record.layout()).isEqualTo(WIDER_SEQUENCE);
		assertThat(record.floorId()).isGreaterThanOrEqualTo(lastOld);
		assertThat(a.generator.workerId()).isNotEqualTo(b.generator.workerId());
		assertThat(a.generator.nextId()).isGreaterThan(record.floorId());
		assertThat(b.generator.nextId()).isGreaterThan(record.floorId());
	}

	@Test
	void aLostRecordIsRecordedAgainByTheRunningNodesAtTheirRenewalAndANodeOfTheOldLayoutWaitsForItAndIsRefused() {
		Node old = node(OLD);
		old.keeper.startLease(false);
		old.generator.nextId();
		old.keeper.close();
		this.clock.advance(Duration.ofMillis(1));
		Node running = changer(WIDER_SEQUENCE, this.store);
		running.keeper.startLease(false);
		String changed = recorded();
		this.store.forgetLayout(this.namespace);
		// the old node finds no record; the running node renews while it waits
		Node late = node(OLD, new DelegatingStore(this.store) {

			@Override
			public String readLayout(String namespace) {
				String text = super.readLayout(namespace);
				if (text == null) {
					running.keeper.heartbeat();
				}
				return text;
			}

		}, UnaryOperator.identity());
		assertThatExceptionOfType(LayoutConflictException.class).isThrownBy(() -> late.keeper.startLease(false))
			.withMessageContaining("differs from the one recorded");
		assertThat(recorded()).as("recorded again as the running node last read it, with its floor").isEqualTo(changed);
		assertThat(RecordedLayout.parse(changed).floorId()).isPositive();
		assertThat(running.keeper.status().state()).isEqualTo(State.ACTIVE);
		assertThat(running.generator.nextId()).isPositive();
	}

	@Test
	void aNodeThatFindsNoRecordWhileASlotIsHeldIsRefusedWhenItsHolderNeitherRenewsNorEndsWithinTheBudget() {
		Node running = node(OLD);
		running.keeper.startLease(false);
		this.store.forgetLayout(this.namespace);
		Node other = node(WIDER_SEQUENCE, readsOneSecondApart(() -> {
		}), UnaryOperator.identity());
		assertThatExceptionOfType(LayoutConflictException.class).isThrownBy(() -> other.keeper.startLease(false))
			.withMessageContaining("layout record of namespace '" + this.namespace + "' is missing while worker IDs "
					+ "[0] are held")
			.withMessageContaining("id-worker.lease.max-startup-wait")
			.satisfies((ex) -> assertThat(ex.getReason()).isEqualTo(Reason.RECORD_MISSING));
		assertThat(recorded()).as("nothing recorded").isNull();
		assertThat(this.store.slotMarks(this.namespace)).extracting(SlotMark::workerId).containsExactly(0);
		assertThat(running.generator.nextId()).isPositive();
		running.keeper.heartbeat();
		assertThat(RecordedLayout.parse(recorded()).layout()).as("recorded again at the running node's renewal")
			.isEqualTo(OLD);
		assertThat(running.keeper.status().state()).isEqualTo(State.ACTIVE);
	}

	@Test
	void aRunningNodeThatFindsAnotherLayoutRecordedStopsAndSaysBothWhatToDoIfItWasAChangeAndIfNot() {
		Node running = node(OLD);
		running.keeper.startLease(false);
		this.store.forgetLayout(this.namespace);
		this.store.recordLayout(this.namespace, new RecordedLayout(WIDER_SEQUENCE, null).format());
		running.keeper.heartbeat();
		assertThat(running.keeper.status().state()).isEqualTo(State.LOST);
		assertThatExceptionOfType(WorkerIdUnavailableException.class).isThrownBy(running.generator::nextId)
			.withMessageContaining(new RecordedLayout(WIDER_SEQUENCE, null).describe())
			.withMessageContaining("If the namespace's layout was changed on purpose, restart this node")
			.withMessageContaining("If not")
			.withMessageContaining("delete the record");
	}

	@Test
	void aHolderThatRenewedOnceWithoutRecordingMayNotHaveConfirmedYetSoTheNodeWaitsForAnotherRenewal() {
		// a running node paused between its renewal and its look at the record, which would record it again
		WorkerLease held = olderNode();
		int[] renewals = { 0 };
		Node next = node(WIDER_SEQUENCE, readsOneSecondApart(() -> {
			if (renewals[0]++ == 0) {
				this.store.renew(held, this.clock.currentTimeMillis() + TTL.toMillis());
			}
		}), UnaryOperator.identity());
		assertThatExceptionOfType(LayoutConflictException.class).isThrownBy(() -> next.keeper.startLease(false))
			.satisfies((ex) -> assertThat(ex.getReason()).isEqualTo(Reason.RECORD_MISSING));
		assertThat(recorded()).isNull();
	}

	@Test
	void aNodeThatFindsNoRecordRecordsItsOwnOnceTheHoldersRenewedTwiceWithoutRecordingIt() {
		// held by a node before 0.2.0, which renews but never records a layout
		WorkerLease held = olderNode();
		Instant start = this.clock.instant();
		Node next = node(OLD, readsOneSecondApart(() -> this.store.renew(held, this.clock.currentTimeMillis() + TTL.toMillis())),
				(settings) -> settings.maxStartupWait(Duration.ofSeconds(30)));
		next.keeper.startLease(false);
		assertThat(RecordedLayout.parse(recorded()).layout()).isEqualTo(OLD);
		assertThat(Duration.between(start, this.clock.instant())).as("two renewals, not the whole budget")
			.isLessThan(Duration.ofSeconds(5));
	}

	@Test
	void aNodeThatFindsNoRecordRecordsItsOwnOnceTheHoldersLeasesEnded() {
		WorkerLease held = olderNode();
		Node next = node(WIDER_SEQUENCE, readsOneSecondApart(() -> this.store.release(held, -1)),
				UnaryOperator.identity());
		next.keeper.startLease(false);
		assertThat(RecordedLayout.parse(recorded()).layout()).isEqualTo(WIDER_SEQUENCE);
	}

	/**
	 * Borrows a slot as a node before 0.2.0 does: no layout named, none recorded.
	 */
	private WorkerLease olderNode() {
		return this.store.borrow(new LeaseRequest(this.namespace, OLD.maxWorkerId(), TTL, -1, "older-node",
				START.toEpochMilli() + TTL.toMillis()));
	}

	/**
	 * Returns the store, on which a second passes before every read of the record that finds none, and
	 * {@code meanwhile} runs.
	 */
	private ISequenceManager readsOneSecondApart(Runnable meanwhile) {
		return new DelegatingStore(this.store) {

			@Override
			public String readLayout(String namespace) {
				String text = super.readLayout(namespace);
				if (text == null) {
					LayoutRegistrationTests.this.clock.advance(Duration.ofSeconds(1));
					meanwhile.run();
				}
				return text;
			}

		};
	}

	@Test
	void anOldNodeWhoseLeaseRanOutDuringAPauseStopsAtItsNextRenewalAfterTheChange() {
		Node old = node(OLD);
		old.keeper.startLease(false);
		old.generator.nextId();
		// paused past its lease: the store lets it expire, nobody takes the slot, so its renewal would still succeed
		this.clock.advance(TTL.plusSeconds(1));
		Node changer = changer(WIDER_SEQUENCE, this.store);
		changer.keeper.startLease(false);
		old.keeper.heartbeat();
		assertThat(old.keeper.status().state()).isEqualTo(State.LOST);
		assertThatExceptionOfType(WorkerIdUnavailableException.class).isThrownBy(old.generator::nextId);
		assertThat(this.store.holder(this.namespace, 0)).isEmpty();
		assertThat(changer.generator.nextId()).isGreaterThan(RecordedLayout.parse(recorded()).floorId());
	}

	@Test
	void aStoreThatKeepsNoLayoutsStillLeasesWorkerIds() {
		Node node = node(OLD, new DelegatingStore(this.store) {
			@Override
			public String recordLayout(String namespace, String layout) {
				return null;
			}
		}, UnaryOperator.identity());
		node.keeper.startLease(false);
		assertThat(node.generator.nextId()).isPositive();
	}

	@Test
	void aStoreThatOnceAnswersItKeepsNoLayoutsIsAskedAgainAtTheNextRenewal() {
		node(OLD).keeper.startLease(false);
		// an ID server of an older version answers the start's calls, one that keeps layouts the later ones
		Node other = node(WIDER_SEQUENCE, new DelegatingStore(this.store) {

			private int answered;

			@Override
			public String readLayout(String namespace) {
				if (this.answered++ < 2) {
					throw new UnsupportedOperationException("the ID server has no layout calls (404)");
				}
				return super.readLayout(namespace);
			}

		}, UnaryOperator.identity());
		// before and after its borrow
		other.keeper.startLease(false);
		other.keeper.heartbeat();
		assertThat(other.keeper.status().state()).isEqualTo(State.LOST);
		assertThatExceptionOfType(WorkerIdUnavailableException.class).isThrownBy(other.generator::nextId);
	}

	private record Node(SnowflakeIdGenerator generator, WorkerLeaseKeeper keeper) {
	}

	/**
	 * Passes every call to the in-memory store; tests override one to interleave with it.
	 */
	private static class DelegatingStore implements ISequenceManager {

		private final InMemoryLeaseStore store;

		DelegatingStore(InMemoryLeaseStore store) {
			this.store = store;
		}

		@Override
		public WorkerLease borrow(LeaseRequest request) {
			return this.store.borrow(request);
		}

		@Override
		public WorkerLease renew(WorkerLease lease, long timestampCeiling) {
			return this.store.renew(lease, timestampCeiling);
		}

		@Override
		public void release(WorkerLease lease, long lastIssuedTimestamp) {
			this.store.release(lease, lastIssuedTimestamp);
		}

		@Override
		public String recordLayout(String namespace, String layout) {
			return this.store.recordLayout(namespace, layout);
		}

		@Override
		public String readLayout(String namespace) {
			return this.store.readLayout(namespace);
		}

		@Override
		public boolean replaceLayout(String namespace, String expected, String replacement) {
			return this.store.replaceLayout(namespace, expected, replacement);
		}

		@Override
		public List<SlotMark> slotMarks(String namespace) {
			return this.store.slotMarks(namespace);
		}

	}

}
