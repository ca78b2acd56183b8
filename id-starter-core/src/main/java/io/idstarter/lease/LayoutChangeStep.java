package io.idstarter.lease;

import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;

import io.idstarter.snowflake.RecordedLayout;
import org.jspecify.annotations.Nullable;

/**
 * One step of a planned layout change, a compare-and-set of the namespace's record from {@code expected} to a
 * replacement, judged by the rules that keep the IDs of two layouts apart. The lease keeper judges its own steps by
 * it and the ID server the steps a fleet client asks for, so that the rules live in one place:
 * <ul>
 * <li>{@link Kind#START}: a settled record is replaced by the new layout marked pending, replacing exactly that record
 * (its layout and floor-id);</li>
 * <li>{@link Kind#COMPLETE}: the pending record is replaced by the new layout, settled, whose floor-id is the one this
 * step computes ({@link LayoutChangeCheck#floorId()}), whatever floor-id the replacement names;</li>
 * <li>{@link Kind#PUT_BACK}: the pending record is replaced by the record it replaced (layout and floor-id).</li>
 * </ul>
 * A start and a completion are allowed only when no slot is held and the new layout's IDs sort above the floor from
 * a millisecond no later than the caller's deadline ({@link #refusal(long)}): the keeper's is what is left of its
 * maxStartupWait, as it waits for that millisecond itself; the ID server's is its clock plus the longest lease TTL plus
 * its clock allowance, as it cannot know a client's. A put-back is always allowed.
 *
 * @param kind the step
 * @param record the record the step writes
 * @param check the judgement of the slots, or {@code null} for a put-back, which needs none
 * @since 0.2.0
 */
public record LayoutChangeStep(Kind kind, RecordedLayout record, @Nullable LayoutChangeCheck check) {

	/**
	 * Judges a replacement of the record.
	 * @param expected the record now
	 * @param replacement the record that would replace it
	 * @param slots reads the namespace's slots ({@link ISequenceManager#slotMarks(String)}); not called for a
	 * put-back
	 * @return the step
	 * @throws IllegalArgumentException naming the rule if the replacement is no step of a planned change
	 */
	public static LayoutChangeStep of(RecordedLayout expected, RecordedLayout replacement,
			Supplier<List<SlotMark>> slots) {
		Objects.requireNonNull(expected, "expected");
		Objects.requireNonNull(replacement, "replacement");
		RecordedLayout replaced = expected.replacing();
		if (replaced == null) {
			if (!replacement.pending() || !asReplaced(expected).equals(replacement.replacing())) {
				throw new IllegalArgumentException("a planned change first records the new layout pending, replacing "
						+ "the recorded one ('replacing=' its epoch, widths and floor-id)");
			}
			return new LayoutChangeStep(Kind.START, replacement,
					LayoutChangeCheck.of(expected, replacement.layout(), slots.get()));
		}
		if (!replacement.pending() && replacement.sameLayoutAs(expected)) {
			LayoutChangeCheck check = LayoutChangeCheck.of(replaced, expected.layout(), slots.get());
			return new LayoutChangeStep(Kind.COMPLETE, replacement.completedAbove(check.floorId()), check);
		}
		if (!replacement.pending() && asReplaced(replacement).equals(replaced)) {
			return new LayoutChangeStep(Kind.PUT_BACK, replacement, null);
		}
		throw new IllegalArgumentException("a pending change is completed (the new layout, settled) or put back (the "
				+ "replaced layout with its floor-id), nothing else");
	}

	/**
	 * Returns why the slots do not allow this step, if they do not.
	 * @param deadlineMillis the latest millisecond from which the new layout's IDs may sort above the floor
	 * @return the refusal, or {@code null} if the step is allowed
	 */
	public @Nullable Refusal refusal(long deadlineMillis) {
		if (this.check == null) {
			return null;
		}
		if (this.check.slotsHeld()) {
			return Refusal.SLOTS_HELD;
		}
		return this.check.sortsAboveBy(deadlineMillis) ? null : Refusal.TOO_LATE;
	}

	/**
	 * Returns the stored form the step writes: the replacement as the caller has it, except for a completion, which
	 * carries the floor this step computed.
	 * @param replacement the replacement's stored form
	 * @return what to write
	 */
	public String text(String replacement) {
		return (this.kind == Kind.COMPLETE) ? this.record.format() : replacement;
	}

	/**
	 * A record as a pending one names what it replaces: its layout and floor-id.
	 */
	private static RecordedLayout asReplaced(RecordedLayout record) {
		return new RecordedLayout(record.layout(), null, record.floorId(), null);
	}

	/**
	 * The steps of a planned change.
	 */
	public enum Kind {

		/** The new layout recorded pending, replacing the settled one. */
		START,

		/** The pending change completed with its floor. */
		COMPLETE,

		/** The pending change undone: the replaced record put back. */
		PUT_BACK

	}

	/**
	 * Why the slots do not allow a start or a completion.
	 */
	public enum Refusal {

		/** A slot is held: a node of the old layout may still issue. */
		SLOTS_HELD,

		/** The new layout's IDs would sort above the floor only after the deadline, or never. */
		TOO_LATE

	}

}
