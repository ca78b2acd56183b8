package io.idstarter.lease;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.idstarter.segment.SegmentMarks;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two processes given one worker-ID cache file and one segment marks file, as two instances on one host with the same
 * {@code cache-file} (or an old and a new one side by side during a deploy): each raises its own slot's mark,
 * remembers its own namespace and raises the marks of a segment key they share, many times, in real separate JVMs.
 * No write of one may undo a write of the other, and neither may take the other's segment marks for its own.
 */
class SharedStateFilesProcessesTests {

	private static final int PROCESSES = 2;

	private static final int ROUNDS = 150;

	@TempDir
	Path directory;

	@Test
	void processesSharingStateFilesNeverLowerEachOthersMarks() throws Exception {
		Path cacheFile = this.directory.resolve("worker-id");
		Path segmentMarks = this.directory.resolve("segment-marks");
		List<Process> processes = new ArrayList<>();
		for (int i = 0; i < PROCESSES; i++) {
			processes.add(new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
					System.getProperty("java.class.path"), Child.class.getName(), cacheFile.toString(),
					segmentMarks.toString(), Integer.toString(i), Integer.toString(ROUNDS))
				.redirectErrorStream(true)
				.redirectOutput(this.directory.resolve("child" + i + ".log").toFile())
				.start());
		}
		for (int i = 0; i < PROCESSES; i++) {
			Process process = processes.get(i);
			assertThat(process.waitFor(120, TimeUnit.SECONDS)).as("child %d finished", i).isTrue();
			assertThat(process.exitValue()).as("child %d: %s", i, log(i)).isZero();
		}
		WorkerSlotMarks marks = WorkerSlotMarks.besideCacheFile(cacheFile);
		WorkerIdCache cache = new WorkerIdCache(cacheFile);
		for (int i = 0; i < PROCESSES; i++) {
			assertThat(marks.known("orders", i)).as("mark of slot %d on disk", i).isEqualTo(ROUNDS);
			assertThat(cache.read("ns" + i)).as("cached worker ID of namespace ns%d", i).hasValue(ROUNDS);
		}
		assertThat(SegmentMarks.file(segmentMarks).all()).as("segment marks on disk")
			.containsEntry("shared", Child.sharedMark(PROCESSES - 1, ROUNDS))
			.containsEntry("own0", (long) ROUNDS)
			.containsEntry("own1", (long) ROUNDS);
	}

	private String log(int child) throws Exception {
		return Files.readString(this.directory.resolve("child" + child + ".log"), StandardCharsets.UTF_8);
	}

	/**
	 * One process: {@code <cache file> <segment marks file> <slot> <rounds>}. Each round raises its slot's mark to the
	 * round, remembers the round as its namespace's worker ID, and raises its own segment key to the round and the
	 * shared key to a value of its own; after each write, reads back that no other process lowered the slot's mark
	 * and that its guard of the shared key is what it raised (or the file held at its start), not what the other
	 * process raised since.
	 */
	static final class Child {

		public static void main(String[] args) {
			Path cacheFile = Path.of(args[0]);
			SegmentMarks segmentMarks = SegmentMarks.file(Path.of(args[1]));
			int slot = Integer.parseInt(args[2]);
			int rounds = Integer.parseInt(args[3]);
			WorkerSlotMarks marks = WorkerSlotMarks.besideCacheFile(cacheFile);
			WorkerIdCache cache = new WorkerIdCache(cacheFile);
			// The guard starts from what the file held at start, and then moves only with this process's own marks.
			long loaded = segmentMarks.highMark("shared");
			int lowered = 0;
			int foreignGuards = 0;
			for (int round = 1; round <= rounds; round++) {
				marks.raise("orders", slot, round);
				cache.write("ns" + slot, round);
				if (marks.known("orders", slot) < round) {
					lowered++;
				}
				segmentMarks.raise("shared", sharedMark(slot, round));
				segmentMarks.raise("own" + slot, round);
				if (segmentMarks.highMark("shared") != Math.max(loaded, sharedMark(slot, round))) {
					foreignGuards++;
				}
			}
			System.out.println("slot " + slot + ": " + lowered + " of " + rounds + " marks lowered by another process, "
					+ foreignGuards + " guards of the shared segment key not this process's own");
			System.exit((lowered == 0 && foreignGuards == 0) ? 0 : 1);
		}

		/** The mark a process raises the shared segment key to: the processes' values interleave. */
		static long sharedMark(int slot, int round) {
			return (long) round * PROCESSES + slot;
		}

	}

}
