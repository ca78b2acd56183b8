package io.idstarter.lease;

import java.time.Instant;
import java.util.List;

import io.idstarter.IdGenerationException;
import io.idstarter.snowflake.RecordedLayout;
import io.idstarter.snowflake.SnowflakeLayout;
import io.idstarter.time.TimeSource;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps a node to the layout recorded for its namespace: records it for the first node, refuses a node whose layout
 * differs, and carries out a planned layout change. Called by the lease heartbeat under its lock, before and after
 * every borrow and after every renewal.
 */
final class LayoutRegistration {

	/*
	 * Why IDs of two layouts never collide in a namespace (see docs/snowflake.md, "Changing a layout"):
	 *   - Every node looks at the record before it borrows (register) and again after each borrow and each renewal,
	 *     before it is granted what the store answered (confirm). A node that finds another layout recorded, or a change
	 *     not yet complete, issues nothing under that answer and gives the slot back.
	 *   - A change is a compare-and-set of the record from the old layout to the new one marked pending; it completes
	 *     only when a later read of the slots finds none held, and the completed record carries floor-id, the greatest
	 *     ID the old layout allows under the slots' marks read then. A node of the old layout that held a slot at the
	 *     compare-and-set is seen by that read; one that borrows or renews after it confirms afterwards and stops; its
	 *     grant from before never reaches past the mark that was read. Every node of the new layout issues only above
	 *     floor-id (its grant's floor is the millisecond whose first ID is above it).
	 *   - A changer that dies between its compare-and-set and the completion leaves the record pending: the next node
	 *     of the new layout completes it, or refuses while slots are held.
	 */

	private static final Logger logger = LoggerFactory.getLogger(WorkerLeaseKeeper.class);

	private static final long FLOOR_POLL_MILLIS = 50;

	private final InstrumentedLeaseStore store;

	private final RecordedLayout own;

	private final @Nullable RecordedLayout changeFrom;

	private final LeaseSettings settings;

	private final TimeSource time;

	/** Whether the store keeps layouts; {@code false} once it answered that it keeps none. Changed under the lock. */
	private boolean kept = true;

	/** The greatest timestamp this node must not issue at, from the record's floor-id; -1 for none. */
	private long floorMillis = -1;

	LayoutRegistration(InstrumentedLeaseStore store, RecordedLayout own, @Nullable RecordedLayout changeFrom,
			LeaseSettings settings, TimeSource time) {
		this.store = store;
		this.own = own;
		this.changeFrom = changeFrom;
		this.settings = settings;
		this.time = time;
	}

	/**
	 * Records this node's layout, or checks it against the recorded one, carrying out a planned change if one was
	 * asked for; then waits, within maxStartupWait, for the clock to pass the record's floor.
	 * @throws LayoutConflictException if the layouts differ and no change was asked for, or the change is refused
	 */
	void register() {
		for (int attempt = 0;; attempt++) {
			String text = read();
			if (text == null && this.kept) {
				text = this.store.recordLayout(this.own.format());
			}
			if (text == null) {
				notKept();
				return;
			}
			RecordedLayout recorded = parse(text);
			if (recorded.sameLayoutAs(this.own)) {
				if (recorded.pending()) {
					recorded = complete(text, recorded, null);
				}
				awaitFloor(recorded);
				return;
			}
			if (this.changeFrom == null || !recorded.sameLayoutAs(this.changeFrom) || recorded.pending()) {
				throw differs(text, recorded);
			}
			RecordedLayout changed = change(text, recorded);
			if (changed != null) {
				awaitFloor(changed);
				return;
			}
			if (attempt >= 2) {
				throw new LeaseStoreException(prefix() + "the layout record of namespace '" + this.settings.namespace()
						+ "' changed under every attempt to replace it; start again");
			}
		}
	}

	/**
	 * Checks, after a borrow or a renewal and before its answer is granted, that the record is still this node's
	 * layout with no change pending.
	 * @throws LayoutConflictException if it is not
	 */
	void confirm(int workerId) {
		if (!this.kept) {
			return;
		}
		String text = read();
		if (text == null) {
			return;
		}
		RecordedLayout recorded = parse(text);
		if (!recorded.sameLayoutAs(this.own) || recorded.pending()) {
			throw new LayoutConflictException(this.settings.logPrefix(workerId) + "the layout recorded for namespace '"
					+ this.settings.namespace() + "' is now " + recorded.describe() + ", no longer this node's ("
					+ this.own.describe() + "): a planned layout change is under way, so this node stops issuing and "
					+ "gives its worker ID back; restart it with the new layout", this.settings.namespace(), this.own,
					text, false);
		}
	}

	/**
	 * Reads the record: one read, which writes nothing.
	 * @return the record, or {@code null} if none is recorded or the store keeps no layouts
	 */
	private @Nullable String read() {
		try {
			return this.store.readLayout();
		}
		catch (UnsupportedOperationException ex) {
			notKept();
			return null;
		}
	}

