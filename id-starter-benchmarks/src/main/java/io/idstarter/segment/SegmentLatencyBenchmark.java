package io.idstarter.segment;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

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
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Does the double buffer hide a slow store from callers? Compares the latency distribution of single calls when every
 * store call takes 200 ms with the distribution when the store is instant; the p99.9 and p99.99 must stay close.
 *
 * <p>A store that takes 200 ms can only be hidden if a segment lasts longer than that: with a step of {@value #STEP}
 * and prefetch at 10% used, the caller must not ask for more than about {@code 0.9 * 500 / 0.2 s} = 2,250 IDs per
 * second. The caller therefore paces itself to about 1,000 calls per second (a 1 ms park before each call, outside the
 * timed region), so a segment lasts about half a second and a fetch happens every 500 calls. A design that does not
 * hide the store makes one call in 500 wait for the store, 0.2% of the samples: far above the p99.9. The step is fixed
 * (no dynamic step), or it would grow until fetches became rare and the question could not be answered.
 *
 * <p>CosId's {@code SegmentChainId} (prefetches ahead) and {@code DefaultSegmentId} (fetches when spent, under a lock)
 * are the controls: the first should hide the store, the second cannot.
 *
 * <p>Run: {@code java -jar id-starter-benchmarks/target/benchmarks.jar SegmentLatencyBenchmark}; read the
 * {@code p0.999} and {@code p0.9999} lines.
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 5)
@Measurement(iterations = 5, time = 10)
@Fork(2)
@Threads(1)
@State(Scope.Benchmark)
public class SegmentLatencyBenchmark {

	/** Size of every segment. */
	static final int STEP = 500;

	/** Pause before each call, outside the timed region. */
	static final long PACE_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

	@Param
	public Generator generator;

	@Param({ "0", "200" })
	public int storeMillis;

	SegmentBenchmark.IdSource source;

	@Setup(Level.Trial)
	public void create() {
		this.source = this.generator.create(this.storeMillis);
	}

	@TearDown(Level.Trial)
	public void close() {
		this.source.close();
	}

	/** Paces the caller; JMH does not time invocation-level helpers. */
	@Setup(Level.Invocation)
	public void pace() {
		LockSupport.parkNanos(PACE_NANOS);
	}

	@Benchmark
	public long nextId() {
		return this.source.next();
	}

	/** The implementations compared. */
	public enum Generator {

		/** CosId's {@link SegmentChainId}, whose prefetch worker keeps segments ahead of the callers. */
		COSID_SEGMENT_CHAIN {
			@Override
			SegmentBenchmark.IdSource create(int storeMillis) {
				SegmentChainId id = new SegmentChainId(distributor(storeMillis));
				return id::generate;
			}
		},

		/** CosId's {@link DefaultSegmentId}, which fetches in the caller when its one segment is spent. */
		COSID_DEFAULT_SEGMENT {
			@Override
			SegmentBenchmark.IdSource create(int storeMillis) {
				DefaultSegmentId id = new DefaultSegmentId(distributor(storeMillis));
				return id::generate;
			}
		};

		abstract SegmentBenchmark.IdSource create(int storeMillis);

		/** A distributor in memory that takes {@code storeMillis} per call, as CosId's own mock does. */
		private static IdSegmentDistributor distributor(int storeMillis) {
			return new SlowAtomicDistributor(storeMillis);
		}

	}

	/** CosId's in-memory distributor with a delay; its own {@code Mock} rounds the delay through a TPS figure. */
	static final class SlowAtomicDistributor implements IdSegmentDistributor {

		private final AtomicLong maxId = new AtomicLong();

		private final long delayNanos;

		SlowAtomicDistributor(int delayMillis) {
			this.delayNanos = TimeUnit.MILLISECONDS.toNanos(delayMillis);
		}

		@Override
		public String getNamespace() {
			return "bench";
		}

		@Override
		public String getName() {
			return SegmentBenchmark.KEY;
		}

		@Override
		public long getStep() {
			return STEP;
		}

		@Override
		public long nextMaxId(long step) {
			long deadline = System.nanoTime() + this.delayNanos;
			for (long left = this.delayNanos; left > 0; left = deadline - System.nanoTime()) {
				LockSupport.parkNanos(left);
			}
			return this.maxId.addAndGet(step);
		}

	}

}
