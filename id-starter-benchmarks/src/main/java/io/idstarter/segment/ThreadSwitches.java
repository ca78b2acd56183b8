package io.idstarter.segment;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Context switches of this process's threads, read from Linux's {@code /proc/self/task}: how often each thread went to
 * sleep on its own (voluntary: parked, waiting, sleeping; each is a wake-up later) and how often it was taken off its
 * core (involuntary). Counts, unlike times, do not move with what else the machine runs, so they say which threads a
 * generator wakes, and how often, on a busy machine too. Threads are grouped by name with trailing digits removed
 * (Linux keeps the first 15 characters of a name).
 */
final class ThreadSwitches {

	private final Map<String, long[]> byGroup;

	private ThreadSwitches(Map<String, long[]> byGroup) {
		this.byGroup = byGroup;
	}

	/** Reads every thread's counts now; an empty reading where {@code /proc} is not Linux's. */
	static ThreadSwitches read() {
		Map<String, long[]> byGroup = new TreeMap<>();
		try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc/self/task"))) {
			for (Path task : tasks) {
				try {
					String group = Files.readString(task.resolve("comm")).strip().replaceAll("[-_]?\\d+$", "");
					long[] counts = byGroup.computeIfAbsent(group, (name) -> new long[3]);
					List<String> status = Files.readAllLines(task.resolve("status"));
					counts[0] += field(status, "voluntary_ctxt_switches:");
					counts[1] += field(status, "nonvoluntary_ctxt_switches:");
					counts[2]++;
				}
				catch (IOException ex) {
					// The thread ended while being read.
				}
			}
		}
		catch (IOException ex) {
			return new ThreadSwitches(Map.of());
		}
		return new ThreadSwitches(byGroup);
	}

	private static long field(List<String> status, String name) {
		for (String line : status) {
			if (line.startsWith(name)) {
				return Long.parseLong(line.substring(name.length()).strip());
			}
		}
		return 0;
	}

	/**
	 * Prints each thread group's switches per second between {@code before} and this reading, busiest first; groups
	 * with fewer than {@code minPerSecond} voluntary switches per second are left out.
	 */
	void printSince(ThreadSwitches before, double seconds, double minPerSecond) {
		System.out.printf("%-18s %7s %14s %16s%n", "thread group", "threads", "voluntary/s", "involuntary/s");
		this.byGroup.entrySet()
			.stream()
			.map((entry) -> {
				long[] earlier = before.byGroup.getOrDefault(entry.getKey(), new long[3]);
				long[] now = entry.getValue();
				return new Object[] { entry.getKey(), now[2], (now[0] - earlier[0]) / seconds,
						(now[1] - earlier[1]) / seconds };
			})
			.filter((row) -> (double) row[2] >= minPerSecond || (double) row[3] >= minPerSecond)
			.sorted((a, b) -> Double.compare((double) b[2], (double) a[2]))
			.forEach((row) -> System.out.printf("%-18s %7d %14.1f %16.1f%n", row));
	}

}
