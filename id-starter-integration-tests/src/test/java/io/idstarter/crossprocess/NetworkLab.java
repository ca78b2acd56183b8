package io.idstarter.crossprocess;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Assumptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Test hosts on this machine: each a network namespace of its own with one veth link to a bridge in a further
 * namespace (the switch), addresses in {@value #SUBNET}.0/24 (RFC 2544's benchmarking range), and an nft table
 * through which the drills drop packets. Nothing is added to the machine's own network namespace: its interfaces,
 * routes and rules stay as they are, and no packet of a test host reaches it or the shared servers.
 *
 * <p>Faults are the kernel's: a link set down, packets dropped between two hosts both ways or one way, and random
 * loss ({@code numgen random}). {@link #heal()} undoes all of them.
 *
 * <p>Namespaces are named {@value #PREFIX}{@code <host>}. One lab runs at a time on a machine (a file lock in the
 * temporary directory); when it starts, namespaces of that prefix left by a killed run are removed, with the
 * processes still running in them. Needs root, {@code ip} (iproute2) and {@code nft} (nftables), which
 * {@code scripts/ensure-test-services.sh} installs; without them the lab fails with a message saying so, unless
 * {@value #OPT_OUT} is {@code skip}, which skips the drills (for machines where the tests do not run as root).
 */
final class NetworkLab implements AutoCloseable {

	private static final Logger logger = LoggerFactory.getLogger(NetworkLab.class);

	/** Environment variable that skips the drills instead of failing them when the lab cannot be built. */
	static final String OPT_OUT = "IDSTARTER_PARTITION_DRILLS";

	/** Prefix of every namespace of a lab. */
	static final String PREFIX = "idsp-";

	/** The first three octets of the hosts' addresses. */
	static final String SUBNET = "198.18.21";

	/** The switch's own address on the bridge, from where the test observes the hosts (never partitioned). */
	static final String OBSERVER_ADDRESS = SUBNET + ".254";

	private static final String SWITCH = PREFIX + "sw";

	/** The hosts' nft table: two address sets a drop rule each reads, and room for loss rules. */
	private static final String TABLE = """
			table inet drill {
			  set blocked_in { type ipv4_addr; }
			  set blocked_out { type ipv4_addr; }
			  chain input { type filter hook input priority 0; policy accept; ip saddr @blocked_in drop; }
			  chain output { type filter hook output priority 0; policy accept; ip daddr @blocked_out drop; }
			}
			""";

	private final FileChannel lockFile;

	private final FileLock lock;

	/** Hosts by name, in the order they were added. */
	private final Map<String, Host> hosts = new LinkedHashMap<>();

	private NetworkLab(FileChannel lockFile, FileLock lock) {
		this.lockFile = lockFile;
		this.lock = lock;
	}

	/**
	 * Checks that this machine can build the lab, takes the machine's lab lock, removes what a killed run left, and
	 * builds the switch.
	 * @return the lab, without hosts
	 */
	static NetworkLab create() {
		String problem = missingPrerequisite();
		if (problem != null) {
			throw unavailable(problem);
		}
		NetworkLab lab = lock();
		try {
			lab.removeStale();
			try {
				run("ip", "netns", "add", SWITCH);
			}
			catch (IllegalStateException ex) {
				throw unavailable("The partition drills cannot create a network namespace: " + ex.getMessage());
			}
			inSwitch("ip", "link", "add", "br0", "type", "bridge");
			inSwitch("ip", "link", "set", "br0", "up");
			inSwitch("ip", "addr", "add", OBSERVER_ADDRESS + "/24", "dev", "br0");
			return lab;
		}
		catch (RuntimeException ex) {
			lab.close();
			throw ex;
		}
	}

	/**
	 * Skips the drills if {@value #OPT_OUT} says so, else returns the failure that says what is missing.
	 */
	private static IllegalStateException unavailable(String problem) {
		if ("skip".equalsIgnoreCase(System.getenv(OPT_OUT))) {
			Assumptions.abort(problem + "; skipped because " + OPT_OUT + "=skip");
		}
		return new IllegalStateException(problem + ". Run the tests as root after scripts/ensure-test-services.sh "
				+ "(which installs iproute2 and nftables), or set " + OPT_OUT + "=skip to skip the partition drills");
	}

	private static @Nullable String missingPrerequisite() {
		String uid = run("id", "-u").strip();
		if (!uid.equals("0")) {
			return "The partition drills create network namespaces and need root (this JVM runs as uid " + uid + ")";
		}
		for (String tool : List.of("ip", "nft")) {
			if (which(tool) == null) {
				return "The partition drills need '" + tool + "' (Debian package "
						+ (tool.equals("ip") ? "iproute2" : "nftables") + "), which is not on the PATH";
			}
		}
		try {
			run("ip", "netns", "list");
		}
		catch (IllegalStateException ex) {
			return "The partition drills cannot list network namespaces: " + ex.getMessage();
		}
		return null;
	}

	private static @Nullable String which(String tool) {
		String path = System.getenv().getOrDefault("PATH", "") + File.pathSeparator + "/usr/sbin:/sbin";
		return Stream.of(path.split(File.pathSeparator)).map((dir) -> Path.of(dir, tool)).filter(Files::isExecutable)
			.map(Path::toString).findFirst().orElse(null);
	}

	private static NetworkLab lock() {
		Path path = Path.of(System.getProperty("java.io.tmpdir"), "idstarter-partition-drills.lock");
		try {
			FileChannel channel = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
			long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(10);
			for (;;) {
				FileLock lock = channel.tryLock();
				if (lock != null) {
					return new NetworkLab(channel, lock);
				}
				if (System.nanoTime() - deadline > 0) {
					channel.close();
					throw new IllegalStateException("another partition drill has held " + path + " for 10 minutes");
				}
				sleep(500);
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException("cannot lock " + path, ex);
		}
	}

	/**
	 * Removes the namespaces of a run that was killed, and the processes it left in them: this run holds the lock,
	 * so no other run owns them.
	 */
	private void removeStale() {
		for (String namespace : namespaces()) {
			logger.warn("Removing network namespace {} left by an earlier run", namespace);
			removeNamespace(namespace);
		}
	}

	private static List<String> namespaces() {
		List<String> namespaces = new ArrayList<>();
		for (String line : run("ip", "netns", "list").split("\n")) {
			String name = line.strip().split(" ")[0];
			if (name.startsWith(PREFIX)) {
				namespaces.add(name);
			}
		}
		return namespaces;
	}

	private static void removeNamespace(String namespace) {
		for (String pid : run("ip", "netns", "pids", namespace).split("\\s+")) {
			if (!pid.isBlank()) {
				ProcessHandle.of(Long.parseLong(pid.strip())).ifPresent(ProcessHandle::destroyForcibly);
			}
		}
		run("ip", "netns", "delete", namespace);
	}

	/**
	 * Adds a host: a namespace with loopback up, a veth link to the switch, an address, and the drill's nft table.
	 * @param name a short name (up to 10 of [a-z0-9])
	 * @param octet the last octet of its address, 1 to 253
	 * @return the host
	 */
	Host addHost(String name, int octet) {
		if (!name.matches("[a-z0-9]{1,10}") || octet < 1 || octet > 253) {
			throw new IllegalArgumentException("host name of 1 to 10 [a-z0-9] and octet 1-253: " + name + " " + octet);
		}
		Host host = new Host(name, PREFIX + name, SUBNET + "." + octet);
		run("ip", "netns", "add", host.namespace);
		this.hosts.put(name, host);
		inSwitch("ip", "link", "add", host.namespace, "type", "veth", "peer", "name", "eth0", "netns", host.namespace);
		inSwitch("ip", "link", "set", host.namespace, "master", "br0", "up");
		host.run("ip", "link", "set", "lo", "up");
		host.run("ip", "addr", "add", host.address + "/24", "dev", "eth0");
		host.run("ip", "link", "set", "eth0", "up");
		host.nft(TABLE);
		return host;
	}

	/**
	 * Drops every packet between two groups of hosts, both ways.
	 * @param side one side
	 * @param other the other side
	 */
	void partition(Collection<Host> side, Collection<Host> other) {
		for (Host host : side) {
			for (Host peer : other) {
				host.blockIn(peer);
				host.blockOut(peer);
				peer.blockIn(host);
				peer.blockOut(host);
			}
		}
	}

	/**
	 * Drops the packets that hosts send to one host; its own packets still arrive.
	 * @param senders the hosts whose packets are lost
	 * @param receiver the host that no longer hears them
	 */
	void dropOneWay(Collection<Host> senders, Host receiver) {
		for (Host sender : senders) {
			receiver.blockIn(sender);
		}
	}

	/**
	 * Drops a share of a host's packets, either way, at random.
	 * @param host the host
	 * @param percent 1 to 99 of every 100 packets in, and as many out
	 */
	void loss(Host host, int percent) {
		for (String chain : List.of("input", "output")) {
			host.run("nft", "insert", "rule", "inet", "drill", chain, "numgen", "random", "mod", "100", "<",
					Integer.toString(percent), "drop");
		}
	}

	/**
	 * Sets a host's link down: it reaches no one and no one reaches it.
	 * @param host the host
	 */
	void linkDown(Host host) {
		host.run("ip", "link", "set", "eth0", "down");
	}

	/**
	 * Undoes every fault: links up, no drops, no loss.
	 */
	void heal() {
		for (Host host : this.hosts.values()) {
			host.run("ip", "link", "set", "eth0", "up");
			host.run("nft", "delete", "table", "inet", "drill");
			host.nft(TABLE);
		}
	}

	/**
	 * Runs a shell script in the switch's namespace, from where every host answers whatever the faults between
	 * hosts.
	 * @param script a {@code bash} script
	 * @return its output, or {@code null} if it failed or ran longer than 5 s
	 */
	static @Nullable String observe(String script) {
		try {
			return run(List.of("ip", "netns", "exec", SWITCH, "timeout", "5", "bash", "-c", script));
		}
		catch (IllegalStateException ex) {
			return null;
		}
	}

	private static void inSwitch(String... command) {
		List<String> full = new ArrayList<>(List.of("ip", "netns", "exec", SWITCH));
		full.addAll(List.of(command));
		run(full);
	}

	/**
	 * Kills what still runs in the hosts, removes them and the switch, and lets the next run have the lab.
	 */
	@Override
	public void close() {
		try {
			for (String namespace : namespaces()) {
				try {
					removeNamespace(namespace);
				}
				catch (RuntimeException ex) {
					logger.warn("Could not remove network namespace {}: {}", namespace, ex.getMessage());
				}
			}
		}
		finally {
			try {
				this.lock.release();
				this.lockFile.close();
			}
			catch (IOException ex) {
				logger.warn("Could not release the lab lock: {}", ex.toString());
			}
		}
	}

	private static String run(String... command) {
		return run(List.of(command));
	}

	private static String run(List<String> command) {
		try {
			Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
			String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
			if (!process.waitFor(30, TimeUnit.SECONDS)) {
				process.destroyForcibly();
				throw new IllegalStateException(String.join(" ", command) + " did not finish within 30 s");
			}
			if (process.exitValue() != 0) {
				throw new IllegalStateException(String.join(" ", command) + " failed (" + process.exitValue() + "): "
						+ output.strip());
			}
			return output;
		}
		catch (IOException ex) {
			throw new IllegalStateException("cannot run " + String.join(" ", command) + ": " + ex.getMessage(), ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("interrupted", ex);
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

	/**
	 * One test host: a namespace and its address.
	 */
	static final class Host {

		final String name;

		final String namespace;

		final String address;

		private Host(String name, String namespace, String address) {
			this.name = name;
			this.namespace = namespace;
			this.address = address;
		}

		/**
		 * Returns the prefix that runs a command on this host.
		 * @return {@code ip netns exec <namespace>}
		 */
		List<String> exec() {
			return List.of("ip", "netns", "exec", this.namespace);
		}

		private void run(String... command) {
			List<String> full = new ArrayList<>(exec());
			full.addAll(List.of(command));
			NetworkLab.run(full);
		}

		private void nft(String script) {
			try {
				Path file = Files.createTempFile("idsp-nft-", ".conf");
				try {
					Files.writeString(file, script);
					run("nft", "-f", file.toString());
				}
				finally {
					Files.deleteIfExists(file);
				}
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
		}

		private void blockIn(Host peer) {
			run("nft", "add", "element", "inet", "drill", "blocked_in", "{ " + peer.address + " }");
		}

		private void blockOut(Host peer) {
			run("nft", "add", "element", "inet", "drill", "blocked_out", "{ " + peer.address + " }");
		}

		@Override
		public String toString() {
			return this.name + " (" + this.address + ")";
		}

	}

}
