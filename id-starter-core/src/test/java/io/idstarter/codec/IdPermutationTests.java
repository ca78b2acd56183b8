package io.idstarter.codec;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.stream.LongStream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.within;

class IdPermutationTests {

	private static final String SECRET = "f0Q7yE2mK9vX4tLr8sWz1nB6";

	/** Sampled trials per input bit in the avalanche checks; the standard error of one pair's rate is 0.011. */
	private static final int AVALANCHE_SAMPLES = 2000;

	/** How far a bit's flip rate may stray from one half; about 9 standard errors, so a good network never fails. */
	private static final double PAIR_TOLERANCE = 0.1;

	private final IdPermutation permutation = IdPermutation.of(SECRET);

	@Test
	void encodeAndDecodeAreInversesAtTheEdges() {
		long[] edges = edges();
		long[] images = new long[edges.length];
		for (int i = 0; i < edges.length; i++) {
			long id = edges[i];
			images[i] = this.permutation.encode(id);
			assertThat(images[i]).as("encode(%d)", id).isNotNegative();
			assertThat(this.permutation.decode(images[i])).as("decode(encode(%d))", id).isEqualTo(id);
			long preimage = this.permutation.decode(id);
			assertThat(preimage).as("decode(%d)", id).isNotNegative();
			assertThat(this.permutation.encode(preimage)).as("encode(decode(%d))", id).isEqualTo(id);
		}
		assertThat(images).as("public forms of the edges").doesNotHaveDuplicates();
	}

	@Test
	void encodeAndDecodeAreInversesForRandomIds() {
		SplittableRandom random = new SplittableRandom(1);
		for (int i = 0; i < 1_000_000; i++) {
			long id = random.nextLong(Long.MAX_VALUE) + 1;
			long encoded = this.permutation.encode(id);
			assertThat(encoded).isPositive();
			if (this.permutation.decode(encoded) != id || this.permutation.encode(this.permutation.decode(id)) != id) {
				throw new AssertionError("not inverse at " + id);
			}
		}
	}

	@Test
	void tenMillionConsecutiveIdsGetTenMillionDistinctPositivePublicForms() {
		assertDistinctAndPositive(1, 10_000_000);
	}

	@Test
	void theMillionLargestIdsGetDistinctPositivePublicForms() {
		assertDistinctAndPositive(Long.MAX_VALUE - 999_999, 1_000_000);
	}

	@Test
	void zeroMapsToZeroAndNoPositiveIdMapsToZero() {
		assertThat(this.permutation.encode(0)).isZero();
		assertThat(this.permutation.decode(0)).isZero();
		// The ID the plain network sends to 0 gets the plain image of 0 instead.
		long preimageOfZero = this.permutation.backward(0);
		assertThat(this.permutation.forward(preimageOfZero)).isZero();
		assertThat(preimageOfZero).isPositive();
		assertThat(this.permutation.encode(preimageOfZero)).isEqualTo(this.permutation.forward(0)).isPositive();
		assertThat(this.permutation.decode(this.permutation.forward(0))).isEqualTo(preimageOfZero);
	}

	@Test
	void publicFormsAreFixedForAGivenSecret() {
		// Public IDs handed out must decode forever: if this fails, the change breaks every deployed public ID.
		// The values were computed by an independent implementation (HKDF from Python's hmac module, RFC 5869).
		assertThat(LongStream.of(1, 2, 3, 1_000_000, 1L << 40, Long.MAX_VALUE).map(this.permutation::encode).toArray())
			.containsExactly(8249143537537354226L, 6157880897790624220L, 6634431183708669367L, 2859915689760006474L,
					330970786278302803L, 84708488426070725L);
	}

	@Test
	void aStringSecretAndItsUtf8BytesGiveTheSamePermutation() {
		IdPermutation fromBytes = IdPermutation.of(SECRET.getBytes(StandardCharsets.UTF_8));
		SplittableRandom random = new SplittableRandom(2);
		for (int i = 0; i < 10_000; i++) {
			long id = random.nextLong(Long.MAX_VALUE);
			assertThat(fromBytes.encode(id)).isEqualTo(this.permutation.encode(id));
		}
	}

