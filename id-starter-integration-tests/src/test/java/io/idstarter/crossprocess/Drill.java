package io.idstarter.crossprocess;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One run of the cross-process drill: launches {@link IdDrillProcess} children that share one store, starts them
 * together, and reads back what they issued.
 *
 * <p>Children run on this JVM's {@code java} with its class path (surefire and failsafe set {@code java.class.path}
 * to the test class path), with a small heap. Their files go to a temporary directory that {@link #close()} deletes
 * unless the system property {@code idstarter.drill.keep} is {@code true}.
 */
final class Drill implements AutoCloseable {

	private static final Logger logger = LoggerFactory.getLogger(Drill.class);

	private final StoreSpec spec;

	private final DrillMode mode;

	private final Settings settings;

	private final Path directory;

	private final List<DrillChild> children = new ArrayList<>();

	/** The node each child stands for, by label. */
	private final Map<String, String> nodes = new LinkedHashMap<>();

	Drill(StoreSpec spec, DrillMode mode, Settings settings) {
		this.spec = spec;
		this.mode = mode;
		this.settings = settings;
		try {
			this.directory = Files.createTempDirectory("id-drill-" + spec.name() + "-");
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * Launches a child that issues {@link Settings#count()} IDs per thread.
	 * @param label its name, unique in the run
	 * @param node the node it stands for: restarts of a node share its worker-ID cache file
	 * @return the child
	 */
	DrillChild launch(String label, String node) {
		return launch(label, node, this.settings.count(), this.settings.rate());
	}

	/**
	 * Launches a child.
	 * @param label its name, unique in the run
	 * @param node the node it stands for: restarts of a node share its worker-ID cache file
	 * @param count IDs per thread
	 * @param rate IDs per second per thread, 0 for as fast as it can
	 * @param extraArgs further {@code --name=value} options of {@link IdDrillProcess}
	 * @return the child
	 */
	DrillChild launch(String label, String node, long count, long rate, String... extraArgs) {
		return launchOn(List.of(), label, node, count, rate, extraArgs);
	}

	/**
	 * Launches a child through a command that runs it elsewhere, such as {@code ip netns exec <namespace>}; the
	 * command must exec the child, so that its process is the child's.
	 * @param prefix the command and its arguments, before the child's {@code java}
	 * @param label its name, unique in the run
	 * @param node the node it stands for: restarts of a node share its worker-ID cache file
	 * @param count IDs per thread
	 * @param rate IDs per second per thread, 0 for as fast as it can
	 * @param extraArgs further {@code --name=value} options of {@link IdDrillProcess}
	 * @return the child
	 */
	DrillChild launchOn(List<String> prefix, String label, String node, long count, long rate, String... extraArgs) {
		List<String> command = new ArrayList<>(prefix);
		command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
		command.add("-Xmx128m");
		command.add("-XX:+UseSerialGC");
		command.add("-XX:TieredStopAtLevel=1");
		command.add("-Dorg.slf4j.simpleLogger.showDateTime=true");
		command.add("-Dorg.slf4j.simpleLogger.dateTimeFormat=HH:mm:ss.SSS");
		command.add("-cp");
		command.add(System.getProperty("java.class.path"));
		command.add(IdDrillProcess.class.getName());
		command.addAll(this.spec.toArgs());
		command.add("--mode=" + this.mode);
		command.add("--label=" + label);
		command.add("--out=" + this.directory);
		command.add("--threads=" + this.settings.threads());
		command.add("--count=" + count);
		command.add("--rate=" + rate);
		command.add("--go=" + goFile());
		command.add("--finish=" + this.directory.resolve("finish"));
		command.add("--key=" + this.settings.key());
		command.add("--max-step=" + this.settings.maxStep());
		command.add("--worker-bits=" + this.settings.workerBits());
		command.add("--ttl-ms=" + this.settings.ttl().toMillis());
		command.add("--heartbeat-ms=" + this.settings.heartbeat().toMillis());
		command.add("--margin-ms=" + this.settings.margin().toMillis());
		command.add("--cache=" + cacheFile(node));
		command.add("--startup-timeout-ms=" + this.settings.startupTimeout().toMillis());
		command.add("--stop=" + this.directory.resolve("stop"));
		command.addAll(List.of(extraArgs));
		Path log = this.directory.resolve(label + ".log");
		try {
			Process process = new ProcessBuilder(command).redirectErrorStream(true)
				.redirectOutput(log.toFile())
				.start();
			DrillChild child = new DrillChild(label, this.directory, process);
			this.children.add(child);
			this.nodes.put(label, node);
			logger.info("Launched drill process {} (pid {}) on {}", label, process.pid(), this.spec);
			return child;
		}
		catch (IOException ex) {
			throw new UncheckedIOException("cannot launch " + command.get(0), ex);
		}
	}

	/**
	 * Returns the node a child stands for.
	 * @param label the child
	 * @return the node given at launch
	 */
	String nodeOf(String label) {
		String node = this.nodes.get(label);
		if (node == null) {
			throw new IllegalArgumentException("no child '" + label + "' in this drill");
		}
		return node;
	}

	/**
	 * Returns the worker-ID cache file of a node.
	 * @param node the node
	 * @return the file
	 */
	Path cacheFile(String node) {
		return this.directory.resolve(node + ".worker-id");
	}

	/**
	 * Returns the file whose existence lets children issue ({@link #go()}).
	 * @return the file, which may not exist yet
	 */
	Path goFile() {
		return this.directory.resolve("go");
	}

	/**
	 * Lets every child waiting for the start issue IDs (and every child launched later start at once).
	 * @return when, wall-clock ms
	 */
	long go() {
		createFile("go");
		return System.currentTimeMillis();
	}

	/**
	 * Ends the issuing of every child, as if each thread had issued its count (children launched later issue a burst
	 * at most).
	 */
	void stopIssuing() {
		createFile("stop");
	}

	/**
	 * Lets every child that has issued its IDs stop and give its worker ID back (and every child launched later
	 * stop as soon as it is done).
	 */
	void finish() {
		createFile("finish");
	}

	private void createFile(String name) {
		try {
			Files.createFile(this.directory.resolve(name));
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * Reads every ID the children wrote.
	 * @return the IDs, by child
	 */
	IdSet ids() {
		Map<String, List<Path>> files = new LinkedHashMap<>();
		for (DrillChild child : this.children) {
			files.put(child.label(), child.idFiles());
		}
		return IdSet.read(files);
	}

	/**
	 * Rebuilds the children's worker-ID leases.
	 * @return the history
	 */
	LeaseHistory leases() {
		return LeaseHistory.of(this.settings.ttl(), this.children.stream().map(DrillChild::toSource).toList());
	}

	List<DrillChild> children() {
		return List.copyOf(this.children);
	}

	/**
	 * Describes every child's output, for failure messages.
	 * @return the tails of their logs
	 */
	String describe() {
		StringBuilder text = new StringBuilder("Drill files in " + this.directory);
		for (DrillChild child : this.children) {
			text.append('\n').append(child.describe());
		}
		return text.toString();
	}

	@Override
	public void close() {
		for (DrillChild child : this.children) {
			if (child.isAlive()) {
				child.kill();
			}
		}
		if (Boolean.getBoolean("idstarter.drill.keep")) {
			logger.info("Kept the drill files in {}", this.directory);
			return;
		}
		try (Stream<Path> files = Files.walk(this.directory)) {
			for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
				Files.deleteIfExists(file);
			}
		}
		catch (IOException ex) {
			logger.warn("Could not delete the drill files in {}: {}", this.directory, ex.toString());
		}
	}

	/**
	 * What the children do.
	 *
	 * @param threads threads per child
	 * @param count IDs per thread
	 * @param rate IDs per second per thread
	 * @param key the segment key
	 * @param maxStep the largest step the dynamic step reaches (segments)
	 * @param workerBits worker-ID bits of the Snowflake layout ({@code 2^workerBits} slots)
	 * @param ttl the lease TTL
	 * @param heartbeat the lease heartbeat
	 * @param margin the lease safety margin
	 * @param startupTimeout how long a child retries its start while every worker ID is taken
	 */
	record Settings(int threads, long count, long rate, String key, int maxStep, int workerBits, Duration ttl,
			Duration heartbeat, Duration margin, Duration startupTimeout) {
	}

}