	private void notKept() {
		if (this.kept) {
			logger.warn("{}the lease store keeps no layouts: a node of another Snowflake layout in this "
					+ "namespace would not be refused (implement ISequenceManager.recordLayout)", prefix());
			this.kept = false;
		}
	}

	/**
	 * Returns the greatest timestamp this node must not issue at: the record's floor, or -1.
	 */
	long floorMillis() {
		return this.floorMillis;
	}

	/**
	 * Replaces the recorded layout by this node's, marked pending, and completes the change.
	 * @return the completed record, or {@code null} if the record changed before the compare-and-set
	 */
	private @Nullable RecordedLayout change(String oldText, RecordedLayout old) {
		// refused before anything is written while old nodes hold slots, or when their IDs cannot be overtaken in time
		SlotMarksView before = new SlotMarksView(this.store.slotMarks());
		if (!before.held().isEmpty()) {
			throw slotsHeld(oldText, before, null);
		}
		checkOrder(notBefore(old.layout(), before.maxMark()), oldText, null);
		RecordedLayout pending = this.own.replacing(old.layout());
		if (!this.store.replaceLayout(oldText, pending.format())) {
			return null;
		}
		logger.info("{}replacing layout {} of namespace '{}' by {}: checking that no slot is held", prefix(),
				old.describe(), this.settings.namespace(), this.own.describe());
		return complete(pending.format(), pending, oldText);
	}

	/**
	 * Completes a pending change: checks that no slot is held, and records the floor computed from the slots' marks.
	 * @param oldText the record this node replaced, to put back if the change is refused; {@code null} when
	 * completing another node's change
	 */
	private RecordedLayout complete(String pendingText, RecordedLayout pending, @Nullable String oldText) {
		SnowflakeLayout old = pending.replacing();
		SlotMarksView marks = new SlotMarksView(this.store.slotMarks());
		if (!marks.held().isEmpty()) {
			throw slotsHeld(pendingText, marks, oldText);
		}
		long floorId = maxId(old, marks.maxMark());
		long notBefore = notBefore(old, marks.maxMark());
		checkOrder(notBefore, pendingText, oldText);
		RecordedLayout completed = this.own.completedAbove(floorId);
		if (!this.store.replaceLayout(pendingText, completed.format())) {
			String now = read();
			RecordedLayout current = (now != null) ? parse(now) : null;
			if (current == null || !current.sameLayoutAs(this.own) || current.pending()) {
				throw new LeaseStoreException(prefix() + "the layout record of namespace '"
						+ this.settings.namespace() + "' changed while this node completed a change to it; start again");
			}
			return current;
		}
		logger.info("{}layout of namespace '{}' is now {}; the old layout's IDs reach up to {} (slots' marks up to {})",
				prefix(), this.settings.namespace(), completed.describe(), floorId,
				(marks.maxMark() < 0) ? "none" : Instant.ofEpochMilli(marks.maxMark()));
		return completed;
	}

	/**
	 * Waits for this node's clock to pass the first millisecond whose IDs sort above the record's floor.
	 */
	private void awaitFloor(RecordedLayout recorded) {
		if (recorded.floorId() < 0) {
			return;
		}
		long notBefore = firstMillisAbove(recorded.floorId());
		this.floorMillis = notBefore - 1;
		long start = this.time.nanoTime();
		for (;;) {
			long now = this.time.currentTimeMillis();
			if (now >= notBefore) {
				return;
			}
			if (this.time.nanoTime() - start >= this.settings.maxStartupWait().toNanos()) {
				throw new LayoutConflictException(prefix() + "this node's IDs would sort below ID "
						+ recorded.floorId() + ", the greatest the layout replaced in namespace '"
						+ this.settings.namespace() + "' allows, until " + Instant.ofEpochMilli(notBefore)
						+ ", which is further than maxStartupWait (" + LeaseSettings.format(this.settings
							.maxStartupWait()) + ") ahead of this node's clock " + Instant.ofEpochMilli(now)
						+ "; check this node's clock (NTP)", this.settings.namespace(), this.own, recorded.format(),
						true);
			}
			sleep(Math.min(notBefore - now, FLOOR_POLL_MILLIS));
		}
	}

	/**
	 * Refuses a change whose first IDs could not sort above the old layout's within maxStartupWait, putting the old
	 * record back if this node wrote the pending one.
	 */
	private void checkOrder(long notBefore, String recordText, @Nullable String oldText) {
		long now = this.time.currentTimeMillis();
		long ahead = notBefore - now;
		if (ahead <= this.settings.maxStartupWait().toMillis()) {
			return;
		}
		putBack(recordText, oldText);
		String when = (notBefore == Long.MAX_VALUE) ? "never, as the new layout's timestamps run out first"
				: "only from " + Instant.ofEpochMilli(notBefore) + ", " + ahead + " ms from now";
		throw new LayoutConflictException(prefix() + "layout change of namespace '" + this.settings.namespace()
				+ "' to " + this.own.describe() + " refused: its IDs would sort above every ID the slots' marks allow "
				+ "under the old layout " + when + ", beyond maxStartupWait ("
				+ LeaseSettings.format(this.settings.maxStartupWait()) + "); choose an epoch and widths whose IDs of "
				+ "today are larger than the old layout's (an earlier epoch, or the same timestamp bits), or keep the "
				+ "old layout", this.settings.namespace(), this.own, (oldText != null) ? oldText : recordText, true);
	}

