package io.idstarter.testsupport;

import java.io.BufferedInputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.jspecify.annotations.Nullable;

/**
 * A {@code redis-server} of a test's own, on a port the test chooses, that the test may kill, restart, pause or
 * promote: for drills that must lose a server's data without touching the Redis other builds share. The binary is
 * Debian's {@code redis-server} ({@code scripts/ensure-test-services.sh} installs it); missing, the test fails.
 *
 * <p>Commands go over a minimal RESP client of its own ({@link #command(String...)}), so the test needs neither
 * {@code redis-cli} nor a Redis client library to steer the server.
 */
public final class RedisServerProcess implements AutoCloseable {

	private final int port;

	private final Path directory;

	private final List<String> arguments;

	/** The running server; replaced by {@link #restart()}. */
	private volatile Process process;

	private RedisServerProcess(int port, Path directory, List<String> arguments) {
		this.port = port;
		this.directory = directory;
		this.arguments = List.copyOf(arguments);
		this.process = launch();
	}

	/**
	 * Starts a server that keeps nothing on disk unless the arguments say otherwise.
	 * @param port a free loopback port
	 * @param directory its working directory (append-only file, snapshots), created if missing
	 * @param arguments further {@code redis-server} arguments, e.g. {@code --appendonly yes}; later ones win
	 * @return the running server, answering {@code PING}
	 */
	public static RedisServerProcess start(int port, Path directory, String... arguments) {
		if (answers(port)) {
			throw new IllegalStateException("port " + port + " is already taken; a test's own Redis needs a free port");
		}
		try {
			Files.createDirectories(directory);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		return new RedisServerProcess(port, directory, List.of(arguments));
	}

	public int port() {
		return this.port;
	}

	public long pid() {
		return this.process.pid();
	}

	/**
	 * Kills the server with SIGKILL (no shutdown save) and starts it again with the same arguments and directory:
	 * it comes back with whatever its persistence kept.
	 */
	public void restart() {
		kill();
		this.process = launch();
	}

	/**
	 * Kills the server with SIGKILL and waits until it is gone.
	 */
	public void kill() {
		this.process.destroyForcibly();
		try {
			if (!this.process.waitFor(10, TimeUnit.SECONDS)) {
				throw new IllegalStateException("redis-server on port " + this.port + " survived SIGKILL for 10 s");
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("interrupted", ex);
		}
		for (int i = 0; i < 100 && answers(this.port); i++) {
			sleep(50);
		}
	}

	/**
	 * Stops the server's process (SIGSTOP): it accepts no command and acknowledges no replication until
	 * {@link #resume()}.
	 */
	public void pause() {
		signal("STOP");
	}

	/**
	 * Lets a paused server run again (SIGCONT).
	 */
	public void resume() {
		signal("CONT");
	}

	/**
	 * Sends a command and returns its reply as text: a status or bulk string as is, an integer in decimal, an array
	 * as its elements joined by newlines, nil as {@code null}.
	 * @param args the command and its arguments
	 * @return the reply
	 * @throws IllegalStateException if the server answers with an error
	 */
	public @Nullable String command(String... args) {
		try (Socket socket = new Socket()) {
			socket.connect(new InetSocketAddress("127.0.0.1", this.port), 2000);
			socket.setSoTimeout(30_000);
			OutputStream out = socket.getOutputStream();
			StringBuilder request = new StringBuilder("*" + args.length + "\r\n");
			for (String arg : args) {
				byte[] bytes = arg.getBytes(StandardCharsets.UTF_8);
				request.append('$').append(bytes.length).append("\r\n").append(arg).append("\r\n");
			}
			out.write(request.toString().getBytes(StandardCharsets.UTF_8));
			out.flush();
			return read(new BufferedInputStream(socket.getInputStream()));
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Redis on port " + this.port + " did not answer " + String.join(" ", args),
					ex);
		}
	}

	/**
	 * Reads one field of {@code INFO}.
	 * @param section the section, e.g. {@code replication}
	 * @param field the field, e.g. {@code master_link_status}
	 * @return its value, or null if absent
	 */
	public @Nullable String info(String section, String field) {
		String info = command("INFO", section);
		if (info == null) {
			return null;
		}
		for (String line : info.split("\r?\n")) {
			if (line.startsWith(field + ":")) {
				return line.substring(field.length() + 1).strip();
			}
		}
		return null;
	}

	@Override
	public void close() {
		if (this.process.isAlive()) {
			resume();
			kill();
		}
	}

	private Process launch() {
		List<String> command = new ArrayList<>();
		command.add(binary());
		command.add("--port");
		command.add(Integer.toString(this.port));
		command.add("--bind");
		command.add("127.0.0.1");
		command.add("--dir");
		command.add(this.directory.toString());
		command.add("--daemonize");
		command.add("no");
		command.add("--save");
		command.add("");
		command.add("--appendonly");
		command.add("no");
		command.addAll(this.arguments);
		try {
			Process started = new ProcessBuilder(command).redirectErrorStream(true)
				.redirectOutput(ProcessBuilder.Redirect.appendTo(this.directory.resolve("redis.log").toFile()))
				.start();
			long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
			while (!answersPing()) {
				if (!started.isAlive() || System.nanoTime() - deadline > 0) {
					started.destroyForcibly();
					throw new IllegalStateException("redis-server did not start on port " + this.port + ": "
							+ String.join(" ", command) + "; see " + this.directory.resolve("redis.log"));
				}
				sleep(20);
			}
			return started;
		}
		catch (IOException ex) {
			throw new UncheckedIOException("cannot run " + command.get(0), ex);
		}
	}

	private boolean answersPing() {
		try {
			return "PONG".equals(command("PING"));
		}
		catch (UncheckedIOException | IllegalStateException ex) {
			// Not up yet, or still loading its data (LOADING error).
			return false;
		}
	}

	private void signal(String name) {
		try {
			Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(pid())).inheritIO().start();
			if (kill.waitFor() != 0) {
				throw new IllegalStateException("kill -" + name + " " + pid() + " failed");
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

	private static String binary() {
		for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin").split(File.pathSeparator)) {
			Path candidate = Path.of(dir, "redis-server");
			if (Files.isExecutable(candidate)) {
				return candidate.toString();
			}
		}
		if (Files.isExecutable(Path.of("/usr/bin/redis-server"))) {
			return "/usr/bin/redis-server";
		}
		throw new IllegalStateException("redis-server is not installed; this test starts Redis servers of its own. "
				+ "Run scripts/ensure-test-services.sh (it installs Debian's redis-server) or install it");
	}

	private static boolean answers(int port) {
		try (Socket socket = new Socket()) {
			socket.connect(new InetSocketAddress("127.0.0.1", port), 200);
			return true;
		}
		catch (IOException ex) {
			return false;
		}
	}

	private static @Nullable String read(InputStream in) throws IOException {
		int type = in.read();
		String line = line(in);
		switch (type) {
			case '+', ':' -> {
				return line;
			}
			case '-' -> throw new IllegalStateException("Redis answered: " + line);
			case '$' -> {
				int length = Integer.parseInt(line);
				if (length < 0) {
					return null;
				}
				byte[] bytes = in.readNBytes(length + 2);
				return new String(bytes, 0, length, StandardCharsets.UTF_8);
			}
			case '*' -> {
				int count = Integer.parseInt(line);
				if (count < 0) {
					return null;
				}
				List<String> items = new ArrayList<>();
				for (int i = 0; i < count; i++) {
					items.add(String.valueOf(read(in)));
				}
				return String.join("\n", items);
			}
			default -> throw new IOException("unexpected reply type '" + (char) type + "'");
		}
	}

	private static String line(InputStream in) throws IOException {
		StringBuilder line = new StringBuilder();
		for (int c = in.read(); c != '\r'; c = in.read()) {
			if (c == -1) {
				throw new IOException("connection closed");
			}
			line.append((char) c);
		}
		in.read();
		return line.toString();
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

}
