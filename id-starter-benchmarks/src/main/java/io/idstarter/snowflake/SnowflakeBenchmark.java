package io.idstarter.snowflake;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.concurrent.TimeUnit;

import cn.hutool.core.lang.Snowflake;
import io.idstarter.IdWorkerListener;
import io.idstarter.time.TimeSource;
import me.ahoo.cosid.snowflake.MillisecondSnowflakeId;
import org.openjdk.jmh.annotations.AuxCounters;
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
import org.openjdk.jmh.infra.ThreadParams;

/**
 * How close does each Snowflake generator get to the layout limit, and how much CPU does it burn per ID to get there?
 *
 * <p>With 12 sequence bits one worker can issue at most 4,096 IDs per millisecond, 4,096,000 per second; a caller that
 * asks faster must wait for the next millisecond. All three generators here reach the limit; the question is how they
 * wait. CosId's {@code MillisecondSnowflakeId} and Hutool's {@code Snowflake} re-read the clock in a loop (one core
 * at 100% while it waits); ours must not. {@link CpuCounters} reports, per iteration, the IDs issued and the CPU time
 * the process and the calling threads used in that time; CPU per million IDs is {@code cpuNanos / ids * 1e6}.
 *
 * <p>Run: {@code java -jar id-starter-benchmarks/target/benchmarks.jar SnowflakeBenchmark -t 1} and again with
 * {@code -t 2} (two threads share one worker: the limit stays 4,096,000 IDs/s in sum).
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(2)
@State(Scope.Benchmark)
public class SnowflakeBenchmark {

	/** IDs per second one worker can issue with 12 sequence bits. */
	public static final long LAYOUT_LIMIT_PER_SECOND = 4096L * 1000L;

	@Param
	public Generator generator;

	IdSource source;

	@Setup(Level.Trial)
	public void create() {
		this.source = this.generator.create();
	}

	@Benchmark
	public long nextId(CpuCounters counters) {
		counters.ids++;
		return this.source.next();
	}

	/**
	 * IDs issued and CPU time used per iteration. Process CPU includes every thread of the JVM (the callers, any
	 * helper thread a generator starts, the JIT, the GC) and is taken by the first caller only; thread CPU is that of
	 * the callers, summed.
	 */
	@AuxCounters(AuxCounters.Type.EVENTS)
	@State(Scope.Thread)
	public static class CpuCounters {

		private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

		/** IDs this thread asked for in the iteration. */
		public long ids;

		/** CPU time of the whole process in the iteration, in ns; 0 on every caller but the first. */
		public long processCpuNanos;

		/** CPU time of this thread in the iteration, in ns. */
		public long threadCpuNanos;

		private boolean first;

		private long processStart;

		private long threadStart;

		@Setup(Level.Iteration)
		public void start(ThreadParams threadParams) {
			this.first = threadParams.getThreadIndex() == 0;
			this.ids = 0;
			this.processCpuNanos = 0;
			this.threadCpuNanos = 0;
			this.processStart = this.first ? processCpuTime() : 0;
			this.threadStart = THREADS.getCurrentThreadCpuTime();
		}

		@TearDown(Level.Iteration)
		public void stop() {
			this.threadCpuNanos = THREADS.getCurrentThreadCpuTime() - this.threadStart;
			if (this.first) {
				this.processCpuNanos = processCpuTime() - this.processStart;
			}
		}

		private static long processCpuTime() {
			return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
				.getProcessCpuTime();
		}

	}

	/** The implementations compared, each with worker (machine) ID 1 and 12 sequence bits. */
	public enum Generator {

		/** Ours: the default layout (41-bit ms timestamp, 10-bit worker, 12-bit sequence) under a fixed grant. */
		ID_STARTER {
			@Override
			IdSource create() {
				SnowflakeIdGenerator id = new SnowflakeIdGenerator(SnowflakeLayout.defaults(), TimeSource.system(),
						ClockBackwardsPolicy.defaults(), IdWorkerListener.NONE);
				id.grant(WorkerGrant.fixed(1));
				return id::nextId;
			}
		},

		/** CosId's {@link MillisecondSnowflakeId}: 41-bit ms timestamp, 10-bit machine, 12-bit sequence. */
		COSID {
			@Override
			IdSource create() {
				MillisecondSnowflakeId id = new MillisecondSnowflakeId(1);
				return id::generate;
			}
		},

		/** Hutool's {@link Snowflake}: 41-bit ms timestamp, 5+5-bit worker and data center, 12-bit sequence. */
		HUTOOL {
			@Override
			IdSource create() {
				Snowflake id = new Snowflake(1, 1);
				return id::nextId;
			}
		},

		/**
		 * A bare {@link java.util.concurrent.atomic.AtomicLong}, no layout and no cap: not a Snowflake generator but
		 * the speed of this machine in this run, which the other figures can be read against.
		 */
		ATOMIC_LONG {
			@Override
			IdSource create() {
				java.util.concurrent.atomic.AtomicLong counter = new java.util.concurrent.atomic.AtomicLong();
				return counter::getAndIncrement;
			}
		};

		abstract IdSource create();

	}

	/** A generator under test; one implementation per forked JVM, so the call site stays monomorphic. */
	@FunctionalInterface
	interface IdSource {

		long next();

	}

}
