package io.idstarter.verification;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Checks the Promela model of the lease protocol ({@code verification/lease.pml}) with the spin model checker: the
 * protocol as implemented never issues a (worker, timestamp) twice, and a store that loses its last write does. Needs
 * {@code spin} and {@code gcc} on the path ({@code scripts/ensure-test-services.sh} installs spin).
 */
class LeaseProtocolModelIntegrationTests {

	private static final Logger logger = LoggerFactory.getLogger(LeaseProtocolModelIntegrationTests.class);

	/** Longest a single tool run may take; the clean check takes about 15 s on a loaded 2-core machine. */
	private static final long TIMEOUT_SECONDS = 300;

	private static Path model;

	@BeforeAll
	static void findModelAndTools() {
		model = locate(Path.of("verification", "lease.pml"));
		for (String tool : List.of("spin", "gcc")) {
			assertThat(onPath(tool)).as("'%s' is required to check verification/lease.pml and is not on the PATH: run "
					+ "scripts/ensure-test-services.sh (it installs Debian's spin package) or install it", tool)
				.isTrue();
		}
	}

	@Test
	void theProtocolNeverIssuesAWorkerAndTimestampTwice(@TempDir Path dir) throws Exception {
		String result = check(dir, List.of());
		assertThat(result).contains("errors: 0").doesNotContain("assertion violated");
		assertThat(statesStored(result)).as("states explored").isGreaterThan(100_000);
	}

	@Test
	void aStoreThatLosesItsLastWriteLetsTwoOwnersIssueTheSameTimestamp(@TempDir Path dir) throws Exception {
		String result = check(dir, List.of("-DLOST_WRITE", "-DDUPLICATES_ONLY"));
		assertThat(result).contains("assertion violated (last[n]!=top[slot[n]])").doesNotContain("errors: 0");
		assertThat(Files.exists(dir.resolve("lease.pml.trail"))).as("counterexample trail written").isTrue();
		String trail = run(dir, "spin", "-DLOST_WRITE", "-DDUPLICATES_ONLY", "-t", "lease.pml");
		logger.info("Counterexample for the lost-write store:\n{}", trail);
		assertThat(trail).contains("the store loses its last write").contains("assertion violated");
		assertThat(trail.lines().filter((line) -> line.contains("issues IDs of worker")).count()).isGreaterThan(1);
	}

	/**
	 * Generates the verifier for the model with the given defines, compiles it and runs an exhaustive safety search
	 * (with {@code -i}, which shortens a counterexample when there is one).
	 */
	private static String check(Path dir, List<String> defines) throws Exception {
		Files.copy(model, dir.resolve("lease.pml"));
		List<String> spin = new ArrayList<>(List.of("spin"));
		spin.addAll(defines);
		spin.addAll(List.of("-a", "lease.pml"));
		run(dir, spin.toArray(String[]::new));
		List<String> gcc = new ArrayList<>(List.of("gcc", "-O2", "-w", "-DSAFETY", "-o", "pan", "pan.c"));
		if (!defines.isEmpty()) {
			gcc.add("-DREACH"); // makes -i (shortest counterexample) exact
		}
		run(dir, gcc.toArray(String[]::new));
		long started = System.nanoTime();
		String result = run(dir, "./pan", "-m100000", defines.isEmpty() ? "-n" : "-i");
		logger.info("spin {} on {} took {} ms:\n{}", defines, model,
				TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started), result);
		return result;
	}

	private static long statesStored(String result) {
		return result.lines()
			.filter((line) -> line.contains("states, stored"))
			.mapToLong((line) -> Long.parseLong(line.trim().split("\\s+")[0]))
			.findFirst()
			.orElse(0);
	}

	private static String run(Path dir, String... command) throws IOException, InterruptedException {
		Process process = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
		byte[] output = process.getInputStream().readAllBytes();
		if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
			process.destroyForcibly();
			throw new AssertionError(String.join(" ", command) + " did not finish within " + TIMEOUT_SECONDS + " s");
		}
		String text = new String(output, StandardCharsets.UTF_8);
		assertThat(process.exitValue()).as("exit status of '%s':%n%s", String.join(" ", command), text).isZero();
		return text;
	}

	private static boolean onPath(String tool) {
		for (String entry : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
			if (Files.isExecutable(Path.of(entry, tool))) {
				return true;
			}
		}
		return false;
	}

	/**
	 * Finds a file of the repository from the module directory the build runs tests in, or from the root.
	 */
	private static Path locate(Path relative) {
		for (Path base = Path.of("").toAbsolutePath(); base != null; base = base.getParent()) {
			Path candidate = base.resolve(relative);
			if (Files.isRegularFile(candidate)) {
				return candidate;
			}
		}
		throw new AssertionError(relative + " not found in the working directory or above it");
	}

}
