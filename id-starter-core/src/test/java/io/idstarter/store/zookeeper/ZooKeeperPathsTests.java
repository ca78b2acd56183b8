package io.idstarter.store.zookeeper;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link ZooKeeperPaths}: the rule the store and the setting {@code id-worker.zookeeper.root-path} share.
 */
class ZooKeeperPathsTests {

	@Test
	void absolutePathsWithSingleSlashesPass() {
		assertThat(ZooKeeperPaths.checkRootPath("/id-starter/worker-ids")).isEqualTo("/id-starter/worker-ids");
		assertThat(ZooKeeperPaths.checkRootPath("/ids")).isEqualTo("/ids");
	}

	@Test
	void relativeTrailingDoubleSlashedOrBlankPathsAreRefused() {
		for (String path : new String[] { "ids", "/", "/ids/", "/a//b", "/worker ids", "" }) {
			assertThatIllegalArgumentException().as(path)
				.isThrownBy(() -> ZooKeeperLeaseStore.requirePath(path))
				.withMessageContaining("absolute ZooKeeper path")
				.withMessageContaining("'" + path + "'");
		}
	}

}
