package io.idstarter.segment;

/**
 * Thrown when a period's segment key was created by a node that decides periods or writes numbers otherwise than
 * this one (another zone, reset or format, recorded in the key's description): the node refuses to draw from it, since
 * nodes that disagree on the period can repeat numbers.
 */
public class PeriodicKeyMismatchException extends IllegalStateException {

	private static final long serialVersionUID = 1L;

	/**
	 * Creates the exception.
	 * @param segmentKey the period's segment key
	 * @param setting what differs: {@code zone}, {@code reset} or {@code format}
	 * @param recorded the value recorded with the key
	 * @param own this node's value
	 * @param advice what to change
	 */
	public PeriodicKeyMismatchException(String segmentKey, String setting, String recorded, String own,
			String advice) {
		super("Periodic segment key '" + segmentKey + "' was created with " + setting + " " + recorded
				+ ", and this node has " + setting + " " + own + "; nodes that disagree on it can assign numbers to "
				+ "different periods and repeat them. This node draws no number from it: " + advice);
	}

}
