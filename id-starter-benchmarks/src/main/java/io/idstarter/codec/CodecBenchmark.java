package io.idstarter.codec;

import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What does it cost, per ID, to turn an ID into its public form: the keyed permutation, the fixed-width text forms
 * ({@link Crockford32}, {@link Base62}), and the inverse of each? Baselines: {@code Long.toString} (the decimal string
 * every {@code nextIdString} falls back to) and {@code UUID.randomUUID()}, the ID one would use instead of any of this.
 *
 * <p>Inputs are consecutive Snowflake-sized IDs (about 2^60), the case the permutation exists for; decoders cycle
 * through 1,024 precomputed forms so the JIT cannot fold them. One thread: these are pure functions, their cost does
 * not depend on contention (except {@code UUID.randomUUID()}, which shares one {@code SecureRandom}).
 *
 * <p>Run: {@code java -jar id-starter-benchmarks/target/benchmarks.jar CodecBenchmark}
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(2)
@Threads(1)
@State(Scope.Thread)
public class CodecBenchmark {


	/** A Snowflake ID of late 2026 with the default layout: 41 bits of milliseconds, then 22 bits. */
	private static final long FIRST_ID = 0x0C3A_5D7E_1234_5000L;

	/** Number of precomputed forms the decoders cycle through; a power of two. */
	private static final int FORMS = 1024;

	private final IdPermutation permutation = IdPermutation.of("benchmark secret, 32 bytes long!");

	private final long[] permuted = new long[FORMS];

	private final String[] crockford32 = new String[FORMS];

	private final String[] base62 = new String[FORMS];

	private long next = FIRST_ID;

	private int index;

	/** Counter of {@link #atomicLong()}. */
	private final AtomicLong counter = new AtomicLong();

	@Setup
	public void precompute() {
		for (int i = 0; i < FORMS; i++) {
			this.permuted[i] = this.permutation.encode(FIRST_ID + i);
			this.crockford32[i] = Crockford32.INSTANCE.encode(FIRST_ID + i);
			this.base62[i] = Base62.INSTANCE.encode(FIRST_ID + i);
		}
	}

	@Benchmark
	public long permutationEncode() {
		return this.permutation.encode(this.next++);
	}

	@Benchmark
	public long permutationDecode() {
		return this.permutation.decode(this.permuted[this.index++ & (FORMS - 1)]);
	}

	@Benchmark
	public String crockford32Encode() {
		return Crockford32.INSTANCE.encode(this.next++);
	}

	@Benchmark
	public long crockford32Decode() {
		return Crockford32.INSTANCE.decode(this.crockford32[this.index++ & (FORMS - 1)]);
	}

	@Benchmark
	public String base62Encode() {
		return Base62.INSTANCE.encode(this.next++);
	}

	@Benchmark
	public long base62Decode() {
		return Base62.INSTANCE.decode(this.base62[this.index++ & (FORMS - 1)]);
	}

	/** Permutation and text form together: what {@code ObfuscatedIdWorker.nextIdString} adds to an ID. */
	@Benchmark
	public String permutationThenCrockford32() {
		return Crockford32.INSTANCE.encode(this.permutation.encode(this.next++));
	}

	/** The machine's speed in this run: one bare {@code AtomicLong.getAndIncrement()}, what a single call is held to. */
	@Benchmark
	public long atomicLong() {
		return this.counter.getAndIncrement();
	}

	/** Baseline: the decimal form. */
	@Benchmark
	public String decimalEncode() {
		return Long.toString(this.next++);
	}

	/** Baseline: a random UUID instead of a 64-bit ID. */
	@Benchmark
	public UUID uuidRandom() {
		return UUID.randomUUID();
	}

	/** Baseline: a random UUID in its 36-character text form. */
	@Benchmark
	public String uuidRandomString() {
		return UUID.randomUUID().toString();
	}

}
