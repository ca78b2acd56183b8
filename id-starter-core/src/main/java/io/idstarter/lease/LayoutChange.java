package io.idstarter.lease;

import java.time.Instant;
import java.util.Objects;

import io.idstarter.lease.LayoutChangeStep.Refusal;
import io.idstarter.lease.LayoutConflictException.Reason;
import io.idstarter.snowflake.RecordedLayout;
import io.idstarter.time.TimeSource;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A planned layout change as one node of the new layout carries it out: replaces the old layout's record by this
 * node's layout marked pending, and completes a pending change, its own or one another node left, with the floor the
 * slots' marks and the old record's floor give. Each step is judged by {@link LayoutChangeStep} on one read of the
 * slots, the rules the ID server applies to its clients' steps.
 */
final class LayoutChange {

	/*
	 * Why IDs of two layouts never collide in a namespace (see docs/snowflake.md, "Changing a layout"):
	 *   - Every node reads the record before it borrows and again after each borrow and each renewal, before it is
	 *     granted what the store answered (LayoutRegistration). A node that finds another layout recorded, or a change
	 *     not yet complete, issues nothing under that answer and gives the slot back.
	 *   - A change is a compare-and-set of the record from the old layout to the new one marked pending; it completes
	 *     only when a later read of the slots finds none held, and the completed record carries floor-id, the greatest
	 *     ID the old layout allows under the slots' marks read then, and at least the old record's floor-id (a change
	 *     made before the old layout's IDs passed its own floor keeps that floor). A node of the old layout that held
	 *     a slot at the compare-and-set is seen by that read; one that borrows or renews after it confirms afterwards
	 *     and stops; its grant from before never reaches past the mark that was read. Every node of the new layout
	 *     issues only above floor-id (its grant's floor is the millisecond whose first ID is above it).
	 *   - A changer that dies between its compare-and-set and the completion leaves the record pending: the next node
	 *     of the new layout completes it, or refuses while slots are held.
	 *
	 * Whose slots are held. A node of the new layout borrows only after it read the change completed, so a slot held
	 * while the record is still the text a step was judged from (read again after the slots) is held under the old
	 * layout. When the record has moved on, another node made or completed the change meanwhile and the held slot may be
	 * its own: the step returns null, and the caller reads the record and judges again. (A text that comes back would
	 * need the change completed, changed back and started again between the two reads.)
	 */

	private static final Logger logger = LoggerFactory.getLogger(LayoutChange.class);

	private static final String STOP_OLD_NODES = "Stop every node of the old layout, let their leases end";

	private final InstrumentedLeaseStore store;

	private final RecordedLayout own;

	private final LeaseSettings settings;

	private final TimeSource time;

	LayoutChange(InstrumentedLeaseStore store, RecordedLayout own, LeaseSettings settings, TimeSource time) {
		this.store = store;
		this.own = own;
		this.settings = settings;
		this.time = time;
	}

	/**
	 * Replaces the settled record of the old layout by this node's, marked pending, and completes the change.
	 * @param oldText the record read
	 * @param old the record read, parsed
	 * @param wait the start's wait, whose budget bounds how far ahead the new IDs may start to sort above the old
	 * @return the completed record, or {@code null} if the record changed meanwhile: read it again
	 * @throws LayoutConflictException if slots are held under the old layout, or the new IDs would sort above the old
	 * ones too late
	 */
	@Nullable String start(String oldText, RecordedLayout old, StartupWait wait) {
		LayoutChangeStep step = LayoutChangeStep.of(old, this.own.replacing(old), this.store::slotMarks);
		Refusal refusal = step.refusal(deadline(wait));
		if (refusal == Refusal.SLOTS_HELD && !oldText.equals(this.store.readLayout())) {
			return null;
		}
		if (refusal != null) {
			throw refused(step, refusal, wait, oldText, Reason.CHANGE_REFUSED, "");
		}
		String pendingText = step.record().format();
		try {
			if (!this.store.replaceLayout(oldText, pendingText)) {
				return null;
			}
		}
		catch (LayoutChangeRefusedException ex) {
			throw refusedByStore(ex, oldText, Reason.CHANGE_REFUSED, "");
		}
		logger.info("{}replacing layout {} of namespace '{}' by {}: checking that no slot is held", prefix(),
				old.describe(), this.settings.namespace(), this.own.describe());
		return complete(pendingText, step.record(), oldText, wait);
	}

