package io.idstarter.autoconfigure.kubernetes;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.idstarter.lease.ISequenceManager;
import io.idstarter.lease.LeaseRequest;
import io.idstarter.store.kubernetes.KubernetesAccessDeniedException;
import io.idstarter.store.kubernetes.KubernetesApiUnreachableException;
import io.idstarter.store.kubernetes.KubernetesLeaseStore;
import io.idstarter.testsupport.KubernetesBackend;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * KUBERNETES mode's store configuration against the in-JVM API server of {@link KubernetesBackend} (a real cluster
 * when {@code IDSTARTER_KUBERNETES_CONTEXT} names one): the client it builds or the application's, its properties, and
 * the start-up failures a missing permission and an unreachable API server cause.
 */
class KubernetesLeaseStoreConfigurationTests {

	private static KubernetesBackend backend;

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(KubernetesLeaseStoreConfiguration.class));

	@BeforeAll
	static void start() {
		backend = KubernetesBackend.start();
	}

	@AfterAll
	static void stop() {
		backend.close();
	}

	private ApplicationContextRunner onBackend() {
		return this.contextRunner.withPropertyValues("id-worker.kubernetes.master-url=" + backend.masterUrl(),
				"id-worker.kubernetes.namespace=" + backend.namespace(), "id-worker.kubernetes.name-prefix=cfg");
	}

	@Test
	void buildsAClientFromTheMasterUrlAndAStoreInTheNamespace() {
		onBackend().run((context) -> {
			assertThat(context).hasNotFailed().hasBean("idWorkerKubernetesClient");
			KubernetesLeaseStore store = context.getBean(KubernetesLeaseStore.class);
			assertThat(store.getKubernetesNamespace()).isEqualTo(backend.namespace());
			assertThat(store.identity()).isEqualTo("Kubernetes lease store, namespace " + backend.namespace()
					+ ", name prefix cfg");
		});
	}

	@Test
	void theApplicationsOwnClientIsUsed() {
		try (KubernetesClient own = backend.newClient()) {
			this.contextRunner.withBean(KubernetesClient.class, () -> own)
				.withPropertyValues("id-worker.kubernetes.name-prefix=own")
				.run((context) -> {
					assertThat(context).hasNotFailed().doesNotHaveBean("idWorkerKubernetesClient");
					assertThat(context.getBean(KubernetesLeaseStore.class).getKubernetesNamespace())
						.as("the client's namespace").isEqualTo(own.getNamespace());
				});
		}
	}

	@Test
	void thePodOrdinalIsPreferredFromThePodIndexVariable() {
		onBackend().withPropertyValues("POD_INDEX=5", "id-worker.kubernetes.name-prefix=ordinal").run((context) -> {
			ISequenceManager store = context.getBean(ISequenceManager.class);
			assertThat(store.borrow(new LeaseRequest("ordinal", 7, java.time.Duration.ofSeconds(30), -1, "t/1", 0))
				.workerId()).isEqualTo(5);
		});
		onBackend().withPropertyValues("POD_INDEX=5", "id-worker.kubernetes.prefer-pod-ordinal=false",
				"id-worker.kubernetes.name-prefix=no-ordinal")
			.run((context) -> assertThat(context.getBean(ISequenceManager.class)
				.borrow(new LeaseRequest("ordinal", 7, java.time.Duration.ofSeconds(30), -1, "t/1", 0))
				.workerId()).isZero());
	}

	@Test
	void anInvalidNamespaceOrPrefixFailsTheStartNamingTheKey() {
		onBackend().withPropertyValues("id-worker.kubernetes.namespace=Prod")
			.run((context) -> assertThat(context.getStartupFailure()).rootCause()
				.hasMessageContaining("id-worker.kubernetes.namespace")
				.hasMessageContaining("lower-case letters"));
		onBackend().withPropertyValues("id-worker.kubernetes.name-prefix=id_worker")
			.run((context) -> assertThat(context.getStartupFailure()).rootCause()
				.hasMessageContaining("id-worker.kubernetes.name-prefix"));
	}

	@Test
	void aMissingPermissionFailsTheStartWithAnAnalysisNamingTheVerbResourceAndNamespace() {
		backend.refuse("GET", true);
		try {
			onBackend().run((context) -> {
				assertThat(context).hasFailed();
				assertThat(context.getStartupFailure())
					.hasStackTraceContaining(KubernetesAccessDeniedException.class.getName());
				FailureAnalysis analysis = new KubernetesAccessDeniedFailureAnalyzer()
					.analyze(context.getStartupFailure());
				assertThat(analysis.getDescription()).contains("refused to list leases.coordination.k8s.io in "
						+ "namespace '" + backend.namespace() + "'");
				assertThat(analysis.getAction()).contains("get, list, create and update on leases")
					.contains("kubectl auth can-i list leases.coordination.k8s.io -n " + backend.namespace());
			});
		}
		finally {
			backend.refuse("GET", false);
		}
	}

	@Test
	void anUnreachableApiServerFailsTheStartWithAnAnalysis() {
		this.contextRunner
			.withPropertyValues("id-worker.kubernetes.master-url=http://127.0.0.1:9",
					"id-worker.kubernetes.namespace=test", "id-worker.kubernetes.call-timeout=2s")
			.run((context) -> {
				assertThat(context).hasFailed();
				FailureAnalysis analysis = new KubernetesApiUnreachableFailureAnalyzer()
					.analyze(context.getStartupFailure());
				assertThat(analysis.getDescription()).contains("API server at http://127.0.0.1:9");
				assertThat(analysis.getAction()).contains("id-worker.kubernetes.master-url");
				assertThat(context.getStartupFailure())
					.hasStackTraceContaining(KubernetesApiUnreachableException.class.getName());
			});
	}

	@Test
	void backsOffWithoutTheFabric8Client() {
		onBackend().withClassLoader(new FilteredClassLoader(KubernetesClient.class))
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(ISequenceManager.class));
	}

}
