package io.idstarter.segment;

/**
 * Thrown at start when the settings of a periodic key recorded in the store (its reset, zone and format, recorded by
 * the first node that started with the key) differ from this node's: nodes that decide periods or write numbers
 * otherwise can repeat numbers, so this node draws none.
 */
public class PeriodicKeyMismatchException extends IllegalStateException {

	private static final long serialVersionUID = 1L;

	/**
	 * Creates the exception.
	 * @param message what differs, both values, and what to change
	 */
	public PeriodicKeyMismatchException(String message) {
		super(message);
	}

}
