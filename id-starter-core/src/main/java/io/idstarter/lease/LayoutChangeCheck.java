package io.idstarter.lease;

import java.util.List;
import java.util.Objects;

import io.idstarter.snowflake.RecordedLayout;
import io.idstarter.snowflake.SnowflakeLayout;

/**
 * What one read of a namespace's slots allows for a planned layout change: the change is made only when no slot is
 * held, and the new layout issues only above {@link #floorId()}: the greatest ID the old layout allows under the
 * slots' marks (the greatest timestamp any owner was allowed to stamp), and at least the old record's own floor-id,
 * which bounds the IDs of the layouts before it. The steps of a change are judged by it in
 * {@link LayoutChangeStep}, by the lease keeper for its own change and by the ID server for a fleet client's.
 *
 * @param held the worker IDs held by a live lease when the slots were read, in order
 * @param maxMark the greatest mark of any slot, or {@code -1} for none
 * @param floorId the greatest ID the old layout allows up to {@code maxMark}, or the old record's floor-id if greater;
 * {@code -1} if neither issued any
 * @param notBefore the first millisecond from which every ID of the new layout is above {@code floorId}: {@code 0}
 * when there is no floor, {@link Long#MAX_VALUE} when the new layout's timestamps run out first
 * @since 0.2.0
 */
public record LayoutChangeCheck(List<Integer> held, long maxMark, long floorId, long notBefore) {

	public LayoutChangeCheck {
		held = List.copyOf(held);
	}

	/**
	 * Judges a change from one record to another layout by the namespace's slots.
	 * @param from the record replaced: its layout, and its floor-id if it replaced a layout in turn (the slots' marks
	 * say nothing of that layout's IDs once they are read by the next one)
	 * @param to the new layout
	 * @param marks the slots, as {@link ISequenceManager#slotMarks(String)} read them
	 * @return the judgement
	 */
	public static LayoutChangeCheck of(RecordedLayout from, SnowflakeLayout to, List<SlotMark> marks) {
		Objects.requireNonNull(from, "from");
		Objects.requireNonNull(to, "to");
		List<Integer> held = marks.stream().filter(SlotMark::held).map(SlotMark::workerId).sorted().toList();
		long maxMark = marks.stream().mapToLong(SlotMark::maxTimestamp).max().orElse(-1);
		long floorId = Math.max(from.floorId(), from.layout().greatestIdUpTo(maxMark));
		return new LayoutChangeCheck(held, maxMark, floorId, notBefore(to, floorId));
	}

	/**
	 * Returns the first millisecond from which every ID of a layout is above a floor.
	 * @param layout the layout that issues
	 * @param floorId the floor, or {@code -1} for none
	 * @return {@code 0} for no floor, {@link Long#MAX_VALUE} if the layout runs out first
	 */
	public static long notBefore(SnowflakeLayout layout, long floorId) {
		if (floorId < 0) {
			return 0;
		}
		long first = layout.firstMillisAbove(floorId);
		return (first > layout.exhaustedAt().toEpochMilli()) ? Long.MAX_VALUE : first;
	}

	/**
	 * Returns whether a slot was held: a node of the old layout may still issue.
	 * @return whether the change must be refused for now
	 */
	public boolean slotsHeld() {
		return !this.held.isEmpty();
	}

	/**
	 * Returns whether the new layout's IDs sort above the floor from a millisecond no later than a deadline.
	 * @param deadlineMillis the latest acceptable millisecond
	 * @return whether the order holds in time
	 */
	public boolean sortsAboveBy(long deadlineMillis) {
		return this.notBefore <= deadlineMillis;
	}

}
