package io.idstarter.segment;

import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

import io.idstarter.local.LocalFileLock;
import io.idstarter.local.LocalStateFile;
import io.idstarter.local.LocalStateFile.CorruptLineException;
import io.idstarter.local.LocalStateFile.StoreLine;
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
 * that was served.
 *
 * <p>Processes on one host may share a file (as may several generators of one JVM). The file then holds, per key, the
 * highest end any of them was given: each write reads the file and keeps the higher of its mark and this process's,
 * under a {@link LocalFileLock}. The guard of a process, {@link #highMark}, is only what the file held when the process
 * loaded it and what this process was given since, never a mark another process wrote later: that process was given
 * its range by the same store, after or before ours, so it says nothing about the store having lost a write of ours.
 *
 * <p>The file is a {@link LocalStateFile} with one {@code key=mark} line per key (keys encoded), and a line
 * {@code @store:<identity>=0} naming the store the marks belong to ({@link SegmentStore#identity()}, encoded; a
 * version without it reads it as a key no store can have, with mark 0). A missing file is empty; an unreadable or
 * corrupt one fails the start, since ignoring it would silently drop the guard; so does a file of another store
 * ({@link #bindStore}). A file without the line (written before it existed) is taken as this store's and gets the
 * line at the next write. A file that cannot be written is reported by {@link #writeFailure()} until a write
 * succeeds.
 */
public final class SegmentMarks {

	private static final Logger logger = LoggerFactory.getLogger(SegmentMarks.class);

	private static final String HEADER = "id-starter: end of the highest segment range given to the processes sharing "
			+ "this file, per key. Deleting it drops the guard against a segment store that lost writes.";

	/** How the line that names the store starts, before its encoded identity. */
	static final String STORE_LINE = StoreLine.PREFIX;

	private final @Nullable Path file;

	/** The store the marks belong to: read from the file, or bound at start; empty when unknown. */
	private volatile String store;

	/**
	 * Highest end per key that this process was given, or that the file held when loaded; raised, or lowered from a
	 * range's end to its given-back cursor; with a file, changed only after the file holds the new value.
	 */
	private final ConcurrentHashMap<String, Long> marks = new ConcurrentHashMap<>();

	/** Why the latest write of the file failed; null while the latest write succeeded. */
	private volatile @Nullable SegmentMarksException writeFailure;

	private SegmentMarks(@Nullable Path file, Map<String, Long> loaded, String store) {
		this.file = file;
		this.marks.putAll(loaded);
		this.store = store;
	}

	/**
	 * Returns marks kept in memory only: they guard this process, and a restarted one starts without them.
	 * @return empty marks
	 */
	public static SegmentMarks inMemory() {
		return new SegmentMarks(null, Map.of(), "");
	}

	/**
	 * Returns marks kept in a local file, loaded now.
	 * @param file the file; created at the first mark, with its directories
	 * @return the marks found in the file
	 * @throws SegmentMarksException if the file exists but cannot be read or is corrupt
	 */
	public static SegmentMarks file(Path file) {
		Objects.requireNonNull(file, "file");
		// No lock needed: every write replaces the file whole, by a rename.
		Map<String, Long> loaded = read(file);
		String store = storeOf(loaded);
		if (!loaded.isEmpty()) {
			logger.info("Loaded segment marks of {} keys from {}", loaded.size(), file);
		}
		return new SegmentMarks(file, loaded, store);
	}

	/**
	 * Returns the file the marks are kept in.
	 * @return the file, or empty when kept in memory only
	 */
	public Optional<Path> file() {
		return Optional.ofNullable(this.file);
	}

	/**
	 * Returns the end of the highest range this process was given for a key, or the file held when loaded.
	 * @param key the business key
	 * @return the mark, 0 when none is known
	 */
	public long highMark(String key) {
		Long mark = this.marks.get(key);
		return (mark != null) ? mark : 0;
	}

	/**
	 * Returns every mark of this process (see {@link #highMark}).
	 * @return key to mark, sorted by key
	 */
	public Map<String, Long> all() {
		return new TreeMap<>(this.marks);
	}

	/**
	 * Checks that the marks belong to a store, and records it in the file at the next write: marks of another store's
	 * keys would refuse (or let through) ranges that have nothing to do with them.
	 * @param identity the store's {@link SegmentStore#identity()}; empty when it cannot say, and then nothing is checked
	 * @throws SegmentMarksException if the file names another store
	 */
	public void bindStore(String identity) {
		if (identity.isEmpty() || this.file == null) {
			return;
		}
		String recorded = this.store;
		if (StoreLine.differ(recorded, identity)) {
			throw SegmentMarksException.otherStore(this.file, recorded, identity, STORE_LINE);
		}
		this.store = identity;
	}

	/**
	 * Returns the store these marks belong to.
	 * @return its identity, empty when unknown
	 */
	public String store() {
		return this.store;
	}

	/**
	 * Returns why the file could not be written, while it cannot.
	 * @return the failure of the latest write, or empty if it succeeded (or the marks are kept in memory)
	 */
	public Optional<SegmentMarksException> writeFailure() {
		return Optional.ofNullable(this.writeFailure);
	}

	/**
	 * Raises a key's mark to {@code end}, unless it is already as high; with a file, returns only once the file on
	 * disk holds it.
	 * @param key the business key
	 * @param end the end of a range this node was given
	 * @throws SegmentMarksException if the file cannot be written; the mark is then not raised
	 */
	public void raise(String key, long end) {
		if (highMark(key) >= end) {
			return;
		}
		if (this.file == null) {
			this.marks.merge(key, end, Math::max);
			return;
		}
		Path path = this.file;
		try {
			LocalFileLock.call(path, () -> {
				if (highMark(key) < end) {
					// The file keeps the highest mark of every process sharing it; the guard takes only this one's.
					Map<String, Long> merged = read(path);
					String recorded = storeOf(merged);
					this.marks.forEach((name, mark) -> merged.merge(name, mark, Math::max));
					merged.merge(key, end, Math::max);
					write(path, recorded, merged);
					this.marks.merge(key, end, Math::max);
				}
				return null;
			});
			this.writeFailure = null;
		}
		catch (IOException | SegmentMarksException ex) {
			SegmentMarksException failure = SegmentMarksException.unwritable(path, ex);
			this.writeFailure = failure;
			throw failure;
		}
	}

	/**
	 * Lowers a key's mark from {@code end} to {@code cursor} after this node gave back {@code [cursor, end)}, so that
	 * the next range, which may start at {@code cursor}, is not refused as a lost write. Only a mark of exactly
	 * {@code end} is lowered: a higher one is a range this node still holds. In a shared file, a higher mark of
	 * another process is kept. Call it before the store gives back: a node stopped in between then holds a mark lower
	 * than needed (a weaker guard for the tail only), never one above a store that gave back (a false refusal).
	 * @param key the business key
	 * @param end the end of the range, this node's mark
	 * @param cursor the first number of the range that was not handed out
	 * @return whether the mark was lowered
	 * @throws SegmentMarksException if the file cannot be written; the mark is then not lowered
	 */
	public boolean lower(String key, long end, long cursor) {
		if (cursor >= end || highMark(key) != end) {
			return false;
		}
		if (this.file == null) {
			return this.marks.replace(key, end, cursor);
		}
		Path path = this.file;
		try {
			boolean lowered = LocalFileLock.call(path, () -> {
				if (highMark(key) != end) {
					return false;
				}
				Map<String, Long> merged = read(path);
				String recorded = storeOf(merged);
				this.marks.forEach((name, mark) -> {
					if (!name.equals(key)) {
						merged.merge(name, mark, Math::max);
					}
				});
				Long inFile = merged.get(key);
				if (inFile == null || inFile <= end) {
					merged.put(key, cursor);
				}
				write(path, recorded, merged);
				return this.marks.replace(key, end, cursor);
			});
			this.writeFailure = null;
			return lowered;
		}
		catch (IOException | SegmentMarksException ex) {
			SegmentMarksException failure = SegmentMarksException.unwritable(path, ex);
			this.writeFailure = failure;
			throw failure;
		}
	}

	/**
	 * Drops a key's mark, for a key deleted from the store on purpose (a periodic key past its retention), so that
	 * its absence is not reported as a lost key. With a file, the key's line is removed for every process sharing it.
	 * @param key the business key
	 * @throws SegmentMarksException if the file cannot be written; the mark is then kept
	 */
	public void forget(String key) {
		if (this.file == null) {
			this.marks.remove(key);
			return;
		}
		Path path = this.file;
		try {
			LocalFileLock.call(path, () -> {
				Map<String, Long> merged = read(path);
				String recorded = storeOf(merged);
				this.marks.forEach((name, mark) -> merged.merge(name, mark, Math::max));
				merged.remove(key);
				write(path, recorded, merged);
				this.marks.remove(key);
				return null;
			});
			this.writeFailure = null;
		}
		catch (IOException | SegmentMarksException ex) {
			SegmentMarksException failure = SegmentMarksException.unwritable(path, ex);
			this.writeFailure = failure;
			throw failure;
		}
	}

	/** Replaces the file with the marks and the line naming the store (this process's, else the one recorded). */
	private void write(Path path, String recorded, Map<String, Long> merged) throws IOException {
		String store = this.store.isEmpty() ? recorded : this.store;
		Map<String, Long> lines = new LinkedHashMap<>();
		if (!store.isEmpty()) {
			lines.put(new StoreLine("", store).key(), 0L);
		}
		merged.forEach((name, mark) -> lines.put(LocalStateFile.encodeKey(name), mark));
		LocalStateFile.write(path, HEADER, lines);
	}

	/** Returns the store named in marks as read (and removes the line from them), or an empty string. */
	private static String storeOf(Map<String, Long> read) {
		String store = "";
		for (String name : read.keySet()) {
			if (name.startsWith(STORE_LINE)) {
				store = name.substring(STORE_LINE.length());
			}
		}
		read.keySet().removeIf((name) -> name.startsWith(STORE_LINE));
		return store;
	}

	/** Reads the marks; the store line comes back as {@code @store:<identity>} (decoded), which no key can be. */
	private static Map<String, Long> read(Path file) {
		Map<String, Long> marks = new TreeMap<>();
		try {
			LocalStateFile.read(file, (key, mark) -> {
				if (mark < 0) {
					throw new IllegalArgumentException("negative mark");
				}
				StoreLine store = StoreLine.parse(key);
				if (store != null) {
					marks.put(STORE_LINE + store.identity(), mark);
					return;
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
