package io.idstarter.crossprocess;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import io.idstarter.local.LocalFileLock;

/**
 * A child JVM that takes the {@link LocalFileLock} of a node-local file and holds it until told to let go, so that a
 * drill can freeze it (SIGSTOP) with the lock held, as a paused instance sharing the file would be.
 */
final class FileLockHolder implements AutoCloseable {

	static final String LOCKED = "locked";

	private final Process process;

	private FileLockHolder(Process process) {
		this.process = process;
	}

	/**
	 * Starts the child and returns once it holds the lock of {@code file}.
	 */
	static FileLockHolder hold(Path file) throws IOException {
		Process process = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
				System.getProperty("java.class.path"), FileLockHolder.class.getName(), file.toString())
			.redirectErrorStream(true)
			.start();
		FileLockHolder holder = new FileLockHolder(process);
		BufferedReader output = new BufferedReader(
				new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
		StringBuilder seen = new StringBuilder();
		for (String line = output.readLine(); line != null; line = output.readLine()) {
			if (line.equals(LOCKED)) {
				return holder;
			}
			seen.append(line).append('\n');
		}
		holder.close();
		throw new IllegalStateException("child did not take the lock of " + file + ":\n" + seen);
	}

	void pause() {
		signal("STOP");
	}

	void resume() {
		signal("CONT");
	}

	/**
	 * Tells the child to let go; a frozen child does so once resumed.
	 */
	void letGo() throws IOException {
		OutputStream input = this.process.getOutputStream();
		input.write('\n');
		input.flush();
	}

	boolean awaitExit(long seconds) throws InterruptedException {
		return this.process.waitFor(seconds, TimeUnit.SECONDS) && this.process.exitValue() == 0;
	}

	private void signal(String signal) {
		try {
			// The shell's built-in kill: no procps package needed.
			Process kill = new ProcessBuilder("sh", "-c", "kill -" + signal + " " + this.process.pid())
				.redirectErrorStream(true)
				.start();
			if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
				throw new IllegalStateException("kill -" + signal + " " + this.process.pid() + " failed");
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("interrupted", ex);
		}
	}

	@Override
	public void close() {
		if (this.process.isAlive()) {
			signal("CONT");
			this.process.destroyForcibly();
		}
	}

	/**
	 * The child: {@code <state file>}; takes the lock, says so, and holds it until a line (or the end) comes in.
	 */
	public static void main(String[] args) throws IOException {
		LocalFileLock.call(Path.of(args[0]), () -> {
			System.out.println(LOCKED);
			System.out.flush();
			System.in.read();
			return null;
		});
		System.out.println("released");
	}

}