	@Test
	void aDifferentSecretGivesADifferentPermutation() {
		IdPermutation other = IdPermutation.of(SECRET.substring(0, SECRET.length() - 1) + "5");
		SplittableRandom random = new SplittableRandom(3);
		int same = 0;
		for (int i = 0; i < 100_000; i++) {
			long id = random.nextLong(Long.MAX_VALUE);
			if (other.encode(id) == this.permutation.encode(id)) {
				same++;
			}
		}
		// For two independent permutations of 2^63 values, even one agreement in 100,000 has odds of about 1e-14.
		assertThat(same).isZero();
	}

	@Test
	void theSecretArrayIsNotKept() {
		byte[] secret = SECRET.getBytes(StandardCharsets.UTF_8);
		IdPermutation fromBytes = IdPermutation.of(secret);
		long before = fromBytes.encode(42);
		Arrays.fill(secret, (byte) 'x');
		assertThat(fromBytes.encode(42)).isEqualTo(before).isEqualTo(this.permutation.encode(42));
	}

	@Test
	void flippingOneInputBitFlipsEachOutputBitHalfTheTime() {
		double[][] rates = flipRates(this.permutation);
		for (int in = 0; in < 63; in++) {
			double mean = 0;
			for (int out = 0; out < 63; out++) {
				assertThat(rates[in][out]).as("flip rate of output bit %d for input bit %d", out, in)
					.isCloseTo(0.5, within(PAIR_TOLERANCE));
				mean += rates[in][out] / 63;
			}
			// 126,000 bit trials per input bit: standard error 0.0014.
			assertThat(mean).as("mean flip rate for input bit %d", in).isCloseTo(0.5, within(0.01));
		}
	}

	@Test
	void theAvalancheCheckCatchesANetworkWithTooFewRounds() {
		IdPermutation weak = new IdPermutation(SECRET.getBytes(StandardCharsets.UTF_8), 2);
		double worst = Arrays.stream(flipRates(weak))
			.flatMapToDouble(Arrays::stream)
			.map((rate) -> Math.abs(rate - 0.5))
			.max()
			.orElseThrow();
		assertThat(worst).isGreaterThan(PAIR_TOLERANCE);
	}

	@Test
	void consecutiveIdsGivePublicFormsInNoParticularOrder() {
		int pairs = 1_000_000;
		long start = 1_000_000_000L;
		int ascending = 0;
		long previous = this.permutation.encode(start);
		for (long id = start + 1; id <= start + pairs; id++) {
			long current = this.permutation.encode(id);
			if (current > previous) {
				ascending++;
			}
			previous = current;
		}
		// A fair coin per pair: standard error 0.0005.
		assertThat(ascending / (double) pairs).isCloseTo(0.5, within(0.005));
	}

	@Test
	void gapsBetweenConsecutivePublicFormsDoNotRepeat() {
		int count = 100_000;
		long[] gaps = new long[count];
		for (int i = 0; i < count; i++) {
			gaps[i] = this.permutation.encode(i + 2) - this.permutation.encode(i + 1);
		}
		assertThat(Arrays.stream(gaps).distinct().count()).isEqualTo(count);
	}

	@Test
	void smallIdsGetPublicFormsSpreadOverTheWholeRange() {
		int count = 100_000;
		int upperHalf = 0;
		for (long id = 1; id <= count; id++) {
			if (this.permutation.encode(id) > Long.MAX_VALUE / 2) {
				upperHalf++;
			}
		}
		// Standard error 0.0016.
		assertThat(upperHalf / (double) count).isCloseTo(0.5, within(0.01));
	}

