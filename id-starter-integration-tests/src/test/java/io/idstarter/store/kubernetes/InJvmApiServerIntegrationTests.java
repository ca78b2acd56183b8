package io.idstarter.store.kubernetes;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.idstarter.testsupport.KubernetesBackend;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * What {@link KubernetesLeaseStore} needs of an API server, checked on the one the tests run against (the in-JVM
 * server of {@link KubernetesBackend} unless a real cluster is named): every compare-and-set of the store is an
 * update that carries the {@code resourceVersion} it read, or a create, and is only safe if the server refuses a stale
 * one with 409. If the in-JVM server ever stops doing so, the store's other tests prove nothing, and this one fails.
 */
class InJvmApiServerIntegrationTests {

	private static KubernetesBackend backend;

	private static KubernetesClient client;

	@BeforeAll
	static void start() {
		backend = KubernetesBackend.start();
		client = backend.newClient();
	}

	@AfterAll
	static void stop() {
		client.close();
		backend.close();
	}

	@Test
	void anUpdateWithAStaleResourceVersionIsRefusedWith409AndChangesNothing() {
		String name = unique("cas-check");
		Lease created = client.leases().inNamespace(backend.namespace()).resource(lease(name, "first")).create();
		Lease renewed = client.leases()
			.inNamespace(backend.namespace())
			.resource(new LeaseBuilder(created).editSpec().withHolderIdentity("second").endSpec().build())
			.update();
		assertThat(renewed.getMetadata().getResourceVersion()).isNotEqualTo(created.getMetadata().getResourceVersion());

		Lease stale = new LeaseBuilder(created).editSpec().withHolderIdentity("third").endSpec().build();
		assertThatExceptionOfType(KubernetesClientException.class)
			.isThrownBy(() -> client.leases().inNamespace(backend.namespace()).resource(stale).update())
			.satisfies((ex) -> assertThat(ex.getCode()).isEqualTo(409));
		assertThat(client.leases().inNamespace(backend.namespace()).withName(name).get().getSpec()
			.getHolderIdentity()).isEqualTo("second");
	}

	@Test
	void aCreateOfANameThatExistsIsRefusedWith409() {
		String name = unique("create-check");
		client.leases().inNamespace(backend.namespace()).resource(lease(name, "first")).create();
		assertThatExceptionOfType(KubernetesClientException.class)
			.isThrownBy(() -> client.leases()
				.inNamespace(backend.namespace())
				.resource(lease(name, "second"))
				.create())
			.satisfies((ex) -> assertThat(ex.getCode()).isEqualTo(409));
		assertThat(client.leases().inNamespace(backend.namespace()).withName(name).get().getSpec()
			.getHolderIdentity()).isEqualTo("first");
	}

	private static String unique(String name) {
		return name + "-" + java.util.UUID.randomUUID().toString().substring(0, 8);
	}

	private static Lease lease(String name, String holder) {
		return new LeaseBuilder().withNewMetadata()
			.withName(name)
			.endMetadata()
			.withNewSpec()
			.withHolderIdentity(holder)
			.withLeaseDurationSeconds(10)
			.endSpec()
			.build();
	}

}
