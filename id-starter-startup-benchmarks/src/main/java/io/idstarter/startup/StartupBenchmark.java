package io.idstarter.startup;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * What an application pays at start for id-starter: each application of this module started in fresh JVMs, the runs
 * of all applications interleaved, against the same application without id-starter.
 *
 * <p>Applications: {@code bare} (no id-starter: the same class path minus id-starter's jars, no
 * {@code @EnableIdWorker}), {@code segment} (SEGMENT mode on JDBC with three declared keys), {@code db} (Snowflake,
 * worker ID leased in the same database) and {@code zookeeper} (Snowflake, worker ID leased from the ZooKeeper
 * ensemble on 127.0.0.1:12181-12183). All of them use an embedded H2 database, create their own table at start and
 * run without a web server. Each runs ordinarily ({@code jit}) and ahead-of-time processed ({@code aot}: the build
 * ran {@code spring-boot:process-aot} for it, and it runs with {@code -Dspring.aot.enabled=true}).
 *
 * <p>Start-up time is measured from just before the JVM is launched to the line {@link StartupProbe} prints at
 * {@code ApplicationReadyEvent}, the same way for every application. Each round starts every variant once, in an
 * order rotated by one every round, after one round that is not counted (it fills the file cache). The breakdown
 * comes from Spring's {@code BufferingApplicationStartup}: each step's own time (less the steps nested in it),
 * grouped by what it did, median over the runs, and the same groups of the bare application subtracted.
 *
 * <p>Run after {@code ./mvnw -B -ntp -pl id-starter-startup-benchmarks -am package -DskipTests}:
 * {@code java -cp id-starter-startup-benchmarks/target/classes io.idstarter.startup.StartupBenchmark [runs=10]
 * [modes=bare,segment,db,zookeeper] [aot=both|jit|aot] [json=<file>] [jvm="<JVM options>"]}. Prints a Markdown
 * table of ratios to the bare application and the breakdown; {@code json} also writes them for
 * {@code scripts/benchmark-report.py}. Takes about 3 s per start on a two-core machine: 10 runs of 8 variants, 5 min.
 */
public final class StartupBenchmark {

	/** Longest a start may take before the run is failed. */
	private static final long START_TIMEOUT_SECONDS = 120;

	private static final Map<String, String> MAIN_CLASSES = Map.of("bare", "io.idstarter.startup.bare.BareApplication",
			"segment", "io.idstarter.startup.segment.SegmentApplication", "db", "io.idstarter.startup.db.DbApplication",
			"zookeeper", "io.idstarter.startup.zookeeper.ZooKeeperApplication");

	/** What each id-starter bean does at start, by bean name; other id-starter beans count as "other beans". */
	private static final Map<String, String> CATEGORIES = Map.of("idWorkerSchemaInitializer", "schema check",
			"jdbcSegmentStore", "schema check", "jdbcLeaseStore", "schema check", "idWorkerDeclaredSegmentKeys",
			"key check (declared keys)", "segmentIdWorker", "key list read (segment start)", "leasedSnowflakeWorker",
			"first worker-ID borrow", "idWorkerCuratorFramework", "ZooKeeper client and session",
			"zooKeeperLeaseStore", "ZooKeeper client and session");

	private static final String OTHER_BEANS = "other id-starter beans";

	private static final String OTHER_STEPS = "rest of the context (configuration, conditions, other beans)";

	private StartupBenchmark() {
	}

