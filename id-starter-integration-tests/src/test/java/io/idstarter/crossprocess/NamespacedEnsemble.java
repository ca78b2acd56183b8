package io.idstarter.crossprocess;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.jspecify.annotations.Nullable;

/**
 * A three-member ZooKeeper ensemble or etcd cluster whose members each run on a {@link NetworkLab} host of their own,
 * from Debian's packages, as child processes of the test JVM. The shared ensembles of
 * {@code scripts/ensure-test-services.sh} are never touched.
 *
 * <p>The test observes the members from the lab's switch (ZooKeeper's {@code srvr}, etcd's endpoint status), which no
 * fault cuts off.
 */
abstract sealed class NamespacedEnsemble implements AutoCloseable {

	private static final int MEMBERS = 3;

	protected final List<NetworkLab.Host> hosts;

	protected final Path directory;

	private final List<Process> processes = new ArrayList<>();

	private NamespacedEnsemble(List<NetworkLab.Host> hosts, String name) {
		if (hosts.size() != MEMBERS) {
			throw new IllegalArgumentException("an ensemble has " + MEMBERS + " members: " + hosts);
		}
		this.hosts = List.copyOf(hosts);
		try {
			this.directory = Files.createTempDirectory("idsp-" + name + "-");
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * Starts a ZooKeeper ensemble (tick 250 ms, a follower gives up on a silent leader after 2 s, sessions of 1 to
	 * 60 s) and waits for its quorum.
	 * @param hosts one host per member
	 * @return the ensemble
	 */
	static NamespacedEnsemble zookeeper(List<NetworkLab.Host> hosts) {
		return new ZooKeeper(hosts).startAll();
	}

	/**
	 * Starts an etcd cluster (heartbeat 100 ms, election timeout 1 s) and waits for its quorum.
	 * @param hosts one host per member
	 * @return the cluster
	 */
	static NamespacedEnsemble etcd(List<NetworkLab.Host> hosts) {
		return new Etcd(hosts).startAll();
	}

	/**
	 * Returns where a drill's child finds the ensemble, with this run's name.
	 * @param name the run's name
	 * @return the store spec
	 */
	abstract StoreSpec spec(String name);

	/**
	 * Returns the member that leads now, as seen from the switch.
	 * @return its host, or {@code null} when none does
	 */
	abstract NetworkLab.@Nullable Host leader();

	/**
	 * Returns whether a majority of the members serve, one of them as leader.
	 * @return whether the ensemble has quorum
	 */
	abstract boolean hasQuorum();

	protected abstract List<String> command(int member);

	protected void prepare(int member) {
	}

	/**
	 * Waits until every member serves and one leads.
	 * @param timeout how long at most
	 * @return the leader
	 */
	NetworkLab.Host awaitLeader(Duration timeout) {
		long deadline = System.nanoTime() + timeout.toNanos();
		for (;;) {
			NetworkLab.@Nullable Host leader = hasQuorum() ? leader() : null;
			if (leader != null) {
				return leader;
			}
			if (System.nanoTime() - deadline > 0) {
				throw new IllegalStateException(this + " has no leader after " + timeout.toSeconds() + " s; logs in "
						+ this.directory);
			}
			sleep(200);
		}
	}

	final NamespacedEnsemble startAll() {
		try {
			for (int member = 0; member < MEMBERS; member++) {
				prepare(member);
				List<String> command = new ArrayList<>(this.hosts.get(member).exec());
				command.addAll(command(member));
				Path log = this.directory.resolve("member-" + member + ".log");
				this.processes.add(new ProcessBuilder(command).redirectErrorStream(true)
					.redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
					.start());
			}
			awaitLeader(Duration.ofSeconds(90));
			return this;
		}
		catch (IOException ex) {
			close();
			throw new UncheckedIOException("cannot start " + this, ex);
		}
		catch (RuntimeException ex) {
			close();
			throw ex;
		}
	}

	@Override
	public void close() {
		for (Process process : this.processes) {
			process.destroyForcibly();
		}
		for (Process process : this.processes) {
			try {
				process.waitFor(10, TimeUnit.SECONDS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}
		if (Boolean.getBoolean("idstarter.drill.keep")) {
			return;
		}
		try (Stream<Path> files = Files.walk(this.directory)) {
			files.sorted(Comparator.reverseOrder()).forEach((path) -> path.toFile().delete());
		}
		catch (IOException ex) {
			// left in the temporary directory
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

	/**
	 * ZooKeeper members run by {@code QuorumPeerMain} from Debian's jar, clients on port 2181 of each host.
	 */
	static final class ZooKeeper extends NamespacedEnsemble {

		private static final String JARS = "/usr/share/java/zookeeper.jar" + File.pathSeparator
				+ "/usr/share/java/slf4j-simple.jar";

		ZooKeeper(List<NetworkLab.Host> hosts) {
			super(hosts, "zk");
		}

		@Override
		StoreSpec spec(String name) {
			return new StoreSpec(StoreKind.ZOOKEEPER, "zookeeper://"
					+ this.hosts.stream().map((host) -> host.address + ":2181").collect(Collectors.joining(",")),
					null, null, name);
		}

		@Override
		protected void prepare(int member) {
			Path dir = this.directory.resolve("zk-" + member);
			// syncLimit 8 ticks: a follower that hears nothing from its leader for 2 s looks for another.
			StringBuilder config = new StringBuilder("tickTime=250\ninitLimit=40\nsyncLimit=8\n")
				.append("minSessionTimeout=1000\nmaxSessionTimeout=60000\n")
				.append("dataDir=").append(dir.resolve("data")).append('\n')
				.append("clientPort=2181\nclientPortAddress=").append(this.hosts.get(member).address).append('\n')
				.append("admin.enableServer=false\n4lw.commands.whitelist=srvr\n");
			for (int peer = 0; peer < this.hosts.size(); peer++) {
				config.append("server.").append(peer + 1).append('=').append(this.hosts.get(peer).address)
					.append(":2888:3888\n");
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
			// cnxTimeout: an election connection to a member behind a drop gives up after 1 s, not 5 s.
			return List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx96m",
					"-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Dzookeeper.cnxTimeout=1000", "-cp", JARS,
					"org.apache.zookeeper.server.quorum.QuorumPeerMain",
					this.directory.resolve("zk-" + member).resolve("zoo.cfg").toString());
		}

		@Override
		NetworkLab.@Nullable Host leader() {
			for (NetworkLab.Host host : this.hosts) {
				if (mode(host).equals("leader")) {
					return host;
				}
			}
			return null;
		}

		@Override
		boolean hasQuorum() {
			int serving = 0;
			boolean leader = false;
			for (NetworkLab.Host host : this.hosts) {
				String mode = mode(host);
				serving += (mode.equals("leader") || mode.equals("follower")) ? 1 : 0;
				leader |= mode.equals("leader");
			}
			return leader && serving >= 2;
		}

		private static String mode(NetworkLab.Host host) {
			String reply = NetworkLab.observe("exec 3<>/dev/tcp/" + host.address + "/2181 && printf srvr >&3 "
					+ "&& timeout 2 cat <&3");
			if (reply == null) {
				return "";
			}
			return reply.lines().filter((line) -> line.startsWith("Mode: ")).map((line) -> line.substring(6).strip())
				.findFirst().orElse("");
		}

		@Override
		public String toString() {
			return "ZooKeeper ensemble on " + this.hosts;
		}

	}

	/**
	 * etcd members run from Debian's {@code etcd} binary, clients on port 2379 of each host, peers on 2380.
	 */
	static final class Etcd extends NamespacedEnsemble {

		Etcd(List<NetworkLab.Host> hosts) {
			super(hosts, "etcd");
		}

		@Override
		StoreSpec spec(String name) {
			return new StoreSpec(StoreKind.ETCD, "etcd://"
					+ this.hosts.stream().map((host) -> host.address + ":2379").collect(Collectors.joining(",")),
					null, null, name);
		}

		@Override
		protected List<String> command(int member) {
			String cluster = this.hosts.stream()
				.map((host) -> "m" + this.hosts.indexOf(host) + "=http://" + host.address + ":2380")
				.collect(Collectors.joining(","));
			NetworkLab.Host host = this.hosts.get(member);
			String client = "http://" + host.address + ":2379";
			String peer = "http://" + host.address + ":2380";
			return List.of("etcd", "--name", "m" + member, "--data-dir",
					this.directory.resolve("etcd-" + member).toString(), "--listen-client-urls", client,
					"--advertise-client-urls", client, "--listen-peer-urls", peer, "--initial-advertise-peer-urls",
					peer, "--initial-cluster", cluster, "--initial-cluster-token", "idsp",
					"--initial-cluster-state", "new", "--heartbeat-interval", "100", "--election-timeout", "1000");
		}

		@Override
		NetworkLab.@Nullable Host leader() {
			for (NetworkLab.Host host : this.hosts) {
				// endpoint status: "<endpoint>, <id>, <version>, <db size>, <is leader>, ..."
				String status = NetworkLab.observe("ETCDCTL_API=3 etcdctl --endpoints=" + host.address
						+ ":2379 --dial-timeout=1s --command-timeout=2s endpoint status");
				if (status != null && status.split(",").length > 4 && status.split(",")[4].strip().equals("true")) {
					return host;
				}
			}
			return null;
		}

		@Override
		boolean hasQuorum() {
			String endpoints = this.hosts.stream().map((host) -> host.address + ":2379")
				.collect(Collectors.joining(","));
			String health = NetworkLab.observe("ETCDCTL_API=3 etcdctl --endpoints=" + endpoints
					+ " --dial-timeout=1s --command-timeout=2s endpoint health 2>&1; true");
			return health != null && health.lines().filter((line) -> line.contains("is healthy")).count() >= 2;
		}

		@Override
		public String toString() {
			return "etcd cluster on " + this.hosts;
		}

	}

}
