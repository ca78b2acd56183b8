package io.idstarter.segment;

import java.nio.file.Path;

import io.idstarter.IdGenerationException;

/**
 * Thrown when this node's segment marks file exists but cannot be read or is corrupt. Ignoring it would drop the
 * node's guard against a segment store that lost writes, so nothing starts on it.
 */
public class SegmentMarksException extends IdGenerationException {

	private static final long serialVersionUID = 1L;

	private final transient Path file;

	/**
	 * Creates the exception.
	 * @param file the marks file
	 * @param reason what is wrong with it
	 * @param cause the underlying error
	 */
	public SegmentMarksException(Path file, String reason, Throwable cause) {
		super("Cannot read the segment marks file " + file + " (" + reason + ")", cause);
		this.file = file;
	}

	public Path file() {
		return this.file;
	}

}