	private LayoutConflictException slotsHeld(String recordText, SlotMarksView marks, @Nullable String oldText) {
		putBack(recordText, oldText);
		return new LayoutConflictException(prefix() + "layout change of namespace '" + this.settings.namespace()
				+ "' to " + this.own.describe() + " refused: worker IDs " + marks.held()
				+ " are still held under the old layout; stop every node of the old layout, let their leases end (ttl "
				+ LeaseSettings.format(this.settings.ttl()) + "), then start this node again", this.settings.namespace(),
				this.own, (oldText != null) ? oldText : recordText, true);
	}

	private void putBack(String recordText, @Nullable String oldText) {
		if (oldText == null || recordText.equals(oldText)) {
			return;
		}
		try {
			if (!this.store.replaceLayout(recordText, oldText)) {
				logger.warn("{}could not put back the layout record of namespace '{}': it changed meanwhile",
						prefix(), this.settings.namespace());
			}
		}
		catch (RuntimeException ex) {
			logger.warn("{}could not put back the layout record of namespace '{}'; it stays pending, and nodes of "
					+ "either layout refuse to issue until a node of the new layout completes the change: {}",
					prefix(), this.settings.namespace(), ex.getMessage());
		}
	}

	private LayoutConflictException differs(String text, RecordedLayout recorded) {
		String change = (this.changeFrom != null && recorded.pending())
				? "; a change to that layout is not yet complete, so it cannot be changed again now"
				: (this.changeFrom != null) ? "; the planned change names " + this.changeFrom.describe()
						+ ", not the recorded layout" : "";
		return new LayoutConflictException(prefix() + "this node's Snowflake layout (" + this.own.describe()
				+ ") differs from the one recorded for namespace '" + this.settings.namespace() + "' ("
				+ recorded.describe() + ")" + change + ": nodes of two layouts issue IDs that collide, so this node "
				+ "issues none. Configure it with the recorded layout, give it a namespace of its own, or change the "
				+ "namespace's layout as a planned change naming the recorded layout '" + text + "'",
				this.settings.namespace(), this.own, text, false);
	}

	private RecordedLayout parse(String text) {
		try {
			return RecordedLayout.parse(text);
		}
		catch (IllegalArgumentException ex) {
			throw new LeaseStoreException(prefix() + "the layout record of namespace '" + this.settings.namespace()
					+ "' cannot be read: " + ex.getMessage(), ex);
		}
	}

	/**
	 * Returns the greatest ID a layout allows up to a timestamp mark (any worker, any sequence), or -1 for none.
	 */
	static long maxId(SnowflakeLayout layout, long maxMark) {
		long epoch = layout.epoch().toEpochMilli();
		if (maxMark < epoch) {
			return -1;
		}
		long mark = Math.min(maxMark, layout.exhaustedAt().toEpochMilli());
		return layout.compose(mark, layout.maxWorkerId(), layout.maxSequence());
	}

	/**
	 * Returns the first millisecond at which this node's layout issues only IDs above the old layout's greatest: 0 when
	 * the old layout issued none, {@code Long.MAX_VALUE} if this layout's timestamps run out first.
	 */
	private long notBefore(SnowflakeLayout old, long maxMark) {
		long floorId = maxId(old, maxMark);
		return (floorId < 0) ? 0 : firstMillisAbove(floorId);
	}

	private long firstMillisAbove(long floorId) {
		SnowflakeLayout layout = this.own.layout();
		long offset = (floorId >>> (layout.workerIdBits() + layout.sequenceBits())) + 1;
		long maxOffset = layout.exhaustedAt().toEpochMilli() - layout.epoch().toEpochMilli();
		return (offset > maxOffset) ? Long.MAX_VALUE : layout.epoch().toEpochMilli() + offset;
	}

	private void sleep(long millis) {
		try {
			Thread.sleep(Math.max(1, millis));
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IdGenerationException(prefix() + "interrupted while waiting for the layout's floor", ex);
		}
	}

	private String prefix() {
		return this.settings.logPrefix(-1);
	}

	/**
	 * The slots of the namespace as one read found them.
	 */
	private record SlotMarksView(List<SlotMark> marks) {

		List<Integer> held() {
			return this.marks.stream().filter(SlotMark::held).map(SlotMark::workerId).sorted().toList();
		}

		long maxMark() {
			return this.marks.stream().mapToLong(SlotMark::maxTimestamp).max().orElse(-1);
		}

	}

}
