package io.idstarter.testsupport;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.jspecify.annotations.Nullable;

/**
 * A three-member ZooKeeper ensemble or etcd cluster of its own, started from Debian's packages as child processes of
 * the test JVM, for drills that kill members: the shared ensembles of {@code scripts/ensure-test-services.sh} are
 * never touched. Members are killed with SIGKILL and started again on the same data directory.
 *
 * <p>Ports: ZooKeeper clients on {@code basePort + 1..3}, peers on {@code basePort + 101..103} and
 * {@code basePort + 201..203}; etcd clients on {@code basePort + 1..3}, peers on {@code basePort + 101..103}. Use a
 * base port in 22000-22999.
 */
public abstract sealed class LocalEnsemble implements AutoCloseable {

	/** Debian's ZooKeeper server jar. */
	private static final Path ZOOKEEPER_JAR = Path.of("/usr/share/java/zookeeper.jar");

	/** Logging binding for it: Debian's class path has none. */
	private static final Path SLF4J_SIMPLE_JAR = Path.of("/usr/share/java/slf4j-simple.jar");

	private static final int MEMBERS = 3;

	protected final int basePort;

	protected final Path directory;

	/** Member processes by index 0..2; {@code null} while a member is down. */
	private final @Nullable Process[] processes = new Process[MEMBERS];

