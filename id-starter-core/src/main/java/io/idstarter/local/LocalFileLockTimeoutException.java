package io.idstarter.local;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Thrown when the lock of a node-local state file was not obtained within its wait: another process sharing the file
 * (or a thread of this one waiting for that process) holds it, typically a process that is frozen or stuck. An
 * {@link IOException}, so each caller handles it as it handles a file it cannot write.
 */
public class LocalFileLockTimeoutException extends IOException {

	private static final long serialVersionUID = 1L;

	private final transient Path file;

	private final transient Path lockFile;

	private final Duration waited;

	LocalFileLockTimeoutException(Path file, Path lockFile, Duration waited) {
		super("Gave up waiting for the lock of " + file + " after " + format(waited) + ": another process holds "
				+ lockFile + ", most likely a frozen or stuck process that shares the file (stopped with SIGSTOP, "
				+ "held in a debugger, a paused VM); give each process its own file (a cache file or marks file per "
				+ "instance), or find the process that holds the lock (lslocks lists it) and resume or stop it");
		this.file = file;
		this.lockFile = lockFile;
		this.waited = waited;
	}

	/**
	 * Returns the state file whose lock was not obtained.
	 * @return the state file
	 */
	public Path file() {
		return this.file;
	}

	/**
	 * Returns the lock file beside it, which the other process holds.
	 * @return the lock file
	 */
	public Path lockFile() {
		return this.lockFile;
	}

	/**
	 * Returns how long the lock was waited for.
	 * @return the wait
	 */
	public Duration waited() {
		return this.waited;
	}

	private static String format(Duration waited) {
		return waited.toMillis() + " ms";
	}

}
