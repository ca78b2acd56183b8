package io.idstarter.segment;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import me.ahoo.cosid.segment.DefaultSegmentId;
import me.ahoo.cosid.segment.IdSegmentDistributor;
import me.ahoo.cosid.segment.SegmentChainId;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * How many IDs per second does the segment path hand out from memory, at one and at two threads, against CosId's two
 * segment generators and a bare {@link AtomicLong}?
 *
 * <p>Every store is in memory and instant, so what is timed is the hot path alone: take the next number of the current
 * segment, and now and then switch segments and start a prefetch. {@code step} is the key's configured step: what
 * every store call allocates for the fixed-step generators, and where the growing ones start (ours: Leaf's dynamic
 * step, doubling while a range lasts less than 15 minutes; CosId's chain: doubling the segments per store call while
 * callers go hungry). At a fixed step of 1,000 a range lasts a few microseconds, less than it takes to hand the
 * prefetch to another thread. The {@link Generator} parameter chooses the implementation; all of them share one number space
 * across the calling threads except {@link Generator#ATOMIC_LONG_PER_THREAD}, the upper bound of any design (one
 * uncontended counter per thread, no sharing at all). {@link Generator#ATOMIC_LONG_SHARED} is the floor a strict,
 * shared counter can reach under contention; at two threads only per-thread chunks (ours, opt-in) can beat it.
 *
 * <p>Run, for the sum over threads: {@code java -jar id-starter-benchmarks/target/benchmarks.jar SegmentBenchmark -t 1}
 * and again with {@code -t 2}.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(2)
@State(Scope.Benchmark)
public class SegmentBenchmark {

	@Param
	public Generator generator;

	@Param({ "1000", "100000" })
	public int step;

	/** The generator every thread shares; {@code null} for per-thread generators. */
	IdSource shared;

	@Setup(Level.Trial)
	public void createShared() {
		if (!this.generator.perThread) {
			this.shared = this.generator.create(this.step);
		}
	}

	@TearDown(Level.Trial)
	public void closeShared() {
		if (this.shared != null) {
			this.shared.close();
		}
	}

	@Benchmark
	public long nextId(Caller caller) {
		return caller.source.next();
	}

	/** One calling thread: the shared generator, or its own. */
	@State(Scope.Thread)
	public static class Caller {

		IdSource source;

		@Setup(Level.Trial)
		public void attach(SegmentBenchmark benchmark) {
			this.source = (benchmark.shared != null) ? benchmark.shared : benchmark.generator.create(benchmark.step);
		}

		@TearDown(Level.Trial)
		public void detach(SegmentBenchmark benchmark) {
			if (this.source != benchmark.shared) {
				this.source.close();
			}
		}

	}

	/** The implementations compared. */
	public enum Generator {

		/**
		 * Ours with the default options, strict: every thread claims from the key's shared segment, IDs increase across
		 * threads; Leaf's dynamic step grows ranges that run out fast, from the configured step up to 1,000,000.
		 */
		ID_STARTER(false) {
			@Override
			IdSource create(int step) {
				return SegmentFixtures.source(step, SegmentOptions.builder());
			}
		},

		/**
		 * Ours with the default options and per-thread chunks of {@value SegmentFixtures#THREAD_CHUNK} numbers (opt-in):
		 * the shared cursor is touched once per chunk; IDs increase per thread only.
		 */
		ID_STARTER_CHUNKED(false) {
			@Override
			IdSource create(int step) {
				return SegmentFixtures.source(step,
						SegmentOptions.builder().threadChunkSize(SegmentFixtures.THREAD_CHUNK));
			}
		},

		/**
		 * Ours, strict, with the dynamic step off: one store call per {@code step} IDs, like
		 * {@link #COSID_DEFAULT_SEGMENT}.
		 */
		ID_STARTER_FIXED_STEP(false) {
			@Override
			IdSource create(int step) {
				return SegmentFixtures.source(step, SegmentFixtures.fixedStep());
			}
		},

		/** Ours with thread chunks and the dynamic step off. */
		ID_STARTER_CHUNKED_FIXED_STEP(false) {
			@Override
			IdSource create(int step) {
				return SegmentFixtures.source(step,
						SegmentFixtures.fixedStep().threadChunkSize(SegmentFixtures.THREAD_CHUNK));
			}
		},

		/**
		 * CosId's {@link SegmentChainId}: a lock-free chain of segments kept ahead by a prefetch worker. When callers go
		 * hungry it doubles how many segments it takes per store call, so like {@link #ID_STARTER} its ranges grow.
		 */
		COSID_SEGMENT_CHAIN(false) {
			@Override
			IdSource create(int step) {
				SegmentChainId id = new SegmentChainId(new IdSegmentDistributor.Atomic(step));
				return id::generate;
			}
		},

		/**
		 * CosId's {@link DefaultSegmentId}: one segment, refilled by the caller under a lock when spent (no prefetch),
		 * one store call per {@code step} IDs.
		 */
		COSID_DEFAULT_SEGMENT(false) {
			@Override
			IdSource create(int step) {
				DefaultSegmentId id = new DefaultSegmentId(new IdSegmentDistributor.Atomic(step));
				return id::generate;
			}
		},

		/** One {@link AtomicLong} shared by every thread: a strict counter with nothing else to do. */
		ATOMIC_LONG_SHARED(false) {
			@Override
			IdSource create(int step) {
				AtomicLong counter = new AtomicLong();
				return counter::getAndIncrement;
			}
		},

		/** One {@link AtomicLong} per thread: no sharing at all (not a valid generator, an upper bound). */
		ATOMIC_LONG_PER_THREAD(true) {
			@Override
			IdSource create(int step) {
				AtomicLong counter = new AtomicLong();
				return counter::getAndIncrement;
			}
		};

		/** Whether every thread gets its own instance. */
		final boolean perThread;

		Generator(boolean perThread) {
			this.perThread = perThread;
		}

		abstract IdSource create(int step);

	}

	/** A generator under test; one implementation per forked JVM, so the call site stays monomorphic. */
	@FunctionalInterface
	interface IdSource {

		long next();

		default void close() {
		}

	}

}
