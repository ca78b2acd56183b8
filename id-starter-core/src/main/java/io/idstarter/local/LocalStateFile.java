package io.idstarter.local;

import java.io.IOException;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFileAttributes;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The format of a node-local state file and its durable replacement, shared by the worker-ID cache, the worker slot
 * marks and the segment marks.
 *
 * <p>The file is UTF-8 text: one {@code key=value} line per entry, the value a decimal {@code long}; blank lines and
 * lines starting with {@code #} are skipped, and the key is everything before the last {@code =}. Keys that come from
 * users (namespaces, business keys) are written through {@link #encodeKey} so that they cannot hold {@code =}, a line
 * break or a leading {@code #}. What a corrupt file means (ignored, or an error) is the caller's policy; this class
 * only reports where it is corrupt. A file may name the store its entries belong to with {@link StoreLine}s.
 *
 * <p>{@link #write} never leaves a half-written file: it writes a temporary file in the same directory, forces it to
 * disk, renames it atomically over the old one (or, where the file system cannot, replaces it) and forces the
 * directory where the platform allows, so that after a crash the file holds either the old or the new entries. The
 * replacement keeps the permissions, owner and group the old file had, so that a mode or owner an operator set
 * survives; a new file is readable and writable by its owner only. Callers serialise writers, across processes too,
 * with {@link LocalFileLock}.
 */
public final class LocalStateFile {

	private static final Logger logger = LoggerFactory.getLogger(LocalStateFile.class);

	private LocalStateFile() {
	}

	/**
	 * Receives the entries of a file, in file order; rejects one by throwing {@link IllegalArgumentException}, which
	 * {@link #read} reports as a corrupt line.
	 */
	@FunctionalInterface
	public interface EntryConsumer {

		/**
		 * Takes one entry.
		 * @param key the key as written (still encoded)
		 * @param value the value
		 * @throws IllegalArgumentException if the entry is not valid for this file
		 */
		void accept(String key, long value);

	}

	/**
	 * Reads the entries of a file.
	 * @param file the file
	 * @param entries receives each entry; a missing file gives none
	 * @throws CorruptLineException if a line is not {@code key=long} or {@code entries} rejects it
	 * @throws IOException if the file exists but cannot be read
	 */
	public static void read(Path file, EntryConsumer entries) throws IOException {
		List<String> lines;
		try {
			lines = Files.readAllLines(file, StandardCharsets.UTF_8);
		}
		catch (NoSuchFileException ex) {
			return;
		}
		for (int i = 0; i < lines.size(); i++) {
			String line = lines.get(i).strip();
			if (line.isEmpty() || line.startsWith("#")) {
				continue;
			}
			int separator = line.lastIndexOf('=');
			try {
				if (separator <= 0) {
					throw new IllegalArgumentException("no key=value");
				}
				entries.accept(line.substring(0, separator), Long.parseLong(line.substring(separator + 1)));
			}
			catch (IllegalArgumentException ex) {
				throw new CorruptLineException(file, i + 1, line, ex);
			}
		}
	}

	/**
	 * Replaces a file with the given entries, durably (see the class description).
	 * @param file the file; its directories are created if missing
	 * @param header a comment saying what the file is, written as its first line
	 * @param entries key to value, written in iteration order; keys as from {@link #encodeKey} or equally plain
	 * @throws IllegalArgumentException if a key could not be read back as written
	 * @throws IOException if the file cannot be written; the old file is then unchanged
	 */
	public static void write(Path file, String header, Map<String, Long> entries) throws IOException {
		StringBuilder text = new StringBuilder(64 + entries.size() * 32);
		text.append("# ").append(header.replaceAll("\\R", " ")).append('\n');
		entries.forEach((key, value) -> text.append(checkKey(key)).append('=').append(value).append('\n'));
		Path absolute = file.toAbsolutePath();
		Path directory = Objects.requireNonNull(absolute.getParent(), "directory");
		Files.createDirectories(directory);
		Path temp = Files.createTempFile(directory, absolute.getFileName().toString(), ".tmp");
		try {
			try (FileChannel channel = FileChannel.open(temp, StandardOpenOption.WRITE)) {
				ByteBuffer bytes = StandardCharsets.UTF_8.encode(text.toString());
				while (bytes.hasRemaining()) {
					channel.write(bytes);
				}
				channel.force(true);
			}
			// After the write: the operator's mode may not let this user write.
			keepAttributes(absolute, temp);
			move(temp, absolute);
		}
		finally {
			Files.deleteIfExists(temp);
		}
		forceDirectory(directory);
	}

	/**
	 * Encodes a key from users so that it fits on a line of the file.
	 * @param key any text
	 * @return the key URL-encoded (UTF-8)
	 */
	public static String encodeKey(String key) {
		return URLEncoder.encode(key, StandardCharsets.UTF_8);
	}

	/**
	 * Decodes a key written by {@link #encodeKey}.
	 * @param encoded the key as read
	 * @return the original key
	 * @throws IllegalArgumentException if it is not URL-encoded text
	 */
	public static String decodeKey(String encoded) {
		return URLDecoder.decode(encoded, StandardCharsets.UTF_8);
	}

	private static String checkKey(String key) {
		boolean plain = !key.isEmpty() && key.equals(key.strip()) && !key.startsWith("#")
				&& key.chars().noneMatch((c) -> c == '=' || c == '\n' || c == '\r');
		if (!plain) {
			throw new IllegalArgumentException("key '" + key + "' cannot be stored in a key=value line; encode it "
					+ "with LocalStateFile.encodeKey");
		}
		return key;
	}

	/**
	 * Gives the replacement the permissions, owner and group of the file it replaces. Changing the owner needs the
	 * right to (root, as a rule): without it the file ends up owned by this process's user, which is logged.
	 */
	private static void keepAttributes(Path file, Path replacement) throws IOException {
		PosixFileAttributes old;
		try {
			old = Files.readAttributes(file, PosixFileAttributes.class);
		}
		catch (NoSuchFileException | UnsupportedOperationException ex) {
			return;
		}
		PosixFileAttributeView view = Files.getFileAttributeView(replacement, PosixFileAttributeView.class);
		view.setPermissions(old.permissions());
		PosixFileAttributes fresh = view.readAttributes();
		try {
			if (!fresh.group().equals(old.group())) {
				view.setGroup(old.group());
			}
			if (!fresh.owner().equals(old.owner())) {
				view.setOwner(old.owner());
			}
		}
		catch (IOException ex) {
			logger.warn("Cannot keep the owner {} and group {} of {} ({}); it is now owned by {} and group {}",
					old.owner().getName(), old.group().getName(), file, ex.toString(), fresh.owner().getName(),
					fresh.group().getName());
		}
	}

	private static void move(Path temp, Path file) throws IOException {
		try {
			Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
		}
		catch (AtomicMoveNotSupportedException ex) {
			Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING);
		}
	}

	/** Makes the rename durable where the platform allows it (Linux does; Windows cannot open a directory). */
	private static void forceDirectory(Path directory) {
		try (FileChannel channel = FileChannel.open(directory, StandardOpenOption.READ)) {
			channel.force(true);
		}
		catch (IOException | UnsupportedOperationException ex) {
			logger.trace("Cannot force directory {} to disk: {}", directory, ex.toString());
		}
	}

	/**
	 * A line naming the store a file's entries belong to, {@code @store:[scope/]identity=0}, scope and identity
	 * encoded: the store's identity and, in a file shared by several lease namespaces, the namespace it is the store
	 * of (an empty scope: the whole file's). No encoded key starts with {@code @}, and no encoded scope holds a
	 * {@code /}, so the line is told from entries and read back without ambiguity. Files written before it existed
	 * have none; they get it at their next write.
	 * @param scope the namespace the line is about, or empty for the whole file
	 * @param identity the store's identity, not empty
	 */
	public record StoreLine(String scope, String identity) {

		/** How the key of a store line starts. */
		public static final String PREFIX = "@store:";

		/**
		 * Returns the line's key.
		 * @return the key, for {@link LocalStateFile#write}
		 */
		public String key() {
			return PREFIX + (this.scope.isEmpty() ? "" : encodeKey(this.scope) + "/") + encodeKey(this.identity);
		}

		/**
		 * Reads a key as a store line.
		 * @param key a key as read (still encoded)
		 * @return the store line, or {@code null} if the key is an entry's
		 * @throws IllegalArgumentException if the identity or scope is not URL-encoded text
		 */
		public static @Nullable StoreLine parse(String key) {
			if (!key.startsWith(PREFIX)) {
				return null;
			}
			String rest = key.substring(PREFIX.length());
			int slash = rest.indexOf('/');
			return (slash < 0) ? new StoreLine("", decodeKey(rest))
					: new StoreLine(decodeKey(rest.substring(0, slash)), decodeKey(rest.substring(slash + 1)));
		}

		/**
		 * Returns the store that entries as read record for a scope.
		 * @param entries keys as written (store lines included) to values
		 * @param scope the namespace, or empty for the whole file
		 * @return the identity, or an empty string if the entries name none
		 */
		public static String recorded(Map<String, Long> entries, String scope) {
			for (String key : entries.keySet()) {
				StoreLine line = parse(key);
				if (line != null && line.scope().equals(scope)) {
					return line.identity();
				}
			}
			return "";
		}

		/**
		 * Names a scope's store in entries about to be written, in place of the one they named before.
		 * @param entries keys as written (store lines included) to values
		 * @param scope the namespace, or empty for the whole file
		 * @param identity the store's identity; empty leaves the entries as they are
		 */
		public static void record(Map<String, Long> entries, String scope, String identity) {
			if (identity.isEmpty()) {
				return;
			}
			entries.keySet().removeIf((key) -> {
				StoreLine line = parse(key);
				return line != null && line.scope().equals(scope);
			});
			entries.put(new StoreLine(scope, identity).key(), 0L);
		}

		/**
		 * Whether a file recorded for one store is used by another: an empty identity (a file without the line, or a
		 * store that cannot say) matches any.
		 * @param recorded the identity the file names, or empty
		 * @param identity the identity of the store in use, or empty
		 * @return {@code true} if both are known and differ
		 */
		public static boolean differ(String recorded, String identity) {
			return !recorded.isEmpty() && !identity.isEmpty() && !recorded.equals(identity);
		}

	}

	/**
	 * Thrown by {@link #read} for a line that is not a valid entry.
	 */
	public static final class CorruptLineException extends IOException {

		private static final long serialVersionUID = 1L;

		private final transient Path file;

		private final int lineNumber;

		private final String line;

		CorruptLineException(Path file, int lineNumber, String line, IllegalArgumentException cause) {
			super("line " + lineNumber + " of " + file + " is not a valid key=value entry: '" + line + "' ("
					+ cause.getMessage() + ")", cause);
			this.file = file;
			this.lineNumber = lineNumber;
			this.line = line;
		}

		public Path file() {
			return this.file;
		}

		/**
		 * Returns the number of the corrupt line.
		 * @return the line number, from 1
		 */
		public int lineNumber() {
			return this.lineNumber;
		}

		/**
		 * Returns the corrupt line, without surrounding white space.
		 * @return the line
		 */
		public String line() {
			return this.line;
		}

	}

}
