package io.idstarter.autoconfigure.kubernetes;

import java.util.List;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.idstarter.IdWorker;
import io.idstarter.autoconfigure.EnableIdWorker;
import io.idstarter.autoconfigure.IdWorkerMode;
import io.idstarter.lease.LeaseStatus;
import io.idstarter.lease.WorkerLeaseKeeper;
import io.idstarter.store.kubernetes.KubernetesLeaseStore;
import io.idstarter.testsupport.KubernetesBackend;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * An application with {@code @EnableIdWorker(mode = KUBERNETES)} and nothing else but the API server's address: on
 * the in-JVM API server of {@link KubernetesBackend} (a real cluster when {@code IDSTARTER_KUBERNETES_CONTEXT} names
 * one), where a pod would use its service account.
 */
@ExtendWith(OutputCaptureExtension.class)
class KubernetesModeIntegrationTests {

	private static KubernetesBackend backend;

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withUserConfiguration(KubernetesMode.class);

	@BeforeAll
	static void start() {
		backend = KubernetesBackend.start();
	}

	@AfterAll
	static void stop() {
		backend.close();
	}

	@Test
	void twoApplicationsLeaseTwoWorkerIdsAsLeaseObjectsAndGiveThemBackWhenTheyStop() {
		ApplicationContextRunner app = this.contextRunner.withPropertyValues(
				"id-worker.kubernetes.master-url=" + backend.masterUrl(),
				"id-worker.kubernetes.namespace=" + backend.namespace(), "id-worker.kubernetes.name-prefix=app",
				"id-worker.lease.namespace=orders");
		app.run((first) -> {
			assertThat(first).hasNotFailed().hasSingleBean(KubernetesLeaseStore.class);
			WorkerLeaseKeeper keeper = first.getBean(WorkerLeaseKeeper.class);
			assertThat(keeper.status().state()).isEqualTo(LeaseStatus.State.ACTIVE);
			assertThat(first.getBean(IdWorker.class).nextId()).isPositive();
			app.run((second) -> assertThat(second.getBean(WorkerLeaseKeeper.class).status().workerId())
				.isNotEqualTo(keeper.status().workerId()));
			KubernetesClient client = first.getBean(KubernetesClient.class);
			Lease lease = client.leases()
				.inNamespace(backend.namespace())
				.withName("app-orders-" + keeper.status().workerId())
				.get();
			assertThat(lease.getSpec().getHolderIdentity()).as("held while the application runs").isNotNull();
		});
		try (KubernetesClient client = backend.newClient()) {
			List<Lease> leases = client.leases().inNamespace(backend.namespace()).list().getItems().stream()
				.filter((lease) -> lease.getMetadata().getName().startsWith("app-orders-"))
				.toList();
			// two slots, and the namespace's layout record, which holds no lease
			assertThat(leases).extracting((lease) -> lease.getMetadata().getName())
				.containsExactlyInAnyOrder("app-orders-0", "app-orders-1", "app-orders-layout");
			assertThat(leases)
				.allSatisfy((lease) -> assertThat(lease.getSpec().getHolderIdentity()).as("released").isNull());
		}
	}

	@Test
	void aServiceAccountThatMayNotCreateLeasesStopsTheStartWithAnAnalysisNamingTheVerb() {
		Assumptions.assumeTrue(backend.inJvm(), "makes the in-JVM server refuse a verb");
		backend.refuse("POST", true);
		try {
			this.contextRunner
				.withPropertyValues("id-worker.kubernetes.master-url=" + backend.masterUrl(),
						"id-worker.kubernetes.namespace=" + backend.namespace(),
						"id-worker.kubernetes.name-prefix=denied", "id-worker.lease.namespace=orders")
				.run((context) -> {
					assertThat(context).hasFailed();
					FailureAnalysis analysis = new KubernetesAccessDeniedFailureAnalyzer()
						.analyze(context.getStartupFailure());
					assertThat(analysis).as("an analysis of the start-up failure").isNotNull();
					assertThat(analysis.getDescription()).contains("refused to create leases.coordination.k8s.io in "
							+ "namespace '" + backend.namespace() + "'");
				});
		}
		finally {
			backend.refuse("POST", false);
		}
	}

	@Test
	void theStartUpReportIsTheKubernetesAnalysisNotTheGenericLeaseStoreOne(CapturedOutput output) {
		Assumptions.assumeTrue(backend.inJvm(), "makes the in-JVM server refuse a verb");
		backend.refuse("GET", true);
		try {
			SpringApplication application = new SpringApplication(KubernetesMode.class);
			application.setWebApplicationType(WebApplicationType.NONE);
			assertThatExceptionOfType(RuntimeException.class).isThrownBy(() -> application.run(
					"--id-worker.kubernetes.master-url=" + backend.masterUrl(),
					"--id-worker.kubernetes.namespace=" + backend.namespace(), "--spring.main.banner-mode=off"));
			assertThat(output).contains("refused to list leases.coordination.k8s.io in namespace '"
					+ backend.namespace() + "'")
				.contains("kubectl auth can-i list leases.coordination.k8s.io")
				.doesNotContain("The worker-ID lease store failed while the Snowflake generator started");
		}
		finally {
			backend.refuse("GET", false);
		}
	}

	@Configuration(proxyBeanMethods = false)
	@EnableIdWorker(mode = IdWorkerMode.KUBERNETES)
	static class KubernetesMode {

	}

}
