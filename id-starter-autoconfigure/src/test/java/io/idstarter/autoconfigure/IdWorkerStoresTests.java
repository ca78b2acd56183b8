package io.idstarter.autoconfigure;

import java.util.Locale;

import org.junit.jupiter.api.Test;

import org.springframework.util.ClassUtils;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link IdWorkerStores}.
 */
class IdWorkerStoresTests {

	@Test
	void everySnowflakeModeNamesAStoreWhoseLeaseConfigurationExists() {
		for (IdWorkerMode mode : IdWorkerMode.values()) {
			IdWorkerStoreDescriptor store = mode.store();
			assertThat(store != null).as(mode.name()).isEqualTo(mode.isSnowflake());
			if (store != null) {
				assertThat(ClassUtils.isPresent(store.leaseConfiguration(), null)).as(mode.name()).isTrue();
			}
		}
	}

	@Test
	void everySegmentStoreHasAConstantNamedLikeItAndAConfigurationThatExists() {
		assertThat(IdWorkerStores.segmentStores()).extracting(IdWorkerStoreDescriptor::name)
			.containsExactly("jdbc", "redis", "mongo", "http", "sequence");
		for (IdWorkerStoreDescriptor store : IdWorkerStores.segmentStores()) {
			assertThat(ClassUtils.isPresent(store.segmentConfiguration(), null)).as(store.name()).isTrue();
			IdWorkerStore constant = IdWorkerStore.of(store);
			assertThat(constant).as(store.name()).isNotNull();
			assertThat(constant.name().toLowerCase(Locale.ROOT)).isEqualTo(store.name());
			assertThat(constant.holdsSegments()).isTrue();
		}
	}

	@Test
	void aStoreBeanIsRecognisedByTheCorePackageOfItsClass() {
		assertThat(IdWorkerStores.owning("io.idstarter.store.etcd.EtcdLeaseStore")).isSameAs(IdWorkerMode.ETCD.store());
		assertThat(IdWorkerStores.owning("io.idstarter.store.jdbc.JdbcSegmentStore"))
			.isSameAs(IdWorkerStore.JDBC.descriptor());
		assertThat(IdWorkerStores.owning("io.idstarter.store.kubernetes.KubernetesLeaseStore"))
			.isSameAs(IdWorkerMode.KUBERNETES.store());
		assertThat(IdWorkerStores.owning("com.example.MyLeaseStore")).isNull();
	}

	@Test
	void storeListsForMessagesAreComputedFromTheDescriptors() {
		assertThat(IdWorkerStores.names((store) -> store.segmentConfiguration() != null))
			.isEqualTo("'jdbc', 'redis', 'mongo', 'http' or 'sequence'");
		assertThatIllegalArgumentException().isThrownBy(() -> IdWorkerStores.named("cassandra"))
			.withMessageContaining("No id-starter store is named 'cassandra'")
			.withMessageContaining("'zookeeper'");
	}

	@Test
	void readingADescriptorLoadsNoStoreLibrary() throws Exception {
		for (IdWorkerStoreDescriptor store : IdWorkerStores.all()) {
			for (java.lang.reflect.Method method : store.getClass().getDeclaredMethods()) {
				assertThat(method.getReturnType()).as(store.name() + "." + method.getName())
					.isIn(String.class, java.util.List.class);
			}
			assertThat(store.getClass().getDeclaredFields()).as(store.name()).isEmpty();
		}
	}

}
