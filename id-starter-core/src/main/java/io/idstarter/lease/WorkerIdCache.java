package io.idstarter.lease;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalInt;
import java.util.TreeMap;
import java.util.concurrent.locks.ReentrantLock;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Remembers the last worker ID of each lease namespace in a small local file, so that a restarted instance asks for
 * the slot it held before and does not churn slots. Only a preference: the store decides. A missing file is empty; a
 * corrupt one is ignored with a warning. Writes replace the file atomically.
 *
 * <p>The file holds one {@code namespace=workerId} line per namespace, the namespace URL-encoded.
 */
public final class WorkerIdCache {

	private static final Logger logger = LoggerFactory.getLogger(WorkerIdCache.class);

	private static final String HEADER = "# id-starter: last worker ID per lease namespace; safe to delete";

	private final Path file;

	/** Serialises read-modify-write of the file by keepers of this JVM. */
	private final ReentrantLock lock = new ReentrantLock();

	public WorkerIdCache(Path file) {
		this.file = Objects.requireNonNull(file, "file");
	}

	public Path file() {
		return this.file;
	}

	/**
	 * Returns the worker ID remembered for a namespace.
	 * @param namespace the lease namespace
	 * @return the worker ID, or empty if none is remembered or the file is missing or corrupt
	 */
	public OptionalInt read(String namespace) {
		this.lock.lock();
		try {
			Integer workerId = readAll().get(namespace);
			return (workerId != null) ? OptionalInt.of(workerId) : OptionalInt.empty();
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * Remembers the worker ID of a namespace, keeping those of other namespaces.
	 * @param namespace the lease namespace
	 * @param workerId the worker ID
	 * @throws UncheckedIOException if the file cannot be written
	 */
	public void write(String namespace, int workerId) {
		this.lock.lock();
		try {
			Map<String, Integer> entries = readAll();
			entries.put(namespace, workerId);
			List<String> lines = new ArrayList<>();
			lines.add(HEADER);
			entries.forEach((name, id) -> lines.add(URLEncoder.encode(name, StandardCharsets.UTF_8) + "=" + id));
			Path directory = Objects.requireNonNull(this.file.toAbsolutePath().getParent(), "directory");
			Files.createDirectories(directory);
			Path temp = Files.createTempFile(directory, this.file.getFileName().toString(), ".tmp");
			try {
				Files.write(temp, lines, StandardCharsets.UTF_8);
				move(temp);
			}
			finally {
				Files.deleteIfExists(temp);
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException("cannot write worker ID cache file " + this.file + ": " + ex, ex);
		}
		finally {
			this.lock.unlock();
		}
	}

	private void move(Path temp) throws IOException {
		try {
			Files.move(temp, this.file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
		}
		catch (AtomicMoveNotSupportedException ex) {
			Files.move(temp, this.file, StandardCopyOption.REPLACE_EXISTING);
		}
	}

	private Map<String, Integer> readAll() {
		Map<String, Integer> entries = new TreeMap<>();
		List<String> lines;
		try {
			lines = Files.readAllLines(this.file, StandardCharsets.UTF_8);
		}
		catch (NoSuchFileException ex) {
			return entries;
		}
		catch (IOException | UncheckedIOException ex) {
			logger.warn("Ignoring unreadable worker ID cache file {} ({}); a worker ID is borrowed afresh", this.file,
					ex.toString());
			return entries;
		}
		for (int i = 0; i < lines.size(); i++) {
			String line = lines.get(i).strip();
			if (line.isEmpty() || line.startsWith("#")) {
				continue;
			}
			int separator = line.lastIndexOf('=');
			try {
				if (separator <= 0) {
					throw new IllegalArgumentException("no '='");
				}
				String namespace = URLDecoder.decode(line.substring(0, separator), StandardCharsets.UTF_8);
				int workerId = Integer.parseInt(line.substring(separator + 1));
				if (workerId < 0) {
					throw new IllegalArgumentException("negative worker ID");
				}
				entries.put(namespace, workerId);
			}
			catch (IllegalArgumentException ex) {
				logger.warn("Ignoring corrupt worker ID cache file {} (line {}: '{}'); a worker ID is borrowed afresh",
						this.file, i + 1, line);
				entries.clear();
				return entries;
			}
		}
		return entries;
	}

	@Override
	public String toString() {
		return "WorkerIdCache[" + this.file + "]";
	}

}
