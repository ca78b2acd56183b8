package io.idstarter.segment;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;

import io.idstarter.local.LocalStateFile;
import io.idstarter.local.LocalStateFile.CorruptLineException;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The high marks of this node: per segment key, the end of the highest range this node was given. A store that later
 * answers with a range below it has lost writes (a restart without persistence, a failover to a replica that missed
 * them, a restore from an old backup, a deleted row), and the generator refuses that range instead of serving numbers
 * that may repeat.
 *
 * <p>Kept in memory, or also in a local file so that a restarted node keeps them. A mark is written to the file
 * (temporary file, flushed to disk, atomically renamed over the old one) before {@link #raise} returns, and the
 * generator raises a mark before it serves any number of the range, so after a crash the file is never below a number
 * that was served. Processes on one host may share a file: a write keeps the highest mark of each key found in the
 * file or in memory, under a file lock.
 *
 * <p>The file is a {@link LocalStateFile} with one {@code key=mark} line per key. A missing file is empty; an unreadable or
 * corrupt one fails the start, since ignoring it would silently drop the guard.
 */
public final class SegmentMarks {

	private static final Logger logger = LoggerFactory.getLogger(SegmentMarks.class);

	private static final String HEADER = "id-starter: end of the highest segment range this node was given, per key. "
			+ "Deleting it drops the guard against a segment store that lost writes.";

	private final @Nullable Path file;

	/** Highest end per key, only ever raised; with a file, raised only after the file holds the new value. */
	private final ConcurrentHashMap<String, Long> marks = new ConcurrentHashMap<>();

	/** Serialises the read-merge-write of the file by this JVM; other processes are kept out by a file lock. */
	private final ReentrantLock lock = new ReentrantLock();

	private SegmentMarks(@Nullable Path file, Map<String, Long> loaded) {
		this.file = file;
		this.marks.putAll(loaded);
	}

	/**
	 * Returns marks kept in memory only: they guard this process, and a restarted one starts without them.
	 * @return empty marks
	 */
	public static SegmentMarks inMemory() {
		return new SegmentMarks(null, Map.of());
	}

	/**
	 * Returns marks kept in a local file, loaded now.
	 * @param file the file; created at the first mark, with its directories
	 * @return the marks found in the file
	 * @throws SegmentMarksException if the file exists but cannot be read or is corrupt
	 */
	public static SegmentMarks file(Path file) {
		Objects.requireNonNull(file, "file");
		Map<String, Long> loaded = read(file);
		if (!loaded.isEmpty()) {
			logger.info("Loaded segment marks of {} keys from {}", loaded.size(), file);
		}
		return new SegmentMarks(file, loaded);
	}

	/**
	 * Returns the file the marks are kept in.
	 * @return the file, or empty when kept in memory only
	 */
	public Optional<Path> file() {
		return Optional.ofNullable(this.file);
	}

	/**
	 * Returns the end of the highest range this node was given for a key.
	 * @param key the business key
	 * @return the mark, 0 when none is known
	 */
	public long highMark(String key) {
		Long mark = this.marks.get(key);
		return (mark != null) ? mark : 0;
	}

	/**
	 * Returns every mark.
	 * @return key to mark, sorted by key
	 */
	public Map<String, Long> all() {
		return new TreeMap<>(this.marks);
	}

	/**
	 * Raises a key's mark to {@code end}, unless it is already as high; with a file, returns only once the file on
	 * disk holds it.
	 * @param key the business key
	 * @param end the end of a range this node was given
	 * @throws UncheckedIOException if the file cannot be written; the mark is then not raised
	 */
	public void raise(String key, long end) {
		if (highMark(key) >= end) {
			return;
		}
		if (this.file == null) {
			this.marks.merge(key, end, Math::max);
			return;
		}
		this.lock.lock();
		try {
			if (highMark(key) >= end) {
				return;
			}
			Map<String, Long> merged = new TreeMap<>(this.marks);
			merged.merge(key, end, Math::max);
			write(this.file, merged);
			merged.forEach((name, mark) -> this.marks.merge(name, mark, Math::max));
		}
		finally {
			this.lock.unlock();
		}
	}

	private static void write(Path file, Map<String, Long> marks) {
		Path absolute = file.toAbsolutePath();
		Path directory = Objects.requireNonNull(absolute.getParent(), "directory");
		try {
			Files.createDirectories(directory);
			Path lockFile = directory.resolve(absolute.getFileName() + ".lock");
			try (FileChannel lockChannel = FileChannel.open(lockFile, StandardOpenOption.CREATE,
					StandardOpenOption.WRITE); FileLock fileLock = lockChannel.lock()) {
				// Another process sharing the file may have raised marks since this one last read it.
				read(absolute).forEach((name, mark) -> marks.merge(name, mark, Math::max));
				Map<String, Long> lines = new LinkedHashMap<>();
				marks.forEach((name, mark) -> lines.put(LocalStateFile.encodeKey(name), mark));
				LocalStateFile.write(absolute, HEADER, lines);
			}
		}
		catch (IOException | SegmentMarksException ex) {
			throw new UncheckedIOException("cannot write segment marks file " + file + ": " + ex,
					(ex instanceof IOException io) ? io : new IOException(ex));
		}
	}

	private static Map<String, Long> read(Path file) {
		Map<String, Long> marks = new TreeMap<>();
		try {
			LocalStateFile.read(file, (key, mark) -> {
				if (mark < 0) {
					throw new IllegalArgumentException("negative mark");
				}
				marks.merge(LocalStateFile.decodeKey(key), mark, Math::max);
			});
		}
		catch (CorruptLineException ex) {
			throw new SegmentMarksException(file,
					"line " + ex.lineNumber() + " is not key=mark: '" + ex.line() + "'", ex);
		}
		catch (IOException ex) {
			throw new SegmentMarksException(file, ex.toString(), ex);
		}
		return marks;
	}

	@Override
	public String toString() {
		return "SegmentMarks[" + ((this.file != null) ? this.file : "in memory") + ", " + this.marks.size() + " keys]";
	}

}
