package io.idstarter.lease;

import io.idstarter.IdGenerationException;
import io.idstarter.snowflake.RecordedLayout;

import org.jspecify.annotations.Nullable;

/**
 * Thrown when a node's Snowflake layout cannot share its namespace: another layout is recorded in the lease store, or
 * a planned layout change was refused. Nodes of two layouts would issue IDs that collide, so the node issues nothing.
 *
 * @since 0.2.0
 */
public class LayoutConflictException extends IdGenerationException {

	private static final long serialVersionUID = 1L;

	private final String namespace;

	private final transient RecordedLayout ownLayout;

	private final @Nullable String recordedLayout;

	private final boolean changeRefused;

	LayoutConflictException(String message, String namespace, RecordedLayout ownLayout, @Nullable String recordedLayout,
			boolean changeRefused) {
		super(message);
		this.namespace = namespace;
		this.ownLayout = ownLayout;
		this.recordedLayout = recordedLayout;
		this.changeRefused = changeRefused;
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
	 * Returns the layout recorded in the store, in stored form: what a planned change names as the layout it replaces.
	 * @return the record, or {@code null} if the store could not be read
	 */
	public @Nullable String getRecordedLayout() {
		return this.recordedLayout;
	}

	/**
	 * Returns whether a planned change was asked for and refused, rather than layouts found to differ.
	 * @return {@code true} for a refused change
	 */
	public boolean isChangeRefused() {
		return this.changeRefused;
	}

}
