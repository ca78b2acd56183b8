package io.idstarter.segment;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class InMemorySegmentStoreTests {

	private final InMemorySegmentStore store = new InMemorySegmentStore();

	@Test
	void allocationsMoveTheHighMarkUpByTheStep() {
		assertThat(this.store.createKey("order", 100, 10, "orders")).isTrue();
		assertThat(this.store.allocate("order")).isEqualTo(new SegmentAllocation("order", 100, 110, 10));
		assertThat(this.store.allocate("order", 25)).isEqualTo(new SegmentAllocation("order", 110, 135, 10));
		assertThat(this.store.maxId("order")).hasValue(135);
		assertThat(this.store.allocateCalls()).isEqualTo(2);
	}

	@Test
	void existingKeyIsLeftUnchanged() {
		this.store.createKey("order", 0, 10, "");
		this.store.allocate("order");
		assertThat(this.store.createKey("order", 500, 99, "")).isFalse();
		assertThat(this.store.allocate("order")).isEqualTo(new SegmentAllocation("order", 10, 20, 10));
	}

	@Test
	void updatedStepAppliesToTheNextAllocation() {
		this.store.createKey("order", 0, 10, "");
		this.store.updateStep("order", 30);
		assertThat(this.store.allocate("order")).isEqualTo(new SegmentAllocation("order", 0, 30, 30));
		assertThatExceptionOfType(UnknownKeyException.class).isThrownBy(() -> this.store.updateStep("nope", 5));
	}

	@Test
	void unknownAndRemovedKeysAreRejected() {
		assertThatExceptionOfType(UnknownKeyException.class).isThrownBy(() -> this.store.allocate("nope"));
		this.store.createKey("order", 0, 10, "");
		assertThat(this.store.keys()).containsExactly("order");
		assertThat(this.store.removeKey("order")).isTrue();
		assertThat(this.store.keys()).isEmpty();
		assertThatExceptionOfType(UnknownKeyException.class).isThrownBy(() -> this.store.allocate("order"));
	}

	@Test
	void rangeThatWouldPassLongMaxValueIsRefused() {
		this.store.createKey("order", Long.MAX_VALUE - 10, 10, "");
		assertThat(this.store.allocate("order").end()).isEqualTo(Long.MAX_VALUE);
		assertThatExceptionOfType(SegmentStoreException.class).isThrownBy(() -> this.store.allocate("order"))
			.withMessageContaining("'order'")
			.withMessageContaining("Long.MAX_VALUE");
		assertThat(this.store.maxId("order")).hasValue(Long.MAX_VALUE);
	}

	@Test
	void invalidArgumentsAreRejectedWithTheValue() {
		assertThatIllegalArgumentException().isThrownBy(() -> this.store.createKey(" ", 0, 10, ""))
			.withMessage("key must not be blank: ' '");
		assertThatIllegalArgumentException().isThrownBy(() -> this.store.createKey("k", -1, 10, ""))
			.withMessage("first ID of key 'k' must be at least 0: -1");
		assertThatIllegalArgumentException().isThrownBy(() -> this.store.createKey("k", 0, 0, ""))
			.withMessage("step of key 'k' must be at least 1: 0");
		this.store.createKey("k", 0, 10, "");
		assertThatIllegalArgumentException().isThrownBy(() -> this.store.allocate("k", 0))
			.withMessage("step of key 'k' must be at least 1: 0");
	}

	@Test
	void outageFailsEveryCallUntilTheStoreIsBack() {
		this.store.createKey("order", 0, 10, "");
		this.store.setAvailable(false);
		assertThatExceptionOfType(SegmentStoreException.class).isThrownBy(() -> this.store.allocate("order"));
		assertThatExceptionOfType(SegmentStoreException.class).isThrownBy(this.store::keys);
		this.store.setAvailable(true);
		assertThat(this.store.allocate("order").start()).isZero();
		assertThat(this.store.keysCalls()).isEqualTo(1);
	}

	@Test
	void latencyDelaysEveryCall() {
		this.store.createKey("order", 0, 10, "");
		this.store.setLatency(Duration.ofMillis(100));
		long start = System.nanoTime();
		this.store.allocate("order");
		this.store.keys();
		assertThat(System.nanoTime() - start).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(200));
	}

	@Test
	void concurrentAllocationsNeverOverlap() throws Exception {
		this.store.createKey("order", 0, 7, "");
		List<CompletableFuture<List<SegmentAllocation>>> results = new ArrayList<>();
		for (int t = 0; t < 4; t++) {
			results.add(CompletableFuture.supplyAsync(() -> {
				List<SegmentAllocation> allocations = new ArrayList<>();
				for (int i = 0; i < 10_000; i++) {
					allocations.add(this.store.allocate("order", 1 + (i % 5)));
				}
				return allocations;
			}));
		}
		Set<Long> numbers = new HashSet<>();
		long total = 0;
		for (CompletableFuture<List<SegmentAllocation>> result : results) {
			for (SegmentAllocation allocation : result.get(30, TimeUnit.SECONDS)) {
				for (long n = allocation.start(); n < allocation.end(); n++) {
					numbers.add(n);
				}
				total += allocation.size();
			}
		}
		assertThat(numbers).hasSize((int) total);
		assertThat(this.store.maxId("order")).hasValue(total);
	}

}
