package io.idstarter.local;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * Another process on this host, a child JVM, holding the {@link LocalFileLock} of a state file until it is closed:
 * what a frozen or stuck instance sharing the file looks like to this one.
 */
public final class OtherProcessLock implements AutoCloseable {

	private final Process process;

	private OtherProcessLock(Process process) {
		this.process = process;
	}

	/**
	 * Starts a child JVM and returns once it holds the lock of {@code file}.
	 * @param file the state file
	 * @return the child, which lets go when closed
	 */
	public static OtherProcessLock hold(Path file) throws IOException {
		Process process = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
				System.getProperty("java.class.path"), Child.class.getName(), file.toString())
			.redirectErrorStream(true)
			.start();
		OtherProcessLock holder = new OtherProcessLock(process);
		BufferedReader output = new BufferedReader(
				new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
		StringBuilder seen = new StringBuilder();
		for (String line = output.readLine(); line != null; line = output.readLine()) {
			if (line.equals(Child.LOCKED)) {
				return holder;
			}
			seen.append(line).append('\n');
		}
		holder.close();
		throw new IllegalStateException("child did not take the lock of " + file + ":\n" + seen);
	}

	/**
	 * Returns the child's process ID.
	 * @return the process ID
	 */
	public long pid() {
		return this.process.pid();
	}

	/**
	 * Ends the child; the OS lets its lock go.
	 */
	@Override
	public void close() {
		this.process.destroyForcibly();
		try {
			this.process.waitFor(30, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	/**
	 * The child: {@code <state file>}; takes the lock, says so, and holds it until it is killed.
	 */
	static final class Child {

		static final String LOCKED = "locked";

		public static void main(String[] args) throws Exception {
			LocalFileLock.call(Path.of(args[0]), () -> {
				System.out.println(LOCKED);
				System.out.flush();
				try {
					Thread.sleep(Long.MAX_VALUE);
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
				return null;
			});
		}

	}

}