	public static void main(String[] args) throws Exception {
		Map<String, String> options = options(args);
		int runs = Integer.parseInt(options.getOrDefault("runs", "10"));
		List<String> modes = List.of(options.getOrDefault("modes", "bare,segment,db,zookeeper").split(","));
		String aot = options.getOrDefault("aot", "both");
		List<String> jvmOptions = options.containsKey("jvm") ? List.of(options.get("jvm").trim().split("\\s+"))
				: List.of();
		Path target = Path.of(StartupBenchmark.class.getProtectionDomain().getCodeSource().getLocation().toURI())
			.getParent();
		List<Variant> variants = new ArrayList<>();
		for (String kind : aot.equals("both") ? List.of("jit", "aot") : List.of(aot)) {
			for (String mode : modes) {
				if (!MAIN_CLASSES.containsKey(mode)) {
					throw new IllegalArgumentException("unknown mode '" + mode + "': use " + MAIN_CLASSES.keySet());
				}
				variants.add(new Variant(mode, kind.equals("aot"), target, jvmOptions));
			}
		}
		String loadAtStart = loadAverage();
		System.err.printf(Locale.ROOT, "%d runs of %d variants, load %s%n", runs, variants.size(), loadAtStart);
		for (int round = 0; round <= runs; round++) {
			for (int i = 0; i < variants.size(); i++) {
				Variant variant = variants.get((i + round) % variants.size());
				Run run = variant.start();
				if (round > 0) {
					variant.runs.add(run);
				}
				System.err.printf(Locale.ROOT, "round %d %s: ready %.0f ms%n", round, variant.name(),
						run.readyNanos / 1e6);
			}
		}
		String loadAtEnd = loadAverage();
		String report = report(variants, runs, loadAtStart, loadAtEnd);
		System.out.print(report);
		if (options.containsKey("json")) {
			Files.writeString(Path.of(options.get("json")), json(variants, runs, loadAtStart, loadAtEnd));
		}
	}

	private static Map<String, String> options(String[] args) {
		Map<String, String> options = new HashMap<>();
		for (String arg : args) {
			int equals = arg.indexOf('=');
			if (equals < 1) {
				throw new IllegalArgumentException("arguments are name=value: " + arg);
			}
			options.put(arg.substring(0, equals), arg.substring(equals + 1));
		}
		return options;
	}

	static String loadAverage() {
		try {
			return Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
		}
		catch (IOException ex) {
			return "?";
		}
	}

