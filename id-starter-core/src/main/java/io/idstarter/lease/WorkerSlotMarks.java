package io.idstarter.lease;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

import io.idstarter.local.LocalFileLock;
import io.idstarter.local.LocalStateFile;
import io.idstarter.local.LocalStateFile.CorruptLineException;
import io.idstarter.local.LocalStateFile.StoreLine;

/**
 * This node's own record, on local disk, of the highest timestamp mark each worker slot's store entry must hold: the
 * greatest ceiling the store granted this node for the slot (lowered only by this node's own release, to what it
 * reports). A store answer below it means the store lost writes (a restart without persistence, a failover to a
 * replica that missed them, a restore from an old backup); the keeper then refuses to issue from that answer. Kept
 * across restarts, beside the worker-ID cache file.
 *
 * <p>The file is a {@link LocalStateFile} with one {@code namespace/workerId=mark} line per slot, and per namespace a
 * {@link StoreLine} naming its store ({@link #bindStore}); each write replaces it atomically and is forced to disk
 * before the keeper issues under the new mark. An unreadable file is an error, never silently empty: an empty record would let a store that lost writes through. Keepers of this and other
 * processes (two instances given one cache file) may share the file: each read-modify-write holds its
 * {@link LocalFileLock}, so none overwrites another's slots with what it read before.
 */
final class WorkerSlotMarks {

	/** File name, in the directory of the worker-ID cache file. */
	static final String FILE_NAME = "id-worker-slot-marks";

	private static final String HEADER = "id-starter: highest timestamp mark granted per worker slot; deleting it "
			+ "turns off this node's check that the lease store has not lost writes";

	private final Path file;

	/** The store this node's namespace is leased from, written with its marks; empty when unknown. */
	private volatile String store = "";

	WorkerSlotMarks(Path file) {
		this.file = Objects.requireNonNull(file, "file");
	}

	/**
	 * Returns the record that lives beside a worker-ID cache file.
	 */
	static WorkerSlotMarks besideCacheFile(Path cacheFile) {
		return new WorkerSlotMarks(cacheFile.toAbsolutePath().resolveSibling(FILE_NAME));
	}

	Path file() {
		return this.file;
	}

	/**
	 * Checks that the file's marks of a namespace are of the store in use, and records the store at the next write.
	 * @param identity the store's {@link ISequenceManager#identity()}; empty checks nothing
	 * @throws LeaseFileOfAnotherStoreException if the file records another store for the namespace
	 * @throws UncheckedIOException if the file exists but cannot be read or parsed
	 */
	void bindStore(String namespace, String identity) {
		String recorded = StoreLine.recorded(readAll(), namespace);
		if (StoreLine.differ(recorded, identity)) {
			throw new LeaseFileOfAnotherStoreException(this.file, namespace, recorded, identity);
		}
		this.store = identity;
	}

	/**
	 * Returns the mark this node knows for a slot.
	 * @return milliseconds since the Unix epoch, or {@code -1} if this node never held the slot
	 * @throws UncheckedIOException if the file exists but cannot be read or parsed
	 */
	long known(String namespace, int workerId) {
		// No lock needed: every write replaces the file whole, by a rename.
		return readAll().getOrDefault(key(namespace, workerId), -1L);
	}

	/**
	 * Raises a slot's mark to {@code mark}, if it is higher.
	 * @throws UncheckedIOException if the file cannot be written
	 */
	void raise(String namespace, int workerId, long mark) {
		update(namespace, workerId, mark, true);
	}

	/**
	 * Sets a slot's mark to what this node reports at release, below which it has issued nothing.
	 * @throws UncheckedIOException if the file cannot be written
	 */
	void lowerTo(String namespace, int workerId, long mark) {
		update(namespace, workerId, mark, false);
	}

	private void update(String namespace, int workerId, long mark, boolean onlyUp) {
		try {
			LocalFileLock.call(this.file, () -> {
				Map<String, Long> marks = readAll();
				String key = key(namespace, workerId);
				Long current = marks.get(key);
				boolean storeUnrecorded = !this.store.isEmpty() && StoreLine.recorded(marks, namespace).isEmpty();
				if (current == null || (onlyUp ? current < mark : current != mark) || storeUnrecorded) {
					marks.put(key, onlyUp && current != null ? Math.max(current, mark) : mark);
					StoreLine.record(marks, namespace, this.store);
					LocalStateFile.write(this.file, HEADER, marks);
				}
				return null;
			});
		}
		catch (IOException ex) {
			throw new UncheckedIOException("cannot write worker slot marks file " + this.file + ": " + ex, ex);
		}
	}

	private Map<String, Long> readAll() {
		Map<String, Long> marks = new TreeMap<>();
		try {
			LocalStateFile.read(this.file, (key, mark) -> {
				if (StoreLine.parse(key) != null) {
					marks.put(key, mark);
					return;
				}
				// The key stays as written (namespace encoded): it is only ever compared with key(namespace, workerId).
				int slash = key.lastIndexOf('/');
				if (slash <= 0) {
					throw new IllegalArgumentException("expected namespace/workerId=mark");
				}
				Integer.parseInt(key.substring(slash + 1));
				marks.put(key, mark);
			});
		}
		catch (CorruptLineException ex) {
			throw new UncheckedIOException("worker slot marks file " + this.file + " is corrupt at line "
					+ ex.lineNumber() + " ('" + ex.line() + "'); fix the line, or delete the file to turn the check off "
					+ "until the next lease", ex);
		}
		catch (IOException ex) {
			throw new UncheckedIOException("cannot read worker slot marks file " + this.file + ": " + ex, ex);
		}
		return marks;
	}

	private static String key(String namespace, int workerId) {
		return LocalStateFile.encodeKey(namespace) + "/" + workerId;
	}

	@Override
	public String toString() {
		return "WorkerSlotMarks[" + this.file + "]";
	}

}
