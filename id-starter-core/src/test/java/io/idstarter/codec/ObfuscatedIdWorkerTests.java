package io.idstarter.codec;

import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import io.idstarter.IdWorker;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.assertj.core.api.Assertions.within;

class ObfuscatedIdWorkerTests {

	private static final String DEFAULT_KEY = "default";

	private final IdPermutation permutation = IdPermutation.of("worker-test-secret-0001");

	private final IdPermutation orderPermutation = IdPermutation.of("worker-test-secret-order");

	private final CountingIdWorker raw = new CountingIdWorker();

	@Test
	void everyIdOfTheWrappedWorkerIsPermuted() {
		ObfuscatedIdWorker worker = new ObfuscatedIdWorker(this.raw, this.permutation);
		assertThat(worker.nextId()).isEqualTo(this.permutation.encode(1));
		assertThat(worker.nextId()).isEqualTo(this.permutation.encode(2));
		assertThat(worker.nextId("order")).isEqualTo(this.permutation.encode(1));
		assertThat(worker.nextIds("order", 3)).containsExactly(this.permutation.encode(2), this.permutation.encode(3),
				this.permutation.encode(4));
		assertThat(worker.nextIdString()).isEqualTo(Long.toString(this.permutation.encode(3)));
		assertThat(worker.nextIdString("order")).isEqualTo(Long.toString(this.permutation.encode(5)));
	}

	@Test
	void revealGivesTheRawIdBack() {
		ObfuscatedIdWorker worker = new ObfuscatedIdWorker(this.raw, this.permutation);
		for (int i = 1; i <= 1000; i++) {
			long publicId = worker.nextId("order");
			assertThat(worker.reveal(publicId)).isEqualTo(i);
			assertThat(worker.reveal("order", publicId)).isEqualTo(i);
		}
		assertThat(worker.revealString(worker.nextIdString())).isEqualTo(1);
	}

	@Test
	void revealedSnowflakeIdsStillDecode() {
		long timestamp = 123_456_789_012L;
		long workerId = 517;
		IdWorker snowflakeLike = new CountingIdWorker() {
			@Override
			public long nextId() {
				return (timestamp << 22) | (workerId << 12) | 7;
			}
		};
		ObfuscatedIdWorker worker = new ObfuscatedIdWorker(snowflakeLike, this.permutation);
		long publicId = worker.nextId();
		assertThat(publicId >>> 22).isNotEqualTo(timestamp);
		long rawId = worker.reveal(publicId);
		assertThat(rawId >>> 22).isEqualTo(timestamp);
		assertThat((rawId >>> 12) & 1023).isEqualTo(workerId);
		assertThat(rawId & 4095).isEqualTo(7);
	}

	@Test
	void publicIdsOfConsecutiveRawIdsAreUniquePositiveAndUnordered() {
		ObfuscatedIdWorker worker = new ObfuscatedIdWorker(this.raw, this.permutation);
		long[] ids = worker.nextIds("order", 100_000);
		int ascending = 0;
		for (int i = 1; i < ids.length; i++) {
			if (ids[i] > ids[i - 1]) {
				ascending++;
			}
		}
		assertThat(ascending / (double) (ids.length - 1)).isCloseTo(0.5, within(0.02));
		assertThat(Arrays.stream(ids).min().orElseThrow()).isPositive();
		assertThat(Arrays.stream(ids).distinct().count()).isEqualTo(ids.length);
	}

	@Test
	void stringFormsUseTheCodec() {
		ObfuscatedIdWorker worker = ObfuscatedIdWorker.builder(this.raw)
			.permutation(this.permutation)
			.codec(Crockford32.INSTANCE)
			.build();
		String first = worker.nextIdString();
		String order = worker.nextIdString("order");
		assertThat(first).isEqualTo(Crockford32.INSTANCE.encode(this.permutation.encode(1)));
		assertThat(order).hasSize(13).isEqualTo(Crockford32.INSTANCE.encode(this.permutation.encode(1)));
		assertThat(worker.revealString(first.toLowerCase(java.util.Locale.ROOT))).isEqualTo(1);
		assertThat(worker.revealString("order", order)).isEqualTo(1);
		assertThatIllegalArgumentException().isThrownBy(() -> worker.revealString("12345"))
			.withMessage("Crockford32 ID must be 13 characters, got 5: '12345'");
	}

	@Test
	void decimalStringFormsRejectWhatIsNotANumber() {
		ObfuscatedIdWorker worker = new ObfuscatedIdWorker(this.raw, this.permutation);
		assertThatIllegalArgumentException().isThrownBy(() -> worker.revealString("12a"))
			.withMessage("public ID must be a decimal number in [0, 9223372036854775807]: '12a'");
		assertThatIllegalArgumentException().isThrownBy(() -> worker.revealString("-12"))
			.withMessage("obfuscated ID must be in [0, 9223372036854775807]: -12");
	}

