package io.idstarter.segment;

import java.time.Duration;

import io.idstarter.IdWorkerListener;
import io.idstarter.time.TimeSource;

/**
 * Builds our segment generator the way the benchmarks use it: one key in an {@link InMemorySegmentStore}, started,
 * its first range already fetched.
 */
final class SegmentFixtures {

	/** Business key of every generator here. */
	static final String KEY = "bench";

	/** Thread chunk size of the chunked generators: mid-range of the 64 to 1024 the option's javadoc suggests. */
	static final int THREAD_CHUNK = 256;

	/** Maximum wait generous enough that a loaded benchmark machine never fails a call. */
	static final Duration MAX_WAIT = Duration.ofSeconds(30);

	private SegmentFixtures() {
	}

	/** A store holding {@link #KEY} with the given configured step, starting at 1. */
	static InMemorySegmentStore store(int step) {
		InMemorySegmentStore store = new InMemorySegmentStore();
		store.createKey(KEY, 1, step, "benchmark");
		return store;
	}

	/** Options with the step fixed at the key's configured step (the dynamic step never grows it). */
	static SegmentOptions.Builder fixedStep() {
		return SegmentOptions.builder()
			.dynamicStep(new DynamicStep(DynamicStep.DEFAULT_EXPAND_BELOW, DynamicStep.DEFAULT_SHRINK_ABOVE, 1));
	}

	/** Starts a generator and takes one ID, so that the first range is in memory before measuring. */
	static SegmentIdGenerator started(SegmentStore store, SegmentOptions options, IdWorkerListener listener) {
		SegmentIdGenerator generator = new SegmentIdGenerator(store, options, TimeSource.system(), listener, null);
		generator.start();
		generator.nextId(KEY);
		return generator;
	}

	/**
	 * An ID source over a started generator for {@link #KEY}, in a store whose configured step is {@code step}.
	 */
	static SegmentBenchmark.IdSource source(int step, SegmentOptions.Builder options) {
		SegmentIdGenerator generator = started(store(step), options.maxWait(MAX_WAIT).build(), IdWorkerListener.NONE);
		return new SegmentBenchmark.IdSource() {
			@Override
			public long next() {
				return generator.nextId(KEY);
			}

			@Override
			public void close() {
				generator.close();
			}
		};
	}

}
