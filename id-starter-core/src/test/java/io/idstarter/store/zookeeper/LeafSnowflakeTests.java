package io.idstarter.store.zookeeper;

import java.nio.charset.StandardCharsets;

import io.idstarter.lease.LeaseStoreException;
import io.idstarter.snowflake.SnowflakeLayout;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class LeafSnowflakeTests {

	@Test
	void leafsLayoutIsTwitterEpochAnd41_10_12Bits() {
		SnowflakeLayout layout = LeafSnowflake.layout();
		assertThat(layout.epoch().toEpochMilli()).isEqualTo(1288834974657L);
		assertThat(layout.timestampBits()).isEqualTo(41);
		assertThat(layout.workerIdBits()).isEqualTo(10);
		assertThat(layout.sequenceBits()).isEqualTo(12);
		// An ID as Leaf composes it: ((ts - twepoch) << 22) | (workerId << 12) | sequence.
		long timestamp = 1_700_000_000_000L;
		assertThat(layout.compose(timestamp, 5, 7)).isEqualTo(((timestamp - 1288834974657L) << 22) | (5L << 12) | 7);
	}

	@Test
	void leafsNodesAreReadFromTheirNameAndJson() {
		LeafNode node = LeafNode.parse("10.0.0.2:8080-0000000007",
				"{\"ip\":\"10.0.0.2\",\"port\":\"8080\",\"timestamp\":1700000000123}".getBytes(StandardCharsets.UTF_8),
				"/snowflake/app/forever");
		assertThat(node).isEqualTo(new LeafNode(7, "10.0.0.2:8080", 1700000000123L));
		assertThatExceptionOfType(LeaseStoreException.class)
			.isThrownBy(() -> LeafNode.parse("not-a-leaf-node", "{}".getBytes(StandardCharsets.UTF_8),
					"/snowflake/app/forever"))
			.withMessageContaining("/snowflake/app/forever/not-a-leaf-node")
			.withMessageContaining("id-worker.zookeeper.leaf-name");
	}

	@Test
	void settingsAreChecked() {
		assertThat(new LeafSnowflake("app", "10.0.0.1:8080").foreverPath()).isEqualTo("/snowflake/app/forever");
		assertThatIllegalArgumentException().isThrownBy(() -> new LeafSnowflake("a/b", null))
			.withMessageContaining("leafName");
		assertThatIllegalArgumentException().isThrownBy(() -> new LeafSnowflake("app", "10.0.0.1"))
			.withMessageContaining("ip:port");
		assertThatIllegalArgumentException().isThrownBy(() -> ZooKeeperLeaseStore.requirePath("ids/"))
			.withMessageContaining("absolute ZooKeeper path");
	}

}