	private LocalEnsemble(int basePort, String name) {
		this.basePort = basePort;
		try {
			this.directory = Files.createTempDirectory("idstarter-" + name + "-" + basePort + "-");
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * Starts a three-member ZooKeeper ensemble (tick 500 ms, sessions of 1 to 60 s).
	 * @param basePort the base port, in 22000-22999
	 * @return the ensemble, with quorum
	 */
	public static LocalEnsemble zookeeper(int basePort) {
		if (!Files.isRegularFile(ZOOKEEPER_JAR) || !Files.isRegularFile(SLF4J_SIMPLE_JAR)) {
			throw new IllegalStateException("ZooKeeper's server (" + ZOOKEEPER_JAR + ", " + SLF4J_SIMPLE_JAR
					+ ") is required by this test and was not found: run scripts/ensure-test-services.sh, which "
					+ "installs Debian's zookeeper package");
		}
		return new ZooKeeper(basePort).startAll();
	}

	/**
	 * Starts a three-member etcd cluster (heartbeat 100 ms, election timeout 1 s).
	 * @param basePort the base port, in 22000-22999
	 * @return the cluster, with quorum
	 */
	public static LocalEnsemble etcd(int basePort) {
		if (!Stream.of(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator))
			.anyMatch((dir) -> Files.isExecutable(Path.of(dir, "etcd")))) {
			throw new IllegalStateException("etcd is required by this test and was not found on the PATH: run "
					+ "scripts/ensure-test-services.sh, which installs Debian's etcd-server package");
		}
		return new Etcd(basePort).startAll();
	}

	/**
	 * Returns the members' client addresses, as a client takes them.
	 * @return a ZooKeeper connect string or comma-separated etcd endpoints
	 */
	public abstract String connectString();

	/**
	 * Returns whether a majority of members serve clients with a leader among them.
	 * @return whether the ensemble has quorum
	 */
	public abstract boolean hasQuorum();

	protected abstract List<String> command(int member);

	/**
	 * Kills a member with SIGKILL.
	 * @param member 0, 1 or 2
	 */
	public void kill(int member) {
		Process process = this.processes[member];
		if (process != null) {
			process.destroyForcibly();
			try {
				process.waitFor(10, TimeUnit.SECONDS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			this.processes[member] = null;
		}
	}

	/**
	 * Starts a member that is down, on its data directory.
	 * @param member 0, 1 or 2
	 */
	public void start(int member) {
		if (this.processes[member] != null) {
			return;
		}
		try {
			Path log = this.directory.resolve("member-" + member + ".log");
			this.processes[member] = new ProcessBuilder(command(member)).redirectErrorStream(true)
				.redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
				.start();
		}
		catch (IOException ex) {
			throw new UncheckedIOException("cannot start member " + member + " of " + this, ex);
		}
	}

	/**
	 * Waits until the ensemble has quorum again.
	 * @param timeout how long to wait
	 */
	public void awaitQuorum(Duration timeout) {
		long deadline = System.nanoTime() + timeout.toNanos();
		while (!hasQuorum()) {
			if (System.nanoTime() - deadline > 0) {
				throw new IllegalStateException(this + " has no quorum after " + timeout.toSeconds() + " s; logs in "
						+ this.directory);
			}
			sleep(200);
		}
	}

	final LocalEnsemble startAll() {
		try {
			for (int member = 0; member < MEMBERS; member++) {
				prepare(member);
				start(member);
			}
			awaitQuorum(Duration.ofSeconds(60));
			return this;
		}
		catch (RuntimeException ex) {
			close();
			throw ex;
		}
	}

	protected void prepare(int member) {
	}

	@Override
	public void close() {
		for (int member = 0; member < MEMBERS; member++) {
			kill(member);
		}
		try (Stream<Path> files = Files.walk(this.directory)) {
			files.sorted(Comparator.reverseOrder()).forEach((path) -> path.toFile().delete());
		}
		catch (IOException ex) {
			// left in the temporary directory
		}
	}

	protected static boolean answers(int port) {
		try (Socket socket = new Socket()) {
			socket.connect(new InetSocketAddress("127.0.0.1", port), 300);
			return true;
		}
		catch (IOException ex) {
			return false;
		}
	}

	protected static void sleep(long millis) {
		try {
			Thread.sleep(millis);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("interrupted", ex);
		}
	}

	private static String java() {
		return Path.of(System.getProperty("java.home"), "bin", "java").toString();
	}

	/**
	 * ZooKeeper members run by {@code QuorumPeerMain} from Debian's jar.
	 */
	static final class ZooKeeper extends LocalEnsemble {

		ZooKeeper(int basePort) {
			super(basePort, "zk");
		}

		@Override
		public String connectString() {
			List<String> members = new ArrayList<>();
			for (int member = 0; member < MEMBERS; member++) {
				members.add("127.0.0.1:" + (this.basePort + 1 + member));
			}
			return String.join(",", members);
		}

		@Override
		protected void prepare(int member) {
			Path dir = this.directory.resolve("zk-" + member);
			StringBuilder config = new StringBuilder().append("tickTime=500\ninitLimit=20\nsyncLimit=10\n")
				.append("minSessionTimeout=1000\nmaxSessionTimeout=60000\n")
				.append("dataDir=").append(dir.resolve("data")).append('\n')
				.append("clientPort=").append(this.basePort + 1 + member).append('\n')
				.append("clientPortAddress=127.0.0.1\nadmin.enableServer=false\n4lw.commands.whitelist=srvr\n");
			for (int peer = 0; peer < MEMBERS; peer++) {
				config.append("server.").append(peer + 1).append("=127.0.0.1:").append(this.basePort + 101 + peer)
					.append(':').append(this.basePort + 201 + peer).append('\n');
			}
			try {
				Files.createDirectories(dir.resolve("data"));
				Files.writeString(dir.resolve("data").resolve("myid"), Integer.toString(member + 1));
				Files.writeString(dir.resolve("zoo.cfg"), config);
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
		}

		@Override
		protected List<String> command(int member) {
			return List.of(java(), "-Xmx96m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-cp",
					ZOOKEEPER_JAR + File.pathSeparator + SLF4J_SIMPLE_JAR,
					"org.apache.zookeeper.server.quorum.QuorumPeerMain",
					this.directory.resolve("zk-" + member).resolve("zoo.cfg").toString());
		}

		@Override
		public boolean hasQuorum() {
			int serving = 0;
			boolean leader = false;
			for (int member = 0; member < MEMBERS; member++) {
				String mode = mode(this.basePort + 1 + member);
				if (mode.equals("leader") || mode.equals("follower")) {
					serving++;
					leader |= mode.equals("leader");
				}
			}
			return leader && serving >= 2;
		}

		private static String mode(int port) {
			try (Socket socket = new Socket()) {
				socket.connect(new InetSocketAddress("127.0.0.1", port), 300);
				socket.setSoTimeout(1000);
				socket.getOutputStream().write("srvr".getBytes());
				String reply = new String(socket.getInputStream().readAllBytes());
				return reply.lines().filter((line) -> line.startsWith("Mode: ")).map((line) -> line.substring(6))
					.findFirst().orElse("");
			}
			catch (IOException ex) {
				return "";
			}
		}

		@Override
		public String toString() {
			return "ZooKeeper ensemble " + connectString();
		}

	}

	/**
	 * etcd members run from Debian's {@code etcd} binary.
	 */
	static final class Etcd extends LocalEnsemble {

		Etcd(int basePort) {
			super(basePort, "etcd");
		}

		@Override
		public String connectString() {
			List<String> members = new ArrayList<>();
			for (int member = 0; member < MEMBERS; member++) {
				members.add("http://127.0.0.1:" + (this.basePort + 1 + member));
			}
			return String.join(",", members);
		}

		@Override
		protected List<String> command(int member) {
			StringBuilder cluster = new StringBuilder();
			for (int peer = 0; peer < MEMBERS; peer++) {
				cluster.append((peer > 0) ? "," : "").append("m").append(peer).append("=http://127.0.0.1:")
					.append(this.basePort + 101 + peer);
			}
			String client = "http://127.0.0.1:" + (this.basePort + 1 + member);
			String peerUrl = "http://127.0.0.1:" + (this.basePort + 101 + member);
			return List.of("etcd", "--name", "m" + member, "--data-dir",
					this.directory.resolve("etcd-" + member).toString(), "--listen-client-urls", client,
					"--advertise-client-urls", client, "--listen-peer-urls", peerUrl, "--initial-advertise-peer-urls",
					peerUrl, "--initial-cluster", cluster.toString(), "--initial-cluster-token",
					"idstarter-" + this.basePort, "--initial-cluster-state", "new", "--heartbeat-interval", "100",
					"--election-timeout", "1000");
		}

		@Override
		public boolean hasQuorum() {
			int healthy = 0;
			for (int member = 0; member < MEMBERS; member++) {
				if (healthy(this.basePort + 1 + member)) {
					healthy++;
				}
			}
			return healthy >= 2;
		}

		private static boolean healthy(int port) {
			try (Socket socket = new Socket()) {
				socket.connect(new InetSocketAddress("127.0.0.1", port), 300);
				socket.setSoTimeout(2000);
				socket.getOutputStream()
					.write(("GET /health HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n").getBytes());
				String reply = new String(socket.getInputStream().readAllBytes());
				return reply.contains("\"health\":\"true\"");
			}
			catch (IOException ex) {
				return false;
			}
		}

		@Override
		public String toString() {
			return "etcd cluster " + connectString();
		}

	}

}
