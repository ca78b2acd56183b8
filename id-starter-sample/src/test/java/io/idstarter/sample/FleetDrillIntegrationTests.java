package io.idstarter.sample;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import io.idstarter.fleetclient.FleetDrillClient;
import io.idstarter.testsupport.TestBackends;
import io.idstarter.testsupport.TestBackends.JdbcBackend;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The fleet drill: three ID-server processes on one MariaDB, four client JVMs taking segment and Snowflake IDs
 * through them. One server is SIGKILLed and restarted, another SIGSTOPped past the clients' read timeout and
 * SIGCONTed: the clients keep issuing from their buffers and fail over. Then every server is killed: the clients
 * serve their buffers, then fail with an exception naming the servers and the cause, and recover once one server is
 * back. Every ID is checked: no duplicate, no worker ID in two clients; and a client with a wrong token does not
 * start and names the property.
 */
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class FleetDrillIntegrationTests {

	/** The ports of the three servers (this drill's range: 18080-18099). */
	private static final int[] PORTS = { 18081, 18082, 18083 };

	private static final String KEY = "drill";

	private static final Duration READ_TIMEOUT = Duration.ofMillis(1500);

	private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

	private final List<Process> processes = new ArrayList<>();

	@TempDir
	Path dir;

	@AfterEach
	void stopAll() {
		for (Process process : this.processes) {
			process.toHandle().descendants().forEach(ProcessHandle::destroyForcibly);
			signal(process, "CONT");
			process.destroyForcibly();
		}
	}

	@Test
	void clientsIssueThroughAKillAPauseAndAFullOutageWithoutADuplicate() throws Exception {
		JdbcBackend db = TestBackends.mariadb();
		String suffix = Long.toHexString(ThreadLocalRandom.current().nextLong() & 0xffffffffL);
		String token = "drill-token-" + suffix + "-0123456789";
		Path jar = serverJar();
		List<String> serverArgs = List.of("--spring.profiles.active=mariadb",
				"--spring.datasource.url=" + db.jdbcUrl(),
				"--spring.datasource.username=" + String.valueOf(db.username()),
				"--spring.datasource.password=" + String.valueOf(db.password()),
				"--id-worker.jdbc.segment-table=fleet_alloc_" + suffix,
				"--id-worker.jdbc.lease-table=fleet_lease_" + suffix, "--id-worker.lease.namespace=drill-servers",
				"--id-server.clients[0].name=drill-client", "--id-server.clients[0].token=" + token,
				"--id-server.clients[0].namespaces=fleet-client", "--id-server.clients[0].segment-keys=" + KEY,
				"--id-worker.segment.keys." + KEY + ".step=30000",
				"--spring.main.banner-mode=off", "--management.endpoints.web.exposure.include=health");
		Process[] servers = new Process[PORTS.length];
		long started = System.nanoTime();
		for (int i = 0; i < PORTS.length; i++) {
			servers[i] = startServer(jar, i, serverArgs);
		}
		for (int port : PORTS) {
			awaitHealthy(port, Duration.ofSeconds(120));
		}
		log("servers up after %d ms", elapsedMillis(started));

		String urls = String.join(",", Arrays.stream(PORTS).mapToObj((port) -> "http://127.0.0.1:" + port).toList());
		Path[] clientDirs = new Path[4];
		Process[] clients = new Process[4];
		for (int i = 0; i < clients.length; i++) {
			clientDirs[i] = this.dir.resolve("client-" + i);
			clients[i] = startJava(this.dir.resolve("client-" + i + ".log"), List.of(FleetDrillClient.class.getName(),
					clientDirs[i].toString(), urls, token, KEY, "500", "100", "50"), "-Xmx192m");
		}
		for (Path client : clientDirs) {
			awaitFile(client.resolve("ready"), Duration.ofSeconds(90));
		}
		log("clients issuing after %d ms", elapsedMillis(started));

		// A server killed and restarted, another paused past the read timeout: the clients keep issuing.
		Thread.sleep(4000);
		servers[0].destroyForcibly().waitFor();
		log("server %d killed", PORTS[0]);
		servers[0] = startServer(jar, 0, serverArgs);
		Thread.sleep(2000);
		signal(servers[1], "STOP");
		log("server %d stopped", PORTS[1]);
		Thread.sleep(READ_TIMEOUT.toMillis() * 3);
		signal(servers[1], "CONT");
		log("server %d continued", PORTS[1]);
		awaitHealthy(PORTS[0], Duration.ofSeconds(120));
		log("server %d back", PORTS[0]);
		awaitWritten(clientDirs, 1_100_000, Duration.ofSeconds(90));
		long outageStart = System.currentTimeMillis();
		for (String failure : events(clientDirs, " FAIL ")) {
			throw new AssertionError("A client failed while at least two servers were up: " + failure);
		}

		// Every server down: the buffers run out and the clients fail, naming the servers; one server back: they
		// recover.
		for (Process server : servers) {
			server.destroyForcibly().waitFor();
		}
		log("all servers killed");
		awaitEvents(clientDirs, " FAIL segment ", Duration.ofSeconds(30));
		awaitEvents(clientDirs, " FAIL snowflake ", Duration.ofSeconds(30));
		servers[2] = startServer(jar, 2, serverArgs);
		awaitHealthy(PORTS[2], Duration.ofSeconds(120));
		long back = System.currentTimeMillis();
		log("server %d back after the outage", PORTS[2]);
		awaitEvents(clientDirs, " RECOVER segment", Duration.ofSeconds(60));
		awaitEvents(clientDirs, " RECOVER snowflake", Duration.ofSeconds(60));
		long recovered = System.currentTimeMillis();

		for (Path client : clientDirs) {
			Files.writeString(client.resolve("stop"), "stop");
		}
		for (int i = 0; i < clients.length; i++) {
			assertThat(clients[i].waitFor(60, TimeUnit.SECONDS)).as("client %d stops", i).isTrue();
			assertThat(clients[i].exitValue()).as("client %d exit", i).isZero();
		}

		List<String> failures = events(clientDirs, " FAIL ");
		long servedAfterOutage = Long.MAX_VALUE;
		for (String failure : failures) {
			log("%s", failure.length() > 600 ? failure.substring(0, 600) + "..." : failure);
			long time = Long.parseLong(failure.substring(failure.indexOf(':') + 1, failure.indexOf(' ')));
			assertThat(time).as("failures only in the outage: %s", failure).isGreaterThanOrEqualTo(outageStart);
			servedAfterOutage = Math.min(servedAfterOutage, time - outageStart);
			if (failure.contains("FAIL segment")) {
				assertThat(failure).contains("No ID server could", "http://127.0.0.1:" + PORTS[0],
						"http://127.0.0.1:" + PORTS[1], "http://127.0.0.1:" + PORTS[2]);
			}
		}
		long[] segments = readAll(clientDirs, "segment.ids");
		long[] snowflakes = readAll(clientDirs, "snowflake.ids");
		int segmentDuplicates = duplicates(segments);
		int snowflakeDuplicates = duplicates(snowflakes);
		List<Set<Integer>> workers = new ArrayList<>();
		for (Path client : clientDirs) {
			Set<Integer> ids = new HashSet<>();
			for (long id : read(client.resolve("snowflake.ids"))) {
				ids.add((int) ((id >>> 12) & 1023));
			}
			workers.add(ids);
		}
		log("IDs: %,d segment + %,d Snowflake = %,d; duplicates %d + %d; worker IDs per client %s; "
				+ "failure events %d, all in the outage (first %d ms after every server was killed); every client "
				+ "recovered within %d ms after a server was back; total %d ms",
				segments.length, snowflakes.length, segments.length + snowflakes.length, segmentDuplicates,
				snowflakeDuplicates, workers, failures.size(), servedAfterOutage, recovered - back,
				elapsedMillis(started));
		assertThat(segments.length + snowflakes.length).isGreaterThanOrEqualTo(1_000_000);
		assertThat(segmentDuplicates).isZero();
		assertThat(snowflakeDuplicates).isZero();
		for (int i = 0; i < workers.size(); i++) {
			for (int j = i + 1; j < workers.size(); j++) {
				assertThat(workers.get(i)).as("worker IDs of clients %d and %d", i, j)
					.doesNotContainAnyElementsOf(workers.get(j));
			}
		}

		// Wrong credentials: the client does not start, and says which property to fix.
		Path wrong = this.dir.resolve("wrong-client.log");
		Process refused = startJava(wrong, List.of(FleetDrillClient.class.getName(),
				this.dir.resolve("wrong").toString(), "http://127.0.0.1:" + PORTS[2], "wrong-token-0123456789", KEY,
				"1", "1", "50"), "-Xmx128m");
		assertThat(refused.waitFor(90, TimeUnit.SECONDS)).isTrue();
		assertThat(refused.exitValue()).isNotZero();
		assertThat(Files.readString(wrong)).contains("APPLICATION FAILED TO START", "id-worker.http.token");
	}

	private Process startServer(Path jar, int index, List<String> args) throws IOException {
		List<String> command = new ArrayList<>(List.of("-jar", jar.toString(), "--server.port=" + PORTS[index],
				"--id-server.data-dir=" + this.dir.resolve("server-" + index)));
		command.addAll(args);
		return startJava(this.dir.resolve("server-" + index + ".log"), command, "-Xmx256m");
	}

	private Process startJava(Path log, List<String> args, String heap) throws IOException {
		List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
				heap, "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xshare:auto"));
		if (!args.get(0).equals("-jar")) {
			command.add("-cp");
			command.add(System.getProperty("java.class.path"));
		}
		command.addAll(args);
		Process process = new ProcessBuilder(command).redirectErrorStream(true)
			.redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
			.start();
		this.processes.add(process);
		return process;
	}

	private static void signal(Process process, String signal) {
		if (!process.isAlive()) {
			return;
		}
		try {
			new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid())).start().waitFor();
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	private void awaitHealthy(int port, Duration timeout) throws InterruptedException {
		long deadline = System.nanoTime() + timeout.toNanos();
		while (System.nanoTime() < deadline) {
			try {
				HttpResponse<String> response = this.http.send(
						HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/actuator/health"))
							.timeout(Duration.ofSeconds(2))
							.build(),
						HttpResponse.BodyHandlers.ofString());
				if (response.statusCode() == 200) {
					return;
				}
			}
			catch (IOException ex) {
				// Not up yet.
			}
			Thread.sleep(250);
		}
		throw new AssertionError("server on port " + port + " not healthy within " + timeout + "; see "
				+ this.dir.resolve("server-" + indexOf(port) + ".log"));
	}

	private static int indexOf(int port) {
		for (int i = 0; i < PORTS.length; i++) {
			if (PORTS[i] == port) {
				return i;
			}
		}
		return -1;
	}

	private static void awaitFile(Path file, Duration timeout) throws InterruptedException {
		long deadline = System.nanoTime() + timeout.toNanos();
		while (!Files.exists(file)) {
			if (System.nanoTime() > deadline) {
				throw new AssertionError(file + " did not appear within " + timeout);
			}
			Thread.sleep(100);
		}
	}

	/** Waits until the clients have written about {@code ids} IDs (their files are buffered, so a little more). */
	private static void awaitWritten(Path[] clients, long ids, Duration timeout) throws Exception {
		long deadline = System.nanoTime() + timeout.toNanos();
		while (true) {
			long bytes = 0;
			for (Path client : clients) {
				for (String name : List.of("segment.ids", "snowflake.ids")) {
					Path file = client.resolve(name);
					bytes += Files.exists(file) ? Files.size(file) : 0;
				}
			}
			if (bytes / 8 >= ids) {
				return;
			}
			if (System.nanoTime() > deadline) {
				throw new AssertionError("the clients wrote only " + bytes / 8 + " IDs within " + timeout);
			}
			Thread.sleep(200);
		}
	}

	private static void awaitEvents(Path[] clients, String event, Duration timeout) throws Exception {
		long deadline = System.nanoTime() + timeout.toNanos();
		for (Path client : clients) {
			while (events(new Path[] { client }, event).isEmpty()) {
				if (System.nanoTime() > deadline) {
					throw new AssertionError("no '" + event.trim() + "' from " + client + " within " + timeout);
				}
				Thread.sleep(100);
			}
		}
	}

	/** Event lines, each prefixed with its client's directory name and a colon. */
	private static List<String> events(Path[] clients, String event) throws IOException {
		List<String> found = new ArrayList<>();
		for (Path client : clients) {
			Path file = client.resolve("events.log");
			if (Files.exists(file)) {
				try (Stream<String> lines = Files.lines(file)) {
					lines.filter((line) -> line.contains(event))
						.forEach((line) -> found.add(client.getFileName() + ":" + line));
				}
			}
		}
		return found;
	}

	private static long[] readAll(Path[] clients, String name) throws IOException {
		long[][] parts = new long[clients.length][];
		int total = 0;
		for (int i = 0; i < clients.length; i++) {
			parts[i] = read(clients[i].resolve(name));
			total += parts[i].length;
		}
		long[] all = new long[total];
		int at = 0;
		for (long[] part : parts) {
			System.arraycopy(part, 0, all, at, part.length);
			at += part.length;
		}
		return all;
	}

	private static long[] read(Path file) throws IOException {
		long size = Files.size(file);
		long[] ids = new long[(int) (size / 8)];
		try (InputStream in = Files.newInputStream(file);
				DataInputStream data = new DataInputStream(new java.io.BufferedInputStream(in, 1 << 16))) {
			for (int i = 0; i < ids.length; i++) {
				ids[i] = data.readLong();
			}
		}
		return ids;
	}

	private static int duplicates(long[] ids) {
		long[] sorted = ids.clone();
		Arrays.sort(sorted);
		int duplicates = 0;
		for (int i = 1; i < sorted.length; i++) {
			if (sorted[i] == sorted[i - 1]) {
				duplicates++;
			}
		}
		return duplicates;
	}

	private static Path serverJar() throws IOException {
		try (Stream<Path> files = Files.list(Path.of("target"))) {
			return files.filter((file) -> file.getFileName().toString().matches("id-starter-sample-.*\\.jar"))
				.findFirst()
				.orElseThrow(() -> new IllegalStateException(
						"target/id-starter-sample-*.jar is missing: the drill runs the packaged server (mvn verify "
								+ "packages it before the integration tests)"));
		}
	}

	private static long elapsedMillis(long startNanos) {
		return (System.nanoTime() - startNanos) / 1_000_000;
	}

	private static void log(String format, @Nullable Object... args) {
		System.out.println("[fleet drill] " + String.format(format, args));
	}

}
