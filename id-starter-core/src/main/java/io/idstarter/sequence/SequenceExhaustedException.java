package io.idstarter.sequence;

import io.idstarter.IdGenerationException;

/**
 * Thrown when the next value of a sequence would pass its end. Nothing was issued; raise the sequence's end in the
 * store or move to a new sequence.
 */
public class SequenceExhaustedException extends IdGenerationException {

	private static final long serialVersionUID = 1L;

	private final String sequenceName;

	private final long end;

	public SequenceExhaustedException(String sequenceName, long end, String message) {
		super(message);
		this.sequenceName = sequenceName;
		this.end = end;
	}

	public String getSequenceName() {
		return this.sequenceName;
	}

	/**
	 * Returns the greatest value the sequence may issue.
	 * @return the end
	 */
	public long getEnd() {
		return this.end;
	}

}
