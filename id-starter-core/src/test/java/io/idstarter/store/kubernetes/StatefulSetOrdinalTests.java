package io.idstarter.store.kubernetes;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link StatefulSetOrdinal}.
 */
class StatefulSetOrdinalTests {

	@Test
	void thePodIndexLabelComesBeforeTheHostName() {
		assertThat(StatefulSetOrdinal.of("4", "orders-7")).isEqualTo(4);
	}

	@Test
	void aStatefulSetPodsHostNameEndsInItsOrdinal() {
		assertThat(StatefulSetOrdinal.of(null, "orders-0")).isZero();
		assertThat(StatefulSetOrdinal.of("", "orders-db-12")).isEqualTo(12);
	}

	@Test
	void withoutALabelOrANumberedHostNameThereIsNoOrdinal() {
		assertThat(StatefulSetOrdinal.of(null, "orders-7d9f8c6b5-x2k4z")).isEqualTo(-1);
		assertThat(StatefulSetOrdinal.of("four", "orders")).isEqualTo(-1);
		assertThat(StatefulSetOrdinal.of(null, null)).isEqualTo(-1);
		assertThat(StatefulSetOrdinal.of(null, "orders-007")).as("not how Kubernetes writes an ordinal").isEqualTo(-1);
	}

}