	/**
	 * Completes a pending change: checks that no slot is held and that the new IDs sort above the old ones in time,
	 * and records the floor the slots' marks and the replaced record's floor give.
	 * @param pendingText the pending record
	 * @param pending the pending record, parsed; of this node's layout
	 * @param oldText the record this node replaced, to put back if the change is refused; {@code null} when completing
	 * a change another node started
	 * @param wait the start's wait
	 * @return the completed record as the store has it, or {@code null} if the record changed meanwhile: read it again
	 * @throws LayoutConflictException if slots are held under the old layout, or the new IDs would sort above the old
	 * ones too late
	 */
	@Nullable String complete(String pendingText, RecordedLayout pending, @Nullable String oldText, StartupWait wait) {
		LayoutChangeStep step = LayoutChangeStep.of(pending, this.own, this.store::slotMarks);
		Refusal refusal = step.refusal(deadline(wait));
		if (refusal == Refusal.SLOTS_HELD && !pendingText.equals(this.store.readLayout())) {
			return null;
		}
		if (refusal != null) {
			String left = putBack(pendingText, oldText);
			throw refused(step, refusal, wait, left, reason(left, pendingText), outcome(left, pendingText));
		}
		try {
			if (!this.store.replaceLayout(pendingText, step.record().format())) {
				return null;
			}
		}
		catch (LayoutChangeRefusedException ex) {
			String left = putBack(pendingText, oldText);
			throw refusedByStore(ex, left, reason(left, pendingText), outcome(left, pendingText));
		}
		// The ID server computes a completion's floor from its own read of the slots: hold to what the store has.
		String completed = this.store.readLayout();
		RecordedLayout record = (completed != null) ? RecordedLayout.parse(completed) : null;
		if (record == null || !record.sameLayoutAs(this.own) || record.pending()) {
			return null;
		}
		LayoutChangeCheck marks = Objects.requireNonNull(step.check(), "check");
		logger.info("{}layout of namespace '{}' is now {}; the layouts before it issued up to ID {} (slots' marks up "
				+ "to {})", prefix(), this.settings.namespace(), record.describe(), record.floorId(),
				(marks.maxMark() < 0) ? "none" : Instant.ofEpochMilli(marks.maxMark()));
		return completed;
	}

	private long deadline(StartupWait wait) {
		return this.time.currentTimeMillis() + wait.remainingMillis();
	}

	/**
	 * Puts the old record back if this node wrote the pending one.
	 * @return the record as the change leaves it: the old one if put back, else the pending one
	 */
	private String putBack(String pendingText, @Nullable String oldText) {
		if (oldText == null) {
			return pendingText;
		}
		try {
			if (this.store.replaceLayout(pendingText, oldText)) {
				return oldText;
			}
			logger.warn("{}could not put back the layout record of namespace '{}': it changed meanwhile", prefix(),
					this.settings.namespace());
		}
		catch (RuntimeException ex) {
			logger.warn("{}could not put back the layout record of namespace '{}': {}", prefix(),
					this.settings.namespace(), ex.getMessage());
		}
		return pendingText;
	}

	private static Reason reason(String left, String pendingText) {
		return left.equals(pendingText) ? Reason.CHANGE_PENDING : Reason.CHANGE_REFUSED;
	}

	private String outcome(String left, String pendingText) {
		if (!left.equals(pendingText)) {
			return "; the old record was put back";
		}
		return "; the record stays pending (" + RecordedLayout.parse(pendingText).describe() + "), so no node of "
				+ "either layout issues until a node of the new layout completes the change";
	}

	private LayoutConflictException refused(LayoutChangeStep step, Refusal refusal, StartupWait wait, String left,
			Reason reason, String outcome) {
		LayoutChangeCheck check = Objects.requireNonNull(step.check(), "check");
		if (refusal == Refusal.SLOTS_HELD) {
			return new LayoutConflictException(prefix() + subject(reason) + " refused: worker IDs " + check.held()
					+ " are still held under the old layout" + outcome + ". " + STOP_OLD_NODES + " (ttl "
					+ LeaseSettings.format(this.settings.ttl()) + "), then start a node of the new layout again",
					this.settings.namespace(), this.own, left, reason);
		}
		long now = this.time.currentTimeMillis();
		String when = (check.notBefore() == Long.MAX_VALUE) ? "never, as the new layout's timestamps run out first"
				: "only from " + Instant.ofEpochMilli(check.notBefore()) + ", " + (check.notBefore() - now)
						+ " ms from now";
		return new LayoutConflictException(prefix() + subject(reason) + " refused: its IDs would sort above every ID "
				+ "the slots' marks allow under the old layout " + when + ", beyond maxStartupWait ("
				+ LeaseSettings.format(wait.budget()) + ")" + outcome + ". Choose an epoch and widths whose IDs of "
				+ "today are larger than the old layout's (an earlier epoch, or the same timestamp bits), or keep the "
				+ "old layout", this.settings.namespace(), this.own, left, reason);
	}

	/**
	 * The refusal of a step by a store that judges it itself, from its own read of the slots.
	 */
	private LayoutConflictException refusedByStore(LayoutChangeRefusedException ex, String left, Reason reason,
			String outcome) {
		return new LayoutConflictException(prefix() + subject(reason) + " refused by the lease store (" + ex.getMessage()
				+ ")" + outcome + ". " + STOP_OLD_NODES + ", then start a node of the new layout again",
				this.settings.namespace(), this.own, left, reason);
	}

	private String subject(Reason reason) {
		return "layout change of namespace '" + this.settings.namespace() + "' to " + this.own.describe()
				+ ((reason == Reason.CHANGE_PENDING) ? ", pending in the record," : "");
	}

	private String prefix() {
		return this.settings.logPrefix(-1);
	}

}
