package io.idstarter.snowflake;

import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import io.idstarter.IdWorkerListener;
import io.idstarter.time.TimeSource;
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
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What does one {@link SnowflakeIdGenerator#nextId()} cost, alone and when threads contend for the one CAS, and how
 * does that compare with {@code UUID.randomUUID()}?
 *
 * <p>The {@code default} layout caps a worker at 4096 IDs/ms (about 4.1 M/s), so beyond that the benchmark measures
 * waiting for the next millisecond; the {@code wide} layout (21 sequence bits, 2 M IDs/ms) lifts the cap to show the
 * cost of the hot path itself. {@code lease} grants an expiring worker grant, as the lease keeper does, which adds a
 * {@code nanoTime()} read per call.
 *
 * <p>Run: {@code java -jar id-starter-benchmarks/target/benchmarks.jar SnowflakeIdGeneratorBenchmark}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(1)
public class SnowflakeIdGeneratorBenchmark {

	@Param({ "default", "wide" })
	public String layout;

	@Param({ "fixed", "lease" })
	public String grant;

	private SnowflakeIdGenerator generator;

	@Setup(Level.Trial)
	public void setUp() {
		SnowflakeLayout layout = "wide".equals(this.layout)
				? SnowflakeLayout.of(SnowflakeLayout.DEFAULT_EPOCH, 41, 1, 21) : SnowflakeLayout.defaults();
		this.generator = new SnowflakeIdGenerator(layout, TimeSource.system(), ClockBackwardsPolicy.defaults(),
				IdWorkerListener.NONE);
		this.generator.grant("lease".equals(this.grant)
				? new WorkerGrant(1, WorkerGrant.NO_FLOOR, WorkerGrant.NO_CEILING,
						System.nanoTime() + Duration.ofHours(1).toNanos())
				: WorkerGrant.fixed(1));
	}

	@Benchmark
	@Threads(1)
	public long nextId() {
		return this.generator.nextId();
	}

	@Benchmark
	@Threads(4)
	public long nextIdContended() {
		return this.generator.nextId();
	}

	@Benchmark
	@Threads(1)
	public long[] nextIds100() {
		return this.generator.nextIds("any", 100);
	}

	@Benchmark
	@Threads(1)
	public UUID uuidBaseline() {
		return UUID.randomUUID();
	}

}
