package io.idstarter.store.etcd;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class EtcdLeaseStoreTests {

	@Test
	void theEtcdLeaseIsNeverShorterThanTheLeaseTtl() {
		assertThat(EtcdLeaseStore.ttlSeconds(Duration.ofSeconds(1))).isEqualTo(1);
		assertThat(EtcdLeaseStore.ttlSeconds(Duration.ofMillis(1001))).isEqualTo(2);
		assertThat(EtcdLeaseStore.ttlSeconds(Duration.ofMillis(2500))).isEqualTo(3);
		assertThat(EtcdLeaseStore.ttlSeconds(Duration.ofSeconds(30))).isEqualTo(30);
	}

}
