package io.idstarter.sequence;

import io.idstarter.IdGenerationException;

/**
 * Thrown when a sequence store cannot issue: it is unreachable, or a sequence's document is corrupt (the message then
 * names the document, the field and how to repair it).
 */
public class SequenceStoreException extends IdGenerationException {

	private static final long serialVersionUID = 1L;

	public SequenceStoreException(String message) {
		super(message);
	}

	public SequenceStoreException(String message, Throwable cause) {
		super(message, cause);
	}

}