	private static String report(List<Variant> variants, int runs, String loadAtStart, String loadAtEnd) {
		StringBuilder out = new StringBuilder();
		out.append(String.format(Locale.ROOT, "%nStart-up to ApplicationReadyEvent: median of %d fresh JVMs per "
				+ "variant, interleaved (load average %s at start, %s at end)%n%n", runs, loadAtStart, loadAtEnd));
		out.append("| application | run | ready (ms) | x bare | added (ms) | min to max (ms) | JVM uptime at ready (ms) "
				+ "| main thread CPU (ms) | process CPU (ms) | classes loaded | first ID (ms) |\n");
		out.append("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
		for (Variant variant : variants) {
			Variant bare = bare(variants, variant);
			double ready = variant.median((run) -> run.readyNanos / 1e6);
			double base = (bare != null) ? bare.median((run) -> run.readyNanos / 1e6) : Double.NaN;
			out.append(String.format(Locale.ROOT, "| %s | %s | %.0f | %s | %s | %.0f to %.0f | %.0f | %s | %s | %s | %s |%n",
					variant.mode, variant.aot ? "AOT" : "JIT", ready,
					(bare != null) ? String.format(Locale.ROOT, "%.2fx", ready / base) : "",
					(bare != null && bare != variant) ? String.format(Locale.ROOT, "%+.0f", ready - base) : "",
					variant.min((run) -> run.readyNanos / 1e6), variant.max((run) -> run.readyNanos / 1e6),
					variant.median((run) -> (double) run.uptimeMillis),
					withAdded(variant, bare, (run) -> run.mainCpuNanos / 1e6),
					withAdded(variant, bare, (run) -> run.processCpuNanos / 1e6),
					withAdded(variant, bare, (run) -> (double) run.classes),
					variant.runs.get(0).firstIdNanos >= 0
							? String.format(Locale.ROOT, "%.1f", variant.median((run) -> run.firstIdNanos / 1e6)) : ""));
		}
		for (Variant variant : variants) {
			Variant bare = bare(variants, variant);
			if (variant.mode.equals("bare") || bare == null) {
				continue;
			}
			out.append(String.format(Locale.ROOT, "%nWhere %s (%s) spends its added time: median own time of the "
					+ "steps, ms, wall and CPU of the thread (the bare application's subtracted from the rest of the "
					+ "context)%n%n", variant.mode, variant.aot ? "AOT" : "JIT"));
			out.append("| part | wall ms | CPU ms |\n| --- | ---: | ---: |\n");
			Map<String, Double> wall = variant.breakdown(false);
			Map<String, Double> cpu = variant.breakdown(true);
			Map<String, Double> bareWall = bare.breakdown(false);
			Map<String, Double> bareCpu = bare.breakdown(true);
			double attributed = 0;
			double attributedCpu = 0;
			for (String part : wall.keySet()) {
				double wallMs = wall.get(part) - bareWall.getOrDefault(part, 0.0);
				double cpuMs = cpu.get(part) - bareCpu.getOrDefault(part, 0.0);
				if (wallMs == 0 && cpuMs == 0) {
					continue;
				}
				attributed += wallMs;
				attributedCpu += cpuMs;
				out.append(String.format(Locale.ROOT, "| %s | %.1f | %.1f |%n", part, wallMs, cpuMs));
			}
			double added = variant.median((run) -> run.readyNanos / 1e6) - bare.median((run) -> run.readyNanos / 1e6);
			double addedCpu = variant.median((run) -> run.mainCpuNanos / 1e6)
					- bare.median((run) -> run.mainCpuNanos / 1e6);
			out.append(String.format(Locale.ROOT, "| outside the recorded steps (JVM, class loading before the "
					+ "context, logging; wall: noise) | %.1f | %.1f |%n", added - attributed, addedCpu - attributedCpu));
			out.append("\nThe id-starter steps that took longest (median own CPU time, ms): ");
			out.append(top(variant.steps(true), Map.of(), 8));
			out.append("\nThe other steps that took longer than the bare application's (median own CPU time, ms): ");
			out.append(top(variant.steps(false), bare.steps(false), 5));
			out.append('\n');
		}
		return out.toString();
	}

	/** The steps whose time exceeds the baseline's most, as "step ms; ...". */
	private static String top(Map<String, Double> steps, Map<String, Double> baseline, int count) {
		return steps.entrySet()
			.stream()
			.map((step) -> Map.entry(step.getKey(), step.getValue() - baseline.getOrDefault(step.getKey(), 0.0)))
			.sorted(Map.Entry.<String, Double>comparingByValue().reversed())
			.limit(count)
			.map((step) -> String.format(Locale.ROOT, "%s %.1f", step.getKey(), step.getValue()))
			.collect(Collectors.joining("; "));
	}

	/** The median of a figure, and what it adds to the bare application's. */
	private static String withAdded(Variant variant, Variant bare,
			java.util.function.ToDoubleFunction<Run> value) {
		double median = variant.median(value);
		if (bare == null || bare == variant) {
			return String.format(Locale.ROOT, "%.0f", median);
		}
		return String.format(Locale.ROOT, "%.0f (%+.0f)", median, median - bare.median(value));
	}

	/** The bare application run the same way (JIT or AOT), if it was run. */
	private static Variant bare(List<Variant> variants, Variant variant) {
		for (Variant candidate : variants) {
			if (candidate.mode.equals("bare") && candidate.aot == variant.aot) {
				return candidate;
			}
		}
		return null;
	}

	private static String json(List<Variant> variants, int runs, String loadAtStart, String loadAtEnd) {
		StringBuilder json = new StringBuilder();
		json.append("{\"kind\": \"startup\", \"runs\": ").append(runs).append(", \"loadAtStart\": \"")
			.append(loadAtStart).append("\", \"loadAtEnd\": \"").append(loadAtEnd).append("\", \"variants\": [");
		for (int i = 0; i < variants.size(); i++) {
			Variant variant = variants.get(i);
			json.append((i > 0) ? ", " : "").append("{\"mode\": \"").append(variant.mode).append("\", \"aot\": ")
				.append(variant.aot).append(", \"readyMs\": [");
			json.append(variant.runs.stream()
				.map((run) -> String.format(Locale.ROOT, "%.1f", run.readyNanos / 1e6))
				.collect(Collectors.joining(", ")));
			json.append("], \"classes\": ").append(String.format(Locale.ROOT, "%.0f",
					variant.median((run) -> (double) run.classes)));
			json.append(", \"firstIdMs\": ").append(String.format(Locale.ROOT, "%.2f",
					variant.median((run) -> Math.max(run.firstIdNanos, 0) / 1e6)));
			json.append(", \"mainCpuMs\": ").append(String.format(Locale.ROOT, "%.1f",
					variant.median((run) -> run.mainCpuNanos / 1e6)));
			json.append(", \"processCpuMs\": ").append(String.format(Locale.ROOT, "%.1f",
					variant.median((run) -> run.processCpuNanos / 1e6)));
			json.append(", \"breakdownCpuMs\": {");
			json.append(variant.breakdown(true)
				.entrySet()
				.stream()
				.map((part) -> String.format(Locale.ROOT, "\"%s\": %.2f", part.getKey(), part.getValue()))
				.collect(Collectors.joining(", ")));
			json.append("}}");
		}
		json.append("]}\n");
		return json.toString();
	}

	/** One application, run ordinarily or ahead-of-time processed. */
	private static final class Variant {

		final String mode;

		final boolean aot;

		final List<String> command = new ArrayList<>();

		final List<Run> runs = new ArrayList<>();

		Variant(String mode, boolean aot, Path target, List<String> jvmOptions) throws IOException {
			this.mode = mode;
			this.aot = aot;
			String classPathFile = mode.equals("bare") ? "startup-classpath-bare.txt" : "startup-classpath.txt";
			// Processed applications run from their own copy of the classes, which holds the code process-aot wrote.
			Path classes = aot ? target.resolve("aot").resolve(mode).resolve("classes") : target.resolve("classes");
			String classPath = classes + java.io.File.pathSeparator
					+ Files.readString(target.resolve(classPathFile)).trim();
			this.command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
			this.command.addAll(jvmOptions);
			if (aot) {
				this.command.add("-Dspring.aot.enabled=true");
			}
			this.command.addAll(List.of("-cp", classPath, MAIN_CLASSES.get(mode)));
		}

		String name() {
			return this.mode + (this.aot ? " (AOT)" : "");
		}

		Run start() throws IOException, InterruptedException {
			ProcessBuilder builder = new ProcessBuilder(this.command).redirectErrorStream(true);
			Deque<String> tail = new ArrayDeque<>();
			Run run = new Run();
			long start = System.nanoTime();
			Process process = builder.start();
			try (BufferedReader lines = new BufferedReader(
					new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
				for (String line = lines.readLine(); line != null; line = lines.readLine()) {
					if (line.startsWith(StartupProbe.PREFIX)) {
						run.read(line.substring(StartupProbe.PREFIX.length()), System.nanoTime() - start);
					}
					else {
						tail.addLast(line);
						if (tail.size() > 60) {
							tail.removeFirst();
						}
					}
				}
			}
			if (!process.waitFor(START_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
				process.destroyForcibly();
			}
			if (!run.done || process.exitValue() != 0) {
				throw new IllegalStateException(name() + " did not start and stop cleanly (exit " + process.exitValue()
						+ "); its last lines:\n" + String.join("\n", tail));
			}
			return run;
		}

		double median(java.util.function.ToDoubleFunction<Run> value) {
			double[] values = this.runs.stream().mapToDouble(value).sorted().toArray();
			int middle = values.length / 2;
			return (values.length % 2 == 1) ? values[middle] : (values[middle - 1] + values[middle]) / 2;
		}

		double min(java.util.function.ToDoubleFunction<Run> value) {
			return this.runs.stream().mapToDouble(value).min().orElse(Double.NaN);
		}

		double max(java.util.function.ToDoubleFunction<Run> value) {
			return this.runs.stream().mapToDouble(value).max().orElse(Double.NaN);
		}

		/** Median own time per part of the start-up, ms, in a fixed order: wall time, or the thread's CPU time. */
		Map<String, Double> breakdown(boolean cpu) {
			Map<String, Double> parts = new LinkedHashMap<>();
			for (String part : CATEGORIES.values().stream().distinct().sorted().toList()) {
				parts.put(part, 0.0);
			}
			parts.put(OTHER_BEANS, 0.0);
			parts.put(OTHER_STEPS, 0.0);
			for (String part : List.copyOf(parts.keySet())) {
				parts.put(part, median((run) -> (cpu ? run.cpuParts : run.parts).getOrDefault(part, 0L) / 1e6));
			}
			return parts;
		}

		/** Median own CPU time of each step, ms: id-starter's by bean, the others by step name. */
		Map<String, Double> steps(boolean ours) {
			Map<String, List<Long>> byStep = new HashMap<>();
			for (Run run : this.runs) {
				(ours ? run.ownSteps : run.otherSteps)
					.forEach((step, nanos) -> byStep.computeIfAbsent(step, (key) -> new ArrayList<>()).add(nanos));
			}
			Map<String, Double> medians = new HashMap<>();
			byStep.forEach((step, values) -> {
				long[] sorted = values.stream().mapToLong(Long::longValue).sorted().toArray();
				medians.put(step, sorted[sorted.length / 2] / 1e6);
			});
			return medians;
		}

	}

	/** What one start reported. */
	private static final class Run {

		long readyNanos = -1;

		long uptimeMillis;

		long classes;

		long mainCpuNanos;

		long processCpuNanos;

		long firstIdNanos = -1;

		boolean done;

		/** Own time per part of the start-up, ns. */
		final Map<String, Long> parts = new HashMap<>();

		/** Own CPU time of the step's thread per part of the start-up, ns. */
		final Map<String, Long> cpuParts = new HashMap<>();

		/** Own CPU time of each id-starter step, ns, by step and bean. */
		final Map<String, Long> ownSteps = new HashMap<>();

		/** Own CPU time of the other steps, ns, by step name. */
		final Map<String, Long> otherSteps = new HashMap<>();

		void read(String line, long nanosSinceLaunch) {
			String[] fields = line.split(" ");
			switch (fields[0]) {
				case "ready" -> {
					this.readyNanos = nanosSinceLaunch;
					this.uptimeMillis = Long.parseLong(fields[1]);
					this.classes = Long.parseLong(fields[2]);
					this.mainCpuNanos = Long.parseLong(fields[3]);
					this.processCpuNanos = Long.parseLong(fields[4]);
				}
				case "step" -> step(fields[1], fields[2], fields[3], Long.parseLong(fields[4]), Long.parseLong(fields[6]));
				case "first-id" -> this.firstIdNanos = Long.parseLong(fields[1]);
				case "done" -> this.done = true;
				default -> throw new IllegalStateException("unexpected report line: " + Arrays.toString(fields));
			}
		}

		private void step(String name, String bean, String type, long ownNanos, long ownCpuNanos) {
			boolean ours = type.startsWith("io.idstarter.") && !type.startsWith("io.idstarter.startup.")
					|| CATEGORIES.containsKey(bean) || bean.startsWith("idWorker") || bean.startsWith("io.idstarter.")
					|| bean.contains("-io.idstarter.");
			String part = ours ? CATEGORIES.getOrDefault(bean, OTHER_BEANS) : OTHER_STEPS;
			this.parts.merge(part, ownNanos, Long::sum);
			this.cpuParts.merge(part, ownCpuNanos, Long::sum);
			if (ours) {
				this.ownSteps.merge(bean + " (" + name + ")", ownCpuNanos, Long::sum);
			}
			else {
				this.otherSteps.merge(name, ownCpuNanos, Long::sum);
			}
		}

	}

}
