package io.idstarter.segment;

import io.idstarter.IdGenerationException;

/**
 * Thrown when a segment store cannot allocate: it is unreachable, not set up (the message then names the table or
 * collection and the script that creates it), or the key's range would pass {@link Long#MAX_VALUE}.
 */
public class SegmentStoreException extends IdGenerationException {

	private static final long serialVersionUID = 1L;

	public SegmentStoreException(String message) {
		super(message);
	}

	public SegmentStoreException(String message, Throwable cause) {
		super(message, cause);
	}

}
