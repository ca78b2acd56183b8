package io.idstarter.autoconfigure.etcd;

import io.etcd.jetcd.Client;
import io.idstarter.autoconfigure.CoordinationServiceUnreachableException;
import io.idstarter.autoconfigure.CoordinationServiceUnreachableFailureAnalyzerAccess;
import io.idstarter.lease.ISequenceManager;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * ETCD mode's configuration where no cluster is needed: backing off, validation, an unreachable cluster.
 */
class EtcdStoreConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(EtcdLeaseStoreConfiguration.class));

	@Test
	void withoutEndpointsOrClientNothingIsCreated() {
		this.contextRunner.run((context) -> assertThat(context).hasNotFailed()
			.doesNotHaveBean(Client.class)
			.doesNotHaveBean(ISequenceManager.class));
	}

	@Test
	void backsOffWithoutJetcd() {
		this.contextRunner.withPropertyValues("id-worker.etcd.endpoints=http://127.0.0.1:1")
			.withClassLoader(new FilteredClassLoader(Client.class))
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(ISequenceManager.class));
	}

	@Test
	void anUnreachableClusterFailsTheStartWithAnAnalysis() {
		this.contextRunner
			.withPropertyValues("id-worker.etcd.endpoints[0]=http://127.0.0.1:1",
					"id-worker.etcd.connect-timeout=500ms")
			.run((context) -> {
				assertThat(context).hasFailed();
				Throwable failure = context.getStartupFailure();
				assertThat(failure).hasStackTraceContaining(CoordinationServiceUnreachableException.class.getName());
				FailureAnalysis analysis = new CoordinationServiceUnreachableFailureAnalyzerAccess().analyze(failure);
				assertThat(analysis.getDescription()).contains("leases its worker ID from etcd")
					.contains("no etcd reachable at http://127.0.0.1:1");
				assertThat(analysis.getAction()).contains("id-worker.etcd.endpoints");
			});
	}

	@Test
	void endpointsMustBeUrlsAndCredentialsComeInPairs() {
		this.contextRunner.withPropertyValues("id-worker.etcd.endpoints=127.0.0.1:2379")
			.run((context) -> assertThat(context.getStartupFailure()).rootCause()
				.hasMessageContaining("id-worker.etcd.endpoints")
				.hasMessageContaining("must be URLs such as http://10.0.0.1:2379"));
		this.contextRunner.withPropertyValues("id-worker.etcd.endpoints=http://127.0.0.1:2379",
				"id-worker.etcd.user=root")
			.run((context) -> assertThat(context.getStartupFailure()).rootCause()
				.hasMessageContaining("id-worker.etcd.password must be set together"));
	}

}
