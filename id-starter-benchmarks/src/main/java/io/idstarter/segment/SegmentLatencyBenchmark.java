package io.idstarter.segment;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import io.idstarter.IdWorkerListener;
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
 * are the controls: the first should hide the store, the second cannot. Every generator first takes
 * {@value #WARM_UP_IDS} IDs at full speed from an instant store, then {@value #POOL_WARM_UP_RANGES} ranges at full
 * speed from a store that takes just over 1 ms (at full speed our waiting callers run an instant store's fetch
 * themselves; over 1 ms they leave it to the pool thread, which is where it runs when paced), so that the code that
 * runs once per segment is compiled like the rest (see {@link #warmSlowPaths}); then the store gets its delay.
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

	/** IDs taken at full speed with an instant store before the store is slowed down and pacing starts. */
	static final int WARM_UP_IDS = 2_000_000;

	/**
	 * Ranges then taken at full speed from a store just slower than what our waiting callers fetch themselves (1 ms),
	 * so that the fetch also runs on the pool thread often enough to be compiled, as it runs when paced.
	 */
	static final int POOL_WARM_UP_RANGES = 5_000;

	/** Store delay during the pool warm-up. */
	static final Duration POOL_WARM_UP_DELAY = Duration.ofMillis(1).plusNanos(100_000);

	@Param
	public Generator generator;

	@Param({ "0", "200" })
	public int storeMillis;

	/**
	 * Whether the slow paths (prefetch request, segment switch, fetch) are JIT-compiled before measuring, by taking
	 * IDs at full speed first. Paced at 1,000 calls per second they run only twice a second and
	 * would stay interpreted for minutes; {@code -p warmSlowPaths=false} shows that cold-code cost.
	 */
	@Param({ "true" })
	public boolean warmSlowPaths;

	LatencySource source;

	@Setup(Level.Trial)
	public void create() {
		this.source = this.generator.create();
		if (this.warmSlowPaths) {
			for (int i = 0; i < WARM_UP_IDS; i++) {
				this.source.next();
			}
			this.source.setStoreDelay(POOL_WARM_UP_DELAY);
			for (int i = 0; i < POOL_WARM_UP_RANGES * STEP; i++) {
				this.source.next();
			}
		}
		this.source.setStoreDelay(Duration.ofMillis(this.storeMillis));
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

		/** Ours: the double buffer, prefetching when 10% of a segment is used. */
		ID_STARTER {
			@Override
			LatencySource create() {
				InMemorySegmentStore store = SegmentFixtures.store(STEP);
				SegmentIdGenerator generator = SegmentFixtures.started(store,
						SegmentFixtures.fixedStep().maxWait(SegmentFixtures.MAX_WAIT).build(), IdWorkerListener.NONE);
				return new LatencySource() {
					@Override
					public long next() {
						return generator.nextId(SegmentFixtures.KEY);
					}

					@Override
					public void setStoreDelay(Duration delay) {
						store.setLatency(delay);
					}

					@Override
					public void close() {
						generator.close();
					}
				};
			}
		},

		/** CosId's {@link SegmentChainId}, whose prefetch worker keeps segments ahead of the callers. */
		COSID_SEGMENT_CHAIN {
			@Override
			LatencySource create() {
				SlowAtomicDistributor distributor = new SlowAtomicDistributor();
				SegmentChainId id = new SegmentChainId(distributor);
				return cosId(id::generate, distributor);
			}
		},

		/** CosId's {@link DefaultSegmentId}, which fetches in the caller when its one segment is spent. */
		COSID_DEFAULT_SEGMENT {
			@Override
			LatencySource create() {
				SlowAtomicDistributor distributor = new SlowAtomicDistributor();
				DefaultSegmentId id = new DefaultSegmentId(distributor);
				return cosId(id::generate, distributor);
			}
		},

		/**
		 * A bare {@link AtomicLong}, no store at all: the floor of this measurement on this machine in this run (the
		 * timer, the pacing, the scheduler's jitter), which the other tails can be read against.
		 */
		ATOMIC_LONG {
			@Override
			LatencySource create() {
				AtomicLong counter = new AtomicLong();
				return new LatencySource() {
					@Override
					public long next() {
						return counter.getAndIncrement();
					}

					@Override
					public void setStoreDelay(Duration delay) {
					}
				};
			}
		};

		abstract LatencySource create();

		private static LatencySource cosId(SegmentBenchmark.IdSource id, SlowAtomicDistributor distributor) {
			return new LatencySource() {
				@Override
				public long next() {
					return id.next();
				}

				@Override
				public void setStoreDelay(Duration delay) {
					distributor.delayNanos = delay.toNanos();
				}
			};
		}

	}

	/** A generator under test whose store can be slowed down after the warm-up. */
	interface LatencySource extends SegmentBenchmark.IdSource {

		void setStoreDelay(Duration delay);

	}

	/** CosId's in-memory distributor with a delay; its own {@code Mock} rounds the delay through a TPS figure. */
	static final class SlowAtomicDistributor implements IdSegmentDistributor {

		private final AtomicLong maxId = new AtomicLong();

		/** Delay of every call from now on. */
		volatile long delayNanos;

		@Override
		public String getNamespace() {
			return "bench";
		}

		@Override
		public String getName() {
			return SegmentFixtures.KEY;
		}

		@Override
		public long getStep() {
			return STEP;
		}

		@Override
		public long nextMaxId(long step) {
			long delay = this.delayNanos;
			long deadline = System.nanoTime() + delay;
			for (long left = delay; left > 0; left = deadline - System.nanoTime()) {
				LockSupport.parkNanos(left);
			}
			return this.maxId.addAndGet(step);
		}

	}

}
