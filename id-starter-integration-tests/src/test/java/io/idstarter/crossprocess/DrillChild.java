package io.idstarter.crossprocess;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.jspecify.annotations.Nullable;

/**
 * One {@link IdDrillProcess} launched by a {@link Drill}: its process, its files, and how it ended.
 */
final class DrillChild {

	private final String label;

	private final Path directory;

	private final Process process;

	/** Wall-clock ms when the process was seen to exit; 0 while it runs. */
	private volatile long exitedAt;

	/** Wall-clock ms when it was seen dead after a SIGKILL; null unless killed. */
	private volatile @Nullable Long killedAt;

	DrillChild(String label, Path directory, Process process) {
		this.label = label;
		this.directory = directory;
		this.process = process;
		process.onExit().thenRun(() -> this.exitedAt = System.currentTimeMillis());
	}

	String label() {
		return this.label;
	}

	long pid() {
		return this.process.pid();
	}

	boolean isAlive() {
		return this.process.isAlive();
	}

	/**
	 * Kills the process with SIGKILL ({@link Process#destroyForcibly()} on Linux) and waits until it is dead.
	 * @return when it was seen dead, wall-clock ms
	 */
	long kill() {
		this.process.destroyForcibly();
		try {
			if (!this.process.waitFor(30, TimeUnit.SECONDS)) {
				throw new IllegalStateException(this.label + " (pid " + pid() + ") did not die within 30 s of SIGKILL");
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("interrupted", ex);
		}
		long at = System.currentTimeMillis();
		this.killedAt = at;
		return at;
	}

	/**
	 * Freezes the process with SIGSTOP, as a long GC pause, a VM migration or a laptop lid does: every thread stops
	 * wherever it is, and the monotonic clock goes on.
	 * @return when the signal had been delivered, wall-clock ms: the process was frozen by then
	 */
	long pause() {
		signal("STOP");
		return System.currentTimeMillis();
	}

	/**
	 * Lets a paused process go on with SIGCONT.
	 * @return when the signal was about to be sent, wall-clock ms: the process ran again no earlier
	 */
	long resume() {
		long at = System.currentTimeMillis();
		signal("CONT");
		return at;
	}

	private void signal(String signal) {
		try {
			// The shell's built-in kill: no procps package needed.
			Process kill = new ProcessBuilder("sh", "-c", "kill -" + signal + " " + pid()).redirectErrorStream(true)
				.start();
			String output = new String(kill.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
			if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
				throw new IllegalStateException("kill -" + signal + " " + pid() + " failed: " + output);
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException("cannot run kill -" + signal, ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("interrupted", ex);
		}
	}

	/**
	 * Waits for the process to exit.
	 * @param timeout how long at most
	 * @return its exit status
	 * @throws IllegalStateException if it is still running after the timeout (it is then killed)
	 */
	int awaitExit(Duration timeout) {
		try {
			if (!this.process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
				this.process.destroyForcibly();
				throw new IllegalStateException(this.label + " did not finish within " + timeout + "; killed it. "
						+ describe());
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("interrupted", ex);
		}
		return this.process.exitValue();
	}

	/**
	 * Waits until the process has recorded an event.
	 * @param kind the event
	 * @param timeout how long at most
	 * @return the event
	 * @throws IllegalStateException if the process exits first or the time runs out
	 */
	DrillEvent awaitEvent(String kind, Duration timeout) {
		long deadline = System.nanoTime() + timeout.toNanos();
		for (;;) {
			for (DrillEvent event : events()) {
				if (event.kind().equals(kind)) {
					return event;
				}
			}
			if (!this.process.isAlive()) {
				throw new IllegalStateException(this.label + " exited (" + this.process.exitValue()
						+ ") without recording '" + kind + "'. " + describe());
			}
			if (System.nanoTime() - deadline > 0) {
				throw new IllegalStateException(this.label + " did not record '" + kind + "' within " + timeout
						+ ". " + describe());
			}
			sleep(20);
		}
	}

	/**
	 * Returns the events recorded so far.
	 * @return the events in order (a line cut by a kill is left out)
	 */
	List<DrillEvent> events() {
		List<String> lines;
		try {
			lines = Files.readAllLines(this.directory.resolve(this.label + ".events"), StandardCharsets.UTF_8);
		}
		catch (NoSuchFileException ex) {
			return List.of();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		List<DrillEvent> events = new ArrayList<>();
		for (String line : lines) {
			try {
				events.add(DrillEvent.parse(this.label, line));
			}
			catch (IllegalArgumentException ex) {
				// The last line of a killed process may be cut.
			}
		}
		return events;
	}

	/**
	 * Returns the file the process's output (stdout and stderr) goes to.
	 * @return the log file
	 */
	Path log() {
		return this.directory.resolve(this.label + ".log");
	}

	/**
	 * Returns the files the process wrote IDs to.
	 * @return one per thread
	 */
	List<Path> idFiles() {
		try (Stream<Path> files = Files.list(this.directory)) {
			return files.filter((file) -> file.getFileName().toString().startsWith(this.label + "-t")
					&& file.getFileName().toString().endsWith(".ids")).sorted().toList();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * Returns how many bytes of IDs the process has written so far.
	 * @return the total size of its ID files
	 */
	long idBytes() {
		long bytes = 0;
		for (Path file : idFiles()) {
			try {
				bytes += Files.size(file);
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
		}
		return bytes;
	}

	/**
	 * Describes how the process ended, for {@link LeaseHistory}.
	 * @return its events, kill time and exit time
	 */
	LeaseHistory.Source toSource() {
		long ended = (this.exitedAt != 0) ? this.exitedAt : System.currentTimeMillis();
		return new LeaseHistory.Source(this.label, events(), this.killedAt, ended);
	}

	/**
	 * Returns the last lines of the process's output, for failure messages.
	 * @return the output's tail
	 */
	String describe() {
		Path log = this.directory.resolve(this.label + ".log");
		try {
			List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
			return "Last output of " + this.label + " (" + log + "):\n  "
					+ String.join("\n  ", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
		}
		catch (IOException ex) {
			return "No output of " + this.label + " (" + ex + ")";
		}
	}

	private static void sleep(long millis) {
		try {
			Thread.sleep(millis);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("interrupted", ex);
		}
	}

	@Override
	public String toString() {
		return this.label + " (pid " + pid() + ")";
	}

}
