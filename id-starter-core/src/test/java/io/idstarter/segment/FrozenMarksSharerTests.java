package io.idstarter.segment;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.idstarter.IdGenerationException;
import io.idstarter.IdWorkerListener;
import io.idstarter.local.LocalFileLockTimeoutException;
import io.idstarter.local.OtherProcessLock;
import io.idstarter.time.TimeSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.Timeout.ThreadMode;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A segment marks file shared with another process that holds its lock and never lets go (frozen, stuck): the range
 * the store gave is not served while its mark cannot be written, nothing hangs, and serving resumes with that range
 * once the other process lets go.
 */
@Timeout(value = 120, threadMode = ThreadMode.SEPARATE_THREAD)
class FrozenMarksSharerTests {

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
	void theRangeIsRefusedWhileAnotherProcessHoldsTheLockAndServedOnceItLetsGo() throws Exception {
		Path file = this.directory.resolve("segment-marks");
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
		await().atMost(Duration.ofSeconds(5)).ignoreExceptions().until(() -> served.add(generator.nextId("order")));
		for (int i = 1; i < 5; i++) {
			served.add(generator.nextId("order"));
		}
		await().atMost(Duration.ofSeconds(5)).until(() -> generator.marks().highMark("order") == 20);
		int refused = 0;
		try (OtherProcessLock frozen = OtherProcessLock.hold(file)) {
			long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
			while (generator.marks().writeFailure().isEmpty() && System.nanoTime() < deadline) {
				try {
					served.add(generator.nextId("order"));
				}
				catch (IdGenerationException ex) {
					refused++;
					Thread.sleep(10);
				}
			}
			assertThat(generator.marks().writeFailure()).as("write failure reported").get()
				.satisfies((ex) -> assertThat(ex).hasCauseInstanceOf(LocalFileLockTimeoutException.class)
					.hasMessageContaining("Cannot write the segment marks file " + file)
					.hasMessageContaining("the segment store is not at fault")
					.hasMessageContaining("another process holds")
					.hasMessageNotContaining("free space"));
		}
		assertThat(refused).as("calls refused while no mark could be written").isPositive();
		assertThat(served).as("the numbers of both ranges whose marks were written")
			.containsExactly(0L, 1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L, 10L, 11L, 12L, 13L, 14L, 15L, 16L, 17L, 18L, 19L);
		await().atMost(Duration.ofSeconds(30)).ignoreExceptions()
			.untilAsserted(() -> served.add(generator.nextId("order")));
		assertThat(served.get(served.size() - 1)).as("the kept range is served, none burnt").isEqualTo(20);
		assertThat(generator.marks().writeFailure()).isEmpty();
		assertThat(SegmentMarks.file(file).highMark("order")).isGreaterThanOrEqualTo(30);
		await().atMost(Duration.ofSeconds(10)).until(() -> !generator.view("order").orElseThrow().fetchInFlight());
	}

}
