package io.idstarter.lease;

/**
 * Thrown by a lease store that judges the steps of a planned layout change itself (the ID server's fleet API) when it
 * refuses one: the namespace's slots, as it read them, do not allow it ({@link LayoutChangeStep}). Nothing was
 * written. The lease keeper takes it as its own check's refusal: it puts back the record it replaced, if any, and
 * refuses the change.
 *
 * @since 0.2.0
 */
public class LayoutChangeRefusedException extends LeaseStoreException {

	private static final long serialVersionUID = 1L;

	/**
	 * Creates the exception.
	 * @param message what the store said
	 */
	public LayoutChangeRefusedException(String message) {
		super(message);
	}

}
