package io.idstarter.lease;

import io.idstarter.IdGenerationException;
import io.idstarter.snowflake.RecordedLayout;

import org.jspecify.annotations.Nullable;

/**
 * Thrown when a node's Snowflake layout cannot share its namespace: another layout is recorded in the lease store, a
 * planned layout change was refused, this node's clock is behind the first millisecond at which its IDs sort above
 * the record's floor, or the record is missing while running nodes hold slots and may record it again. Nodes of two layouts would issue IDs that collide, so the node issues nothing.
 *
 * @since 0.2.0
 */
public class LayoutConflictException extends IdGenerationException {

	private static final long serialVersionUID = 1L;

	private final String namespace;

	private final transient RecordedLayout ownLayout;

	private final @Nullable String recordedLayout;

	private final Reason reason;

	LayoutConflictException(String message, String namespace, RecordedLayout ownLayout, @Nullable String recordedLayout,
			Reason reason) {
		super(message);
		this.namespace = namespace;
		this.ownLayout = ownLayout;
		this.recordedLayout = recordedLayout;
		this.reason = reason;
	}

	/**
	 * Returns the namespace whose record disagrees.
	 * @return the lease namespace
	 */
	public String getNamespace() {
		return this.namespace;
	}

	/**
	 * Returns this node's layout.
	 * @return the layout the node was configured with
	 */
	public RecordedLayout getOwnLayout() {
		return this.ownLayout;
	}

	/**
	 * Returns the layout recorded in the store as the node left it, in stored form: what a planned change names as
	 * the layout it replaces.
	 * @return the record, or {@code null} if the store could not be read
	 */
	public @Nullable String getRecordedLayout() {
		return this.recordedLayout;
	}

	/**
	 * Returns what happened, and with it what the record is now.
	 * @return the reason
	 */
	public Reason getReason() {
		return this.reason;
	}

	/**
	 * Why a node's layout could not share its namespace.
	 */
	public enum Reason {

		/** Another layout is recorded, and no planned change of this node names it; the record is unchanged. */
		LAYOUT_DIFFERS,

		/** This node's planned change was refused; the record is the old layout, as it was or put back. */
		CHANGE_REFUSED,

		/**
		 * A change is pending in the record (another node's, or this node's that could not be put back) and this node
		 * could not complete it; no node of either layout issues until a node of the new layout completes it.
		 */
		CHANGE_PENDING,

		/**
		 * The record is this node's layout, but this node's clock is further than maxStartupWait behind the first
		 * millisecond at which its IDs sort above the record's floor-id; the record is unchanged.
		 */
		CLOCK_BEHIND_FLOOR,

		/**
		 * No layout is recorded while slots of the namespace are held, and their holders neither recorded the lost
		 * record again nor renewed or let their leases end within maxStartupWait; nothing was recorded.
		 */
		RECORD_MISSING

	}

}
