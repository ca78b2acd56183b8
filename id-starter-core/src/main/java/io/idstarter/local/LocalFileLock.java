package io.idstarter.local;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

import org.jspecify.annotations.Nullable;

/**
 * Exclusive use of one node-local state file, against the other threads of this JVM and against other processes on
 * the host: every read-modify-write of the file runs in {@link #call}. Reentrant for the thread that holds it. Reads
 * need no lock: every write replaces the file whole, by a rename. The wait is bounded ({@link #DEFAULT_TIMEOUT}): a
 * process frozen while it holds the lock (SIGSTOP, a debugger, a paused VM) must not freeze the others sharing the
 * file, so after it the caller gets a {@link LocalFileLockTimeoutException} and handles it as a file it cannot write.
 */
public final class LocalFileLock {

	/*
	 * Protocol. Other processes are kept out by an OS lock (FileChannel.lock) on a sibling file "<name>.lock": the
	 * state file itself is replaced by a rename at every write, so a lock on it would lock the old inode. The JVM
	 * refuses a second lock on a file one of its own channels already locks (OverlappingFileLockException), whichever
	 * object asks, so all holders in this JVM first take the one ReentrantLock registered for the lock file: at most
	 * one thread of the JVM asks the OS for the lock, and only at its outermost acquire.
	 *
	 * Neither wait is unbounded: the ReentrantLock is tried until the deadline, then the OS lock is polled with
	 * FileChannel.tryLock and short sleeps (1 ms doubling to 50 ms) until the same deadline, since FileChannel.lock
	 * cannot be given a timeout and blocks until the holder lets go, however long it is frozen. No monitor is held
	 * while sleeping, so a virtual thread is not pinned. An interrupt ends either wait with the interrupt status kept.
	 */

	/** How long an acquire waits for the lock before it gives up, unless told otherwise. */
	public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(5);

	/** Longest sleep between two attempts at the OS lock. */
	private static final long MAX_POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

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
	 * Waits at most {@link #DEFAULT_TIMEOUT} until the calling thread has exclusive use of a state file, and does the
	 * work with it.
	 * @param <T> the result
	 * @param file the state file (it need not exist); its directories are created if missing
	 * @param work what to do with the file
	 * @return what the work returned
	 * @throws LocalFileLockTimeoutException if the lock was not obtained in time; the work was not done
	 * @throws InterruptedIOException if the thread was interrupted while waiting (its interrupt status is kept)
	 * @throws IOException if the lock file cannot be created or locked, or the work failed with it
	 */
	public static <T> T call(Path file, Work<T> work) throws IOException {
		return call(file, DEFAULT_TIMEOUT, work);
	}

	/**
	 * Waits at most {@code timeout} until the calling thread has exclusive use of a state file, and does the work
	 * with it.
	 * @param <T> the result
	 * @param file the state file (it need not exist); its directories are created if missing
	 * @param timeout how long to wait for the lock; zero tries once
	 * @param work what to do with the file
	 * @return what the work returned
	 * @throws LocalFileLockTimeoutException if the lock was not obtained in time; the work was not done
	 * @throws InterruptedIOException if the thread was interrupted while waiting (its interrupt status is kept)
	 * @throws IOException if the lock file cannot be created or locked, or the work failed with it
	 */
	public static <T> T call(Path file, Duration timeout, Work<T> work) throws IOException {
		if (timeout.isNegative()) {
			throw new IllegalArgumentException("timeout must not be negative, got " + timeout);
		}
		LocalFileLock lock = acquire(file, timeout);
		try {
			return work.run();
		}
		finally {
			lock.release();
		}
	}

	private static LocalFileLock acquire(Path file, Duration timeout) throws IOException {
		long started = System.nanoTime();
		long timeoutNanos = saturatedNanos(timeout);
		Path lockFile = lockFile(file);
		ReentrantLock jvmLock = JVM_LOCKS.computeIfAbsent(lockFile, (path) -> new ReentrantLock());
		try {
			if (!jvmLock.tryLock(timeoutNanos, TimeUnit.NANOSECONDS)) {
				// A thread of this JVM holds it, waiting for (or working under) the OS lock longer than our wait.
				throw timedOut(file, lockFile, started);
			}
		}
		catch (InterruptedException ex) {
			throw interrupted(file, ex);
		}
		if (jvmLock.getHoldCount() > 1) {
			return new LocalFileLock(jvmLock, null);
		}
		FileChannel channel = null;
		try {
			channel = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
			lockOs(channel, file, lockFile, started, timeoutNanos);
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

	/** Polls for the OS lock until the deadline; the lock stays with the channel until it is closed. */
	private static void lockOs(FileChannel channel, Path file, Path lockFile, long started, long timeoutNanos)
			throws IOException {
		long pause = TimeUnit.MILLISECONDS.toNanos(1);
		while (true) {
			FileLock lock = channel.tryLock();
			if (lock != null) {
				return;
			}
			long remaining = timeoutNanos - (System.nanoTime() - started);
			if (remaining <= 0) {
				throw timedOut(file, lockFile, started);
			}
			try {
				TimeUnit.NANOSECONDS.sleep(Math.min(pause, remaining));
			}
			catch (InterruptedException ex) {
				throw interrupted(file, ex);
			}
			pause = Math.min(pause * 2, MAX_POLL_NANOS);
		}
	}

	private static long saturatedNanos(Duration timeout) {
		try {
			return timeout.toNanos();
		}
		catch (ArithmeticException ex) {
			return Long.MAX_VALUE;
		}
	}

	private static LocalFileLockTimeoutException timedOut(Path file, Path lockFile, long started) {
		return new LocalFileLockTimeoutException(file, lockFile, Duration.ofNanos(System.nanoTime() - started));
	}

	private static InterruptedIOException interrupted(Path file, InterruptedException ex) {
		Thread.currentThread().interrupt();
		InterruptedIOException interrupted = new InterruptedIOException(
				"interrupted while waiting for the lock of " + file);
		interrupted.initCause(ex);
		return interrupted;
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
