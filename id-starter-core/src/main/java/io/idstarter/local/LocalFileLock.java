package io.idstarter.local;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;

import org.jspecify.annotations.Nullable;

/**
 * Exclusive use of one node-local state file, against the other threads of this JVM and against other processes on
 * the host: every read-modify-write of the file runs in {@link #call}. Reentrant for the thread that holds it. Reads
 * need no lock: every write replaces the file whole, by a rename.
 */
public final class LocalFileLock {

	/*
	 * Protocol. Other processes are kept out by an OS lock (FileChannel.lock) on a sibling file "<name>.lock": the
	 * state file itself is replaced by a rename at every write, so a lock on it would lock the old inode. The JVM
	 * refuses a second lock on a file one of its own channels already locks (OverlappingFileLockException), whichever
	 * object asks, so all holders in this JVM first take the one ReentrantLock registered for the lock file: at most
	 * one thread of the JVM asks the OS for the lock, and only at its outermost acquire.
	 */

	/** One in-JVM lock per lock file (real path of its directory, then its name); entries are never removed. */
	private static final ConcurrentHashMap<Path, ReentrantLock> JVM_LOCKS = new ConcurrentHashMap<>();

	private final ReentrantLock jvmLock;

	/** The channel holding the OS lock, opened only by the thread's outermost acquire; null for a nested one. */
	private final @Nullable FileChannel channel;

	private LocalFileLock(ReentrantLock jvmLock, @Nullable FileChannel channel) {
		this.jvmLock = jvmLock;
		this.channel = channel;
	}

	/**
	 * Work done with exclusive use of a state file.
	 * @param <T> the result
	 */
	@FunctionalInterface
	public interface Work<T> {

		/**
		 * Does the work.
		 * @return the result
		 * @throws IOException if the file cannot be read or written
		 */
		T run() throws IOException;

	}

	/**
	 * Waits until the calling thread has exclusive use of a state file, and does the work with it.
	 * @param <T> the result
	 * @param file the state file (it need not exist); its directories are created if missing
	 * @param work what to do with the file
	 * @return what the work returned
	 * @throws IOException if the lock file cannot be created or locked, or the work failed with it
	 */
	public static <T> T call(Path file, Work<T> work) throws IOException {
		LocalFileLock lock = acquire(file);
		try {
			return work.run();
		}
		finally {
			lock.release();
		}
	}

	private static LocalFileLock acquire(Path file) throws IOException {
		Path lockFile = lockFile(file);
		ReentrantLock jvmLock = JVM_LOCKS.computeIfAbsent(lockFile, (path) -> new ReentrantLock());
		jvmLock.lock();
		if (jvmLock.getHoldCount() > 1) {
			return new LocalFileLock(jvmLock, null);
		}
		FileChannel channel = null;
		try {
			channel = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
			channel.lock();
			return new LocalFileLock(jvmLock, channel);
		}
		catch (IOException | RuntimeException ex) {
			try {
				if (channel != null) {
					channel.close();
				}
			}
			finally {
				jvmLock.unlock();
			}
			throw ex;
		}
	}

	/**
	 * Returns the lock file of a state file: beside it, its name followed by {@code .lock}, under the real path of
	 * the directory so that two names of one directory share one lock.
	 */
	static Path lockFile(Path file) throws IOException {
		Path absolute = file.toAbsolutePath().normalize();
		Path directory = Objects.requireNonNull(absolute.getParent(), "directory");
		Files.createDirectories(directory);
		return directory.toRealPath().resolve(absolute.getFileName() + ".lock");
	}

	private void release() throws IOException {
		try {
			if (this.channel != null) {
				// Closing the channel releases its OS lock.
				this.channel.close();
			}
		}
		finally {
			this.jvmLock.unlock();
		}
	}

}