	@Test
	void encodeRejectsNegativeIds() {
		assertThatIllegalArgumentException().isThrownBy(() -> this.permutation.encode(-1))
			.withMessage("id must be in [0, 9223372036854775807]: -1");
		assertThatIllegalArgumentException().isThrownBy(() -> this.permutation.encode(Long.MIN_VALUE))
			.withMessage("id must be in [0, 9223372036854775807]: -9223372036854775808");
	}

	@Test
	void decodeRejectsNegativeInput() {
		assertThatIllegalArgumentException().isThrownBy(() -> this.permutation.decode(-7))
			.withMessage("obfuscated ID must be in [0, 9223372036854775807]: -7");
	}

	@Test
	void secretsShorterThan16BytesAreRejected() {
		assertThatIllegalArgumentException().isThrownBy(() -> IdPermutation.of("0123456789abcde"))
			.withMessageStartingWith("secret must be at least 16 bytes (128 bits), got 15;")
			.withMessageContaining("openssl rand");
		assertThatIllegalArgumentException().isThrownBy(() -> IdPermutation.of(new byte[0]))
			.withMessageStartingWith("secret must be at least 16 bytes (128 bits), got 0;");
		// Bytes count, not characters: 7 umlauts are 14 bytes, 8 are 16.
		assertThatIllegalArgumentException().isThrownBy(() -> IdPermutation.of("äöüäöüä"))
			.withMessageStartingWith("secret must be at least 16 bytes (128 bits), got 14;");
		assertThat(IdPermutation.of("äöüäöüäö").encode(1)).isPositive();
		assertThat(IdPermutation.of("0123456789abcdef").encode(1)).isPositive();
	}

	@Test
	void secretsOfOneRepeatedCharacterAreRejected() {
		assertThatIllegalArgumentException().isThrownBy(() -> IdPermutation.of("x".repeat(32)))
			.withMessageStartingWith("secret must not be one character repeated (32 times);");
	}

	@Test
	void toStringDoesNotShowTheSecret() {
		assertThat(this.permutation).hasToString("IdPermutation[63-bit Feistel, 8 rounds]");
	}

	private void assertDistinctAndPositive(long first, int count) {
		long[] images = new long[count];
		for (int i = 0; i < count; i++) {
			images[i] = this.permutation.encode(first + i);
		}
		Arrays.sort(images);
		assertThat(images[0]).as("smallest public form").isPositive();
		for (int i = 1; i < count; i++) {
			if (images[i] == images[i - 1]) {
				throw new AssertionError("two IDs from " + first + " share the public form " + images[i]);
			}
		}
	}

	/**
	 * Returns, per input bit and output bit, how often flipping the input bit flipped the output bit over random IDs.
	 */
	private static double[][] flipRates(IdPermutation permutation) {
		SplittableRandom random = new SplittableRandom(4);
		long[][] flips = new long[63][63];
		for (int n = 0; n < AVALANCHE_SAMPLES; n++) {
			long id = random.nextLong(Long.MAX_VALUE);
			long image = permutation.forward(id);
			for (int in = 0; in < 63; in++) {
				long changed = image ^ permutation.forward(id ^ (1L << in));
				for (int out = 0; out < 63; out++) {
					flips[in][out] += (changed >>> out) & 1;
				}
			}
		}
		double[][] rates = new double[63][63];
		for (int in = 0; in < 63; in++) {
			for (int out = 0; out < 63; out++) {
				rates[in][out] = flips[in][out] / (double) AVALANCHE_SAMPLES;
			}
		}
		return rates;
	}

	/** 0 to 3, the largest 3, and every power of two with its neighbours. */
	private static long[] edges() {
		LongStream powers = LongStream.range(1, 63)
			.flatMap((bit) -> LongStream.of((1L << bit) - 1, 1L << bit, (1L << bit) + 1));
		return LongStream.concat(LongStream.of(0, 1, 2, 3, Long.MAX_VALUE - 2, Long.MAX_VALUE - 1, Long.MAX_VALUE), powers)
			.distinct()
			.toArray();
	}

}
