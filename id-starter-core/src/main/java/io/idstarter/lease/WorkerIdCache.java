package io.idstarter.lease;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalInt;
import java.util.TreeMap;

import io.idstarter.local.LocalFileLock;
import io.idstarter.local.LocalStateFile;
import io.idstarter.local.LocalStateFile.CorruptLineException;
import io.idstarter.local.LocalStateFile.StoreLine;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Remembers the last worker ID of each lease namespace in a small local file, so that a restarted instance asks for
 * the slot it held before and does not churn slots. Only a preference: the store decides. A missing file is empty; a
 * corrupt one is ignored with a warning. Writes replace the file atomically and durably. Instances of this and other
 * processes may share the file: each read-modify-write holds its {@link LocalFileLock}.
 *
 * <p>The file is a {@link LocalStateFile} with one {@code namespace=workerId} line per namespace, and per namespace a
 * {@link StoreLine} naming its store ({@link #bindStore}).
 */
public final class WorkerIdCache {

	private static final Logger logger = LoggerFactory.getLogger(WorkerIdCache.class);

	private static final String HEADER = "id-starter: last worker ID per lease namespace; safe to delete";

	private final Path file;

	/** The store this node's namespace is leased from, written with its worker ID; empty when unknown. */
	private volatile String store = "";

	public WorkerIdCache(Path file) {
		this.file = Objects.requireNonNull(file, "file");
	}

	public Path file() {
		return this.file;
	}

	/**
	 * Checks that the worker ID remembered for a namespace is of the store in use, and records the store at the next
	 * write: a worker ID of another store's slots is no preference of this one's.
	 * @param namespace the lease namespace
	 * @param identity the store's {@link ISequenceManager#identity()}; empty checks nothing
	 * @throws LeaseFileOfAnotherStoreException if the file records another store for the namespace
	 */
	public void bindStore(String namespace, String identity) {
		String recorded = StoreLine.recorded(readAll(), namespace);
		if (StoreLine.differ(recorded, identity)) {
			throw new LeaseFileOfAnotherStoreException(this.file, namespace, recorded, identity);
		}
		this.store = identity;
	}

	/**
	 * Returns the worker ID remembered for a namespace.
	 * @param namespace the lease namespace
	 * @return the worker ID, or empty if none is remembered or the file is missing or corrupt
	 */
	public OptionalInt read(String namespace) {
		// No lock needed: every write replaces the file whole, by a rename.
		Long workerId = readAll().get(LocalStateFile.encodeKey(namespace));
		return (workerId != null) ? OptionalInt.of(workerId.intValue()) : OptionalInt.empty();
	}

	/**
	 * Remembers the worker ID of a namespace, keeping those of other namespaces.
	 * @param namespace the lease namespace
	 * @param workerId the worker ID
	 * @throws UncheckedIOException if the file cannot be written
	 */
	public void write(String namespace, int workerId) {
		try {
			LocalFileLock.call(this.file, () -> {
				Map<String, Long> entries = readAll();
				entries.put(LocalStateFile.encodeKey(namespace), (long) workerId);
				StoreLine.record(entries, namespace, this.store);
				LocalStateFile.write(this.file, HEADER, entries);
				return null;
			});
		}
		catch (IOException ex) {
			throw new UncheckedIOException("cannot write worker ID cache file " + this.file + ": " + ex, ex);
		}
	}

	/** Reads the entries, keys as written (namespaces encoded, store lines included). */
	private Map<String, Long> readAll() {
		Map<String, Long> entries = new TreeMap<>();
		try {
			LocalStateFile.read(this.file, (key, workerId) -> {
				if (StoreLine.parse(key) == null) {
					if (workerId < 0 || workerId > Integer.MAX_VALUE) {
						throw new IllegalArgumentException("not a worker ID");
					}
					// Rejects a namespace that is not encoded text.
					LocalStateFile.decodeKey(key);
				}
				entries.put(key, workerId);
			});
		}
		catch (CorruptLineException ex) {
			logger.warn("Ignoring corrupt worker ID cache file {} (line {}: '{}'); a worker ID is borrowed afresh",
					this.file, ex.lineNumber(), ex.line());
			entries.clear();
		}
		catch (IOException ex) {
			logger.warn("Ignoring unreadable worker ID cache file {} ({}); a worker ID is borrowed afresh", this.file,
					ex.toString());
			entries.clear();
		}
		return entries;
	}

	@Override
	public String toString() {
		return "WorkerIdCache[" + this.file + "]";
	}

}
