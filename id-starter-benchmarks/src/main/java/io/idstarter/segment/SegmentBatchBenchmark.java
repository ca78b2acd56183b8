package io.idstarter.segment;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import io.idstarter.IdWorkerListener;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * What does {@code nextIds(key, 1000)} cost, against 1,000 single {@code nextId(key)} calls and against one?
 *
 * <p>A batch claims each run of IDs from a segment with one atomic add and then only writes the array, so it should
 * cost far less than 1,000 calls, each with its own map lookup and atomic add. {@link #arrayFill()} is the floor no
 * batch can go below: allocating the 1,000-element array and writing consecutive numbers into it. The key starts at
 * step 1,000 with the default dynamic step, which grows the step to 1,000,000 within the warm-up, so a batch crosses
 * into a new segment once in 1,000 batches, as it would in production.
 *
 * <p>Scores are per invocation: per batch, per 1,000 single calls, per single call.
 *
 * <p>Run: {@code java -jar id-starter-benchmarks/target/benchmarks.jar SegmentBatchBenchmark}
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(2)
@Threads(1)
@State(Scope.Benchmark)
public class SegmentBatchBenchmark {


	/** IDs per batch. */
	static final int BATCH = 1000;

	private SegmentIdGenerator generator;

	private long next;

	/** Counter of {@link #atomicLong()}. */
	private final AtomicLong counter = new AtomicLong();

	@Setup(Level.Trial)
	public void start() {
		this.generator = SegmentFixtures.started(SegmentFixtures.store(1000),
				SegmentOptions.builder().maxWait(SegmentFixtures.MAX_WAIT).build(), IdWorkerListener.NONE);
	}

	@TearDown(Level.Trial)
	public void close() {
		this.generator.close();
	}

	@Benchmark
	public long[] batch() {
		return this.generator.nextIds(SegmentFixtures.KEY, BATCH);
	}

	@Benchmark
	public void singles(Blackhole blackhole) {
		for (int i = 0; i < BATCH; i++) {
			blackhole.consume(this.generator.nextId(SegmentFixtures.KEY));
		}
	}

	@Benchmark
	public long single() {
		return this.generator.nextId(SegmentFixtures.KEY);
	}

	/** The machine's speed in this run: one bare {@code AtomicLong.getAndIncrement()}, what a single call is held to. */
	@Benchmark
	public long atomicLong() {
		return this.counter.getAndIncrement();
	}

	/** Floor: a new array of {@value #BATCH} consecutive numbers, with no generator at all. */
	@Benchmark
	public long[] arrayFill() {
		long[] ids = new long[BATCH];
		long first = this.next;
		for (int i = 0; i < BATCH; i++) {
			ids[i] = first + i;
		}
		this.next = first + BATCH;
		return ids;
	}

}
