package io.idstarter.autoconfigure.etcd;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import javax.net.ssl.SSLException;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.ClientBuilder;
import io.idstarter.autoconfigure.CoordinationServiceUnreachableException;
import io.idstarter.lease.ISequenceManager;
import io.idstarter.store.etcd.EtcdLeaseStore;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * Worker-ID leases on an etcd cluster (keys under {@code id-worker.etcd.prefix}), through the application's jetcd
 * {@code Client} or one built from {@code id-worker.etcd.*}; selected by {@code @EnableIdWorker(mode = ETCD)}.
 *
 * @since 0.1.0
 */
@AutoConfiguration
@ConditionalOnClass(Client.class)
@EnableConfigurationProperties(EtcdStoreProperties.class)
public final class EtcdLeaseStoreConfiguration {

	private static final String ENDPOINTS = "id-worker.etcd.endpoints";

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnMissingBean(Client.class)
	@Conditional(EndpointsCondition.class)
	static class ClientConfiguration {

		@Bean(destroyMethod = "close")
		Client idWorkerEtcdClient(EtcdStoreProperties etcd) {
			// A member cut off from the leader refuses at once instead of holding each call until it times out.
			ClientBuilder builder = EtcdLeaseStore.requireLeader(Client.builder()
				.endpoints(etcd.getEndpoints().toArray(String[]::new))
				.connectTimeout(etcd.getConnectTimeout()));
			if (etcd.getUser() != null && etcd.getPassword() != null) {
				builder.user(ByteSequence.from(etcd.getUser(), StandardCharsets.UTF_8))
					.password(ByteSequence.from(etcd.getPassword(), StandardCharsets.UTF_8));
			}
			EtcdStoreProperties.Tls tls = etcd.getTls();
			if (tls.getTrustCertificates() != null || tls.getKeyCertificateChain() != null) {
				try {
					builder.sslContext((ssl) -> {
						if (tls.getTrustCertificates() != null) {
							ssl.trustManager(tls.getTrustCertificates().toFile());
						}
						if (tls.getKeyCertificateChain() != null && tls.getKey() != null) {
							ssl.keyManager(tls.getKeyCertificateChain().toFile(), tls.getKey().toFile());
						}
					});
				}
				catch (SSLException ex) {
					throw new IllegalStateException("cannot build the TLS context for etcd from id-worker.etcd.tls.*: "
							+ ex.getMessage() + "; check that the files are PEM (the key PKCS#8)", ex);
				}
			}
			if (tls.getAuthority() != null) {
				builder.authority(tls.getAuthority());
			}
			return builder.build();
		}

	}

	// Declared here, not in a nested class: the outer class's beans are registered after its nested classes' ones,
	// so the client built above is seen.
	@Bean
	@ConditionalOnSingleCandidate(Client.class)
	@ConditionalOnMissingBean(ISequenceManager.class)
	EtcdLeaseStore etcdLeaseStore(Client client, EtcdStoreProperties etcd) {
		String endpoints = etcd.getEndpoints().isEmpty() ? "(the application's etcd Client)"
				: String.join(",", etcd.getEndpoints());
		try {
			listMembers(client, etcd.getConnectTimeout());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new CoordinationServiceUnreachableException("etcd", endpoints, ENDPOINTS,
					"interrupted while connecting", ex);
		}
		catch (Exception ex) {
			throw new CoordinationServiceUnreachableException("etcd", endpoints, ENDPOINTS,
					"no answer to a member list within " + etcd.getConnectTimeout().toMillis()
							+ " ms (id-worker.etcd.connect-timeout): " + ex,
					ex);
		}
		return new EtcdLeaseStore(client, etcd.getPrefix(), etcd.getCallTimeout(), endpoints);
	}

	/**
	 * Asks for the member list until a member with a leader answers: one cut off from the majority refuses, and the
	 * client sends the next attempt to the next member.
	 */
	private static void listMembers(Client client, Duration timeout) throws Exception {
		long deadline = System.nanoTime() + timeout.toNanos();
		for (;;) {
			try {
				client.getClusterClient().listMember().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
				return;
			}
			catch (ExecutionException ex) {
				if (!EtcdLeaseStore.refusedForWantOfALeader(ex) || System.nanoTime() - deadline > 0) {
					throw ex;
				}
				Thread.sleep(50);
			}
		}
	}

	/**
	 * Matches when {@code id-worker.etcd.endpoints} names at least one endpoint, in any form a list binds from.
	 */
	static final class EndpointsCondition extends SpringBootCondition {

		@Override
		public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
			List<String> endpoints = Binder.get(context.getEnvironment())
				.bind(ENDPOINTS, Bindable.listOf(String.class))
				.orElse(List.of());
			return endpoints.isEmpty() ? ConditionOutcome.noMatch(ENDPOINTS + " is not set")
					: ConditionOutcome.match(ENDPOINTS + " " + endpoints);
		}

	}

}
