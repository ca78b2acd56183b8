package io.idstarter.segment;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.idstarter.IdGenerationException;
import io.idstarter.IdWorkerListener;
import io.idstarter.time.TimeSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A marks file that cannot be written (a full disk, a file system remounted read-only): the range the store gave is
 * kept and served once its mark is written, only the write is retried, and the failure names the file, not the store.
 */
class UnwritableMarksTests {

	private static final DynamicStep FIXED_STEP = new DynamicStep(Duration.ofMinutes(15), Duration.ofMinutes(30), 1);

	private final InMemorySegmentStore store = new InMemorySegmentStore();

	private final List<SegmentIdGenerator> generators = new ArrayList<>();

	@TempDir
	Path directory;

	@AfterEach
	void close() {
		this.generators.forEach(SegmentIdGenerator::close);
	}

	@Test
	void theRangeIsKeptAndOnlyTheWriteRetriedUntilTheFileCanBeWritten() throws Exception {
		Path state = this.directory.resolve("state");
		Path file = state.resolve("segment-marks");
		this.store.createKey("order", 0, 10, "");
		SegmentOptions options = SegmentOptions.builder()
			.dynamicStep(FIXED_STEP)
			.maxWait(Duration.ofMillis(200))
			.build();
		SegmentIdGenerator generator = new SegmentIdGenerator(this.store, options, TimeSource.system(),
				IdWorkerListener.NONE, null, SegmentMarks.file(file));
		this.generators.add(generator);
		generator.start();
		List<Long> served = new ArrayList<>();
		// maxWait is short for the outage below; a loaded machine may take longer for the first range.
		await().atMost(Duration.ofSeconds(5)).ignoreExceptions().until(() -> served.add(generator.nextId("order")));
		for (int i = 1; i < 5; i++) {
			served.add(generator.nextId("order"));
		}
		await().atMost(Duration.ofSeconds(5)).until(() -> generator.marks().highMark("order") == 20);
		// The directory turns into a file: no user, not even root, can write the marks file any more.
		Path moved = this.directory.resolve("state-away");
		Files.move(state, moved);
		Files.writeString(state, "not a directory");
		long callsBefore = this.store.allocateCalls();
		long outageEnd = System.nanoTime() + Duration.ofSeconds(2).toNanos();
		int refused = 0;
		while (System.nanoTime() < outageEnd) {
			try {
				served.add(generator.nextId("order"));
			}
			catch (IdGenerationException ex) {
				refused++;
			}
		}
		assertThat(refused).as("calls refused while no mark could be written").isPositive();
		assertThat(served).as("the numbers of both ranges whose marks were written")
			.containsExactly(0L, 1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L, 10L, 11L, 12L, 13L, 14L, 15L, 16L, 17L, 18L, 19L);
		assertThat(this.store.allocateCalls() - callsBefore).as("store calls during the outage").isEqualTo(1);
		assertThat(generator.marks().writeFailure()).get()
			.satisfies((ex) -> assertThat(ex.file()).isEqualTo(file));
		assertThat(generator.view("order")).get()
			.satisfies((view) -> assertThat(view.lastError()).contains("Cannot write the segment marks file " + file)
				.contains("the segment store is not at fault"));
		Files.delete(state);
		Files.move(moved, state);
		await().atMost(Duration.ofSeconds(5)).ignoreExceptions()
			.untilAsserted(() -> served.add(generator.nextId("order")));
		assertThat(served.get(served.size() - 1)).as("the kept range is served, none burnt").isEqualTo(20);
		assertThat(generator.marks().writeFailure()).isEmpty();
		// The kept range's mark (30) is written; the prefetch that call started may already have written the next (40).
		assertThat(Files.readString(file)).containsPattern("order=(30|40)\n");
		// A prefetch the last call started writes the file: let it finish before the directory is deleted.
		await().atMost(Duration.ofSeconds(5)).until(() -> !generator.view("order").orElseThrow().fetchInFlight());
	}

}
