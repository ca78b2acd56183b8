package io.idstarter.store.http;

import io.idstarter.IdGenerationException;

/**
 * An ID server refused a borrow because this client's layout differs from the one recorded for the namespace (409
 * {@code layout-differs}), or because the record is a planned change not yet complete (409
 * {@code layout-change-pending}): IDs of two layouts would collide, so no retry or other server will help until the
 * client's layout, or the namespace's record, changes.
 *
 * @since 0.2.0
 */
public class IdServerLayoutConflictException extends IdGenerationException {

	private static final long serialVersionUID = 1L;

	private final String namespace;

	private final String layout;

	/**
	 * Creates the exception.
	 * @param namespace the lease namespace
	 * @param layout this client's layout, in stored form
	 * @param message what happened and what to do, naming both layouts
	 */
	public IdServerLayoutConflictException(String namespace, String layout, String message) {
		super(message);
		this.namespace = namespace;
		this.layout = layout;
	}

	/**
	 * Returns the lease namespace whose recorded layout differs.
	 * @return the namespace
	 */
	public String namespace() {
		return this.namespace;
	}

	/**
	 * Returns this client's layout.
	 * @return the layout, in stored form
	 */
	public String layout() {
		return this.layout;
	}

}
