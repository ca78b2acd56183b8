package io.idstarter.segment;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import io.idstarter.IdWorkerListener;
import io.idstarter.time.TimeSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The last numbers of a key below {@link Long#MAX_VALUE}: a dynamic step larger than what is left is cut to what is
 * left, those numbers are served, and then every caller gets {@link SegmentKeyExhaustedException} at once.
 */
class SegmentKeyEndTests {

	private static final Duration MAX_WAIT = Duration.ofSeconds(3);

	private final InMemorySegmentStore store = new InMemorySegmentStore();

	private final List<SegmentIdGenerator> generators = new ArrayList<>();

	@AfterEach
	void close() {
		this.generators.forEach(SegmentIdGenerator::close);
	}

	private SegmentIdGenerator start(SegmentStore store) {
		// Ranges used up within 15 minutes: the step doubles at every fetch (10, 20, 40, 80, ...).
		SegmentOptions options = SegmentOptions.builder().maxWait(MAX_WAIT).build();
		SegmentIdGenerator generator = new SegmentIdGenerator(store, options, TimeSource.system(),
				IdWorkerListener.NONE, null, SegmentMarks.inMemory());
		this.generators.add(generator);
		generator.start();
		return generator;
	}

	@Test
	void aStepLargerThanWhatIsLeftIsCutAndTheLastNumbersAreServed() {
		long first = Long.MAX_VALUE - 100;
		this.store.createKey("order", first, 10, "");
		SegmentIdGenerator generator = start(this.store);
		Set<Long> served = drainUntilUsedUp(generator);
		assertThat(served).hasSize(100);
		assertThat(served).first().isEqualTo(first);
		assertThat(served).last().isEqualTo(Long.MAX_VALUE - 1);
	}

	@Test
	void aStoreThatCannotSayWhatIsLeftIsAskedForHalfAsMuch() {
		long first = Long.MAX_VALUE - 100;
		this.store.createKey("order", first, 10, "");
		SegmentIdGenerator generator = start(new SilentAboutTheEnd(this.store));
		Set<Long> served = drainUntilUsedUp(generator);
		assertThat(served).hasSize(100);
		assertThat(served).last().isEqualTo(Long.MAX_VALUE - 1);
	}

	/** Draws IDs until the key is used up; fails on a repeat, and if a caller waited for its error. */
	private static Set<Long> drainUntilUsedUp(SegmentIdGenerator generator) {
		TreeSet<Long> served = new TreeSet<>();
		for (int i = 0; i < 1_000; i++) {
			long start = System.nanoTime();
			try {
				long id = generator.nextId("order");
				assertThat(served.add(id)).as("ID %d served twice", id).isTrue();
			}
			catch (SegmentKeyExhaustedException ex) {
				assertThat(Duration.ofNanos(System.nanoTime() - start)).as("the refusal did not wait out maxWait")
					.isLessThan(MAX_WAIT.dividedBy(2));
				assertThat(ex.getKey()).isEqualTo("order");
				assertThat(ex.remaining()).as("nothing left, or the store cannot say").isIn(0L, -1L);
				long again = System.nanoTime();
				assertThatExceptionOfType(SegmentKeyExhaustedException.class)
					.isThrownBy(() -> generator.nextId("order"));
				assertThat(Duration.ofNanos(System.nanoTime() - again)).isLessThan(MAX_WAIT.dividedBy(2));
				return served;
			}
		}
		throw new AssertionError("the key was never used up; served " + served.size());
	}

	/** A store that refuses the end of a key without saying how much is left, as the HTTP store does. */
	private record SilentAboutTheEnd(InMemorySegmentStore delegate) implements SegmentStore {

		@Override
		public SegmentAllocation allocate(String key) {
			try {
				return this.delegate.allocate(key);
			}
			catch (SegmentKeyExhaustedException ex) {
				throw new SegmentKeyExhaustedException(key, ex.getMessage());
			}
		}

		@Override
		public SegmentAllocation allocate(String key, int step) {
			try {
				return this.delegate.allocate(key, step);
			}
			catch (SegmentKeyExhaustedException ex) {
				throw new SegmentKeyExhaustedException(key, ex.getMessage());
			}
		}

		@Override
		public Set<String> keys() {
			return this.delegate.keys();
		}

	}

}
