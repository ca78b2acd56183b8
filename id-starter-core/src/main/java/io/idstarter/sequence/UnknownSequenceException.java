package io.idstarter.sequence;

import io.idstarter.IdGenerationException;

/**
 * Thrown when a sequence is not known to the store. Create it first, for example with
 * {@link SequenceService#create(SequenceDefinition)}.
 */
public class UnknownSequenceException extends IdGenerationException {

	private static final long serialVersionUID = 1L;

	private final String sequenceName;

	public UnknownSequenceException(String sequenceName, String where) {
		super("Unknown sequence '" + sequenceName + "': " + where + " has no such sequence; create it first");
		this.sequenceName = sequenceName;
	}

	public String getSequenceName() {
		return this.sequenceName;
	}

}
