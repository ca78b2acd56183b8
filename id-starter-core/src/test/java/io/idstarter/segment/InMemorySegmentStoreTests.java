package io.idstarter.segment;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * What {@link InMemorySegmentStore} adds to the segment contract (which {@code InMemorySegmentStoreContractTests} in
 * id-starter-test-support checks): key removal, the high mark, call counts, simulated latency and outages.
 */
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
	void unknownAndRemovedKeysAreRejected() {
		assertThatExceptionOfType(UnknownKeyException.class).isThrownBy(() -> this.store.allocate("nope"));
		this.store.createKey("order", 0, 10, "");
		assertThat(this.store.keys()).containsExactly("order");
		assertThat(this.store.removeKey("order")).isTrue();
		assertThat(this.store.keys()).isEmpty();
		assertThatExceptionOfType(UnknownKeyException.class).isThrownBy(() -> this.store.allocate("order"));
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

}