	@Test
	void theWrappedWorkersOwnStringFormsAreNotUsed() {
		IdWorker leaky = new CountingIdWorker() {
			@Override
			public String nextIdString() {
				return "raw-" + nextId();
			}

			@Override
			public String nextIdString(String key) {
				return "raw-" + nextId(key);
			}
		};
		ObfuscatedIdWorker worker = new ObfuscatedIdWorker(leaky, this.permutation);
		assertThat(worker.nextIdString()).isEqualTo(Long.toString(this.permutation.encode(1)));
		assertThat(worker.nextIdString("order")).isEqualTo(Long.toString(this.permutation.encode(1)));
	}

	@Test
	void keysWithTheirOwnPermutationUseItAndOtherKeysStayPlain() {
		ObfuscatedIdWorker worker = ObfuscatedIdWorker.builder(this.raw)
			.permutation("order", this.orderPermutation)
			.permutation("invoice", this.permutation)
			.build();
		long order = worker.nextId("order");
		long invoice = worker.nextId("invoice");
		assertThat(order).isEqualTo(this.orderPermutation.encode(1));
		assertThat(invoice).isEqualTo(this.permutation.encode(1));
		assertThat(worker.nextId("audit")).isEqualTo(1);
		assertThat(worker.nextId()).isEqualTo(1);
		assertThat(worker.nextIds("audit", 2)).containsExactly(2, 3);
		assertThat(worker.nextIds("order", 2)).containsExactly(this.orderPermutation.encode(2),
				this.orderPermutation.encode(3));
		assertThat(worker.reveal("order", order)).isEqualTo(1);
		assertThat(worker.reveal("invoice", invoice)).isEqualTo(1);
		assertThat(worker.reveal("audit", 2)).isEqualTo(2);
		assertThat(worker.reveal(5)).isEqualTo(5);
	}

	@Test
	void theDefaultPermutationCoversKeysWithoutTheirOwn() {
		ObfuscatedIdWorker worker = ObfuscatedIdWorker.builder(this.raw)
			.permutation(this.permutation)
			.permutation("order", this.orderPermutation)
			.build();
		assertThat(worker.nextId("order")).isEqualTo(this.orderPermutation.encode(1));
		assertThat(worker.nextId("audit")).isEqualTo(this.permutation.encode(1));
		assertThat(worker.nextId()).isEqualTo(this.permutation.encode(1));
		assertThat(worker.reveal("audit", this.permutation.encode(1))).isEqualTo(1);
	}

	@Test
	void revealRejectsNegativeIdsOfPlainKeysToo() {
		ObfuscatedIdWorker worker = ObfuscatedIdWorker.builder(this.raw)
			.permutation("order", this.orderPermutation)
			.build();
		assertThatIllegalArgumentException().isThrownBy(() -> worker.reveal(-3))
			.withMessage("public ID must be in [0, 9223372036854775807]: -3");
		assertThatIllegalArgumentException().isThrownBy(() -> worker.reveal("order", -3))
			.withMessage("obfuscated ID must be in [0, 9223372036854775807]: -3");
	}

	@Test
	void theBuilderNeedsAPermutation() {
		assertThatIllegalStateException().isThrownBy(() -> ObfuscatedIdWorker.builder(this.raw).build())
			.withMessageStartingWith("no permutation was set");
	}

	@Test
	void theBuilderRejectsASecondPermutationForOneKey() {
		ObfuscatedIdWorker.Builder builder = ObfuscatedIdWorker.builder(this.raw)
			.permutation("order", this.orderPermutation);
		assertThatIllegalStateException().isThrownBy(() -> builder.permutation("order", this.permutation))
			.withMessage("permutation of key 'order' was already set");
	}

	@Test
	void batchesKeepTheWrappedWorkersCountRule() {
		ObfuscatedIdWorker worker = new ObfuscatedIdWorker(this.raw, this.permutation);
		assertThatIllegalArgumentException().isThrownBy(() -> worker.nextIds("order", 0))
			.withMessage("count must be at least 1: 0");
	}

	@Test
	void theWrappedWorkerIsReachable() {
		ObfuscatedIdWorker worker = new ObfuscatedIdWorker(this.raw, this.permutation);
		assertThat(worker.delegate()).isSameAs(this.raw);
		assertThat(worker.toString()).contains("default key permuted", "strings decimal").doesNotContain("secret");
	}

	/** Issues 1, 2, 3, ... per key; the default key counts on its own. */
	private static class CountingIdWorker implements IdWorker {

		private final Map<String, AtomicLong> counters = new ConcurrentHashMap<>();

		@Override
		public long nextId() {
			return nextId(DEFAULT_KEY);
		}

		@Override
		public long nextId(String key) {
			return this.counters.computeIfAbsent(key, (k) -> new AtomicLong()).incrementAndGet();
		}

	}

}
