package io.idstarter.segment;

import java.nio.file.Path;

import io.idstarter.IdGenerationException;
import io.idstarter.local.LocalFileLockTimeoutException;
import org.jspecify.annotations.Nullable;

/**
 * Thrown when this node's segment marks file cannot be used: at start, it exists but cannot be read or is corrupt
 * (ignoring it would drop the node's guard against a segment store that lost writes, so nothing starts on it); while
 * running, a new mark cannot be written (a full disk, a file system remounted read-only, its lock held past the wait
 * by another process sharing the file), so the range it belongs to is held back until it can.
 */
public class SegmentMarksException extends IdGenerationException {

	private static final long serialVersionUID = 1L;

	/** What is wrong with the file. */
	public enum Reason {

		/** It exists but cannot be read, or a line is not {@code key=mark}. */
		UNREADABLE,

		/** A new mark cannot be written. */
		UNWRITABLE,

		/** It holds the marks of another store. */
		OTHER_STORE

	}

	private final transient Path file;

	private final Reason reason;

	/**
	 * Creates the exception for a file that cannot be read.
	 * @param file the marks file
	 * @param reason what is wrong with it
	 * @param cause the underlying error
	 */
	public SegmentMarksException(Path file, String reason, Throwable cause) {
		this("Cannot read the segment marks file " + file + " (" + reason + ")", file, cause, Reason.UNREADABLE);
	}

	private SegmentMarksException(String message, Path file, @Nullable Throwable cause, Reason reason) {
		super(message);
		if (cause != null) {
			initCause(cause);
		}
		this.file = file;
		this.reason = reason;
	}

	/**
	 * Returns the exception for a file that cannot be written.
	 * @param file the marks file
	 * @param cause the underlying error
	 * @return the exception
	 */
	static SegmentMarksException unwritable(Path file, Exception cause) {
		if (cause instanceof LocalFileLockTimeoutException timeout) {
			return new SegmentMarksException("Cannot write the segment marks file " + file
					+ ": the segment store is not at fault; the range is served once its mark is written. "
					+ timeout.getMessage(), file, cause, Reason.UNWRITABLE);
		}
		return new SegmentMarksException("Cannot write the segment marks file " + file + " (" + cause
				+ "); the segment store is not at fault: free space on the file system or make the file writable",
				file, cause, Reason.UNWRITABLE);
	}

	/**
	 * Returns the exception for a file that holds the marks of another store.
	 * @param file the marks file
	 * @param recorded the store the file names
	 * @param identity the store this node uses
	 * @param storeLine how the file's line naming the store starts
	 * @return the exception
	 */
	static SegmentMarksException otherStore(Path file, String recorded, String identity, String storeLine) {
		return new SegmentMarksException("The segment marks file " + file + " holds the marks of " + recorded
				+ ", and this node uses " + identity + ". Two deployments (staging and production, say) must not share "
				+ "a marks file: give this one its own id-worker.segment.marks-file. If the store only moved (a new "
				+ "URL for the same data), delete the file's '" + storeLine + "' line after checking that every key's "
				+ "max_id in the store is above the file's marks", file, null, Reason.OTHER_STORE);
	}

	public Path file() {
		return this.file;
	}

	/**
	 * Returns what is wrong with the file.
	 * @return the reason
	 */
	public Reason reason() {
		return this.reason;
	}

}
