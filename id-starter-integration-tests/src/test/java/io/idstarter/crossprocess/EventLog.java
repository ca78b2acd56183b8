package io.idstarter.crossprocess;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Where a drill writes what happened, one {@link DrillEvent} per line, stamped with the wall clock.
 */
interface EventLog {

	/**
	 * Records an event now.
	 * @param kind what happened, one word
	 * @param fields {@code name=value} pairs separated by spaces (values without spaces), optionally ending with
	 * {@code error=} and free text; may be empty
	 */
	void record(String kind, String fields);

	/**
	 * Formats a failure for the {@code error=} field: its type and message on one line.
	 * @param ex the failure
	 * @return the text
	 */
	static String error(Throwable ex) {
		return DrillEvent.ERROR + "=" + (ex.getClass().getSimpleName() + ": " + ex.getMessage()).replaceAll("\\R", " ");
	}

	/**
	 * Returns a log that appends to a file, each line written through to the operating system at once so that a
	 * SIGKILL loses nothing recorded before it.
	 * @param file the file
	 * @return the log
	 */
	static FileLog toFile(Path file) {
		return new FileLog(file);
	}

	/**
	 * Returns a log kept in memory, for drills within the test JVM.
	 * @param source the node it stands for
	 * @return the log
	 */
	static MemoryLog inMemory(String source) {
		return new MemoryLog(source);
	}

	/**
	 * Appends unbuffered lines to a file.
	 */
	final class FileLog implements EventLog, AutoCloseable {

		private final ReentrantLock lock = new ReentrantLock();

		private final OutputStream out;

		private FileLog(Path file) {
			try {
				this.out = Files.newOutputStream(file, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
			}
			catch (IOException ex) {
				throw new UncheckedIOException("cannot open event log " + file, ex);
			}
		}

		@Override
		public void record(String kind, String fields) {
			byte[] line = format(System.currentTimeMillis(), kind, fields).getBytes(StandardCharsets.UTF_8);
			this.lock.lock();
			try {
				this.out.write(line);
			}
			catch (IOException ex) {
				throw new UncheckedIOException("cannot write event " + kind, ex);
			}
			finally {
				this.lock.unlock();
			}
		}

		@Override
		public void close() {
			try {
				this.out.close();
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
		}

	}

	/**
	 * Keeps events in a list.
	 */
	final class MemoryLog implements EventLog {

		private final String source;

		private final ReentrantLock lock = new ReentrantLock();

		private final List<DrillEvent> events = new ArrayList<>();

		private MemoryLog(String source) {
			this.source = source;
		}

		@Override
		public void record(String kind, String fields) {
			DrillEvent event = DrillEvent.parse(this.source, format(System.currentTimeMillis(), kind, fields).strip());
			this.lock.lock();
			try {
				this.events.add(event);
			}
			finally {
				this.lock.unlock();
			}
		}

		/**
		 * Returns the events recorded so far.
		 * @return a copy, in order
		 */
		List<DrillEvent> events() {
			this.lock.lock();
			try {
				return List.copyOf(this.events);
			}
			finally {
				this.lock.unlock();
			}
		}

	}

	private static String format(long at, String kind, String fields) {
		return at + " " + kind + (fields.isEmpty() ? "" : " " + fields) + "\n";
	}

}
