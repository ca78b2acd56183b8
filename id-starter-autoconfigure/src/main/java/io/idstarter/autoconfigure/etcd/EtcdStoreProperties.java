package io.idstarter.autoconfigure.etcd;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.idstarter.autoconfigure.PropertyRules;
import io.idstarter.store.etcd.EtcdKeyPrefix;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.InitializingBean;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * etcd lease store settings, under {@code id-worker.etcd} ({@code @EnableIdWorker(mode = ETCD)}); the client is built
 * from them unless the application defines a jetcd {@code Client} bean. The etcd lease lasts id-worker.lease.ttl,
 * rounded up to whole seconds. Bound only in that mode.
 *
 * @since 0.1.0
 */
@ConfigurationProperties(prefix = "id-worker.etcd", ignoreUnknownFields = false)
public class EtcdStoreProperties implements InitializingBean {

	/**
	 * Client endpoints of the cluster, such as http://10.0.0.1:2379 (https:// for TLS).
	 */
	private List<String> endpoints = new ArrayList<>();

	/**
	 * Prefix of every key the lease store writes.
	 */
	private String prefix = "/id-starter/worker-ids/";

	/**
	 * User for etcd's authentication, if enabled.
	 */
	private @Nullable String user;

	/**
	 * Password of the user.
	 */
	private @Nullable String password;

	/**
	 * Longest time one call to etcd may take before it counts as failed.
	 */
	private Duration callTimeout = Duration.ofSeconds(5);

	/**
	 * How long to wait for a first answer from the cluster at start.
	 */
	private Duration connectTimeout = Duration.ofSeconds(10);

	private final Tls tls = new Tls();

	public List<String> getEndpoints() {
		return this.endpoints;
	}

	public void setEndpoints(List<String> endpoints) {
		this.endpoints = endpoints;
	}

	public String getPrefix() {
		return this.prefix;
	}

	public void setPrefix(String prefix) {
		this.prefix = prefix;
	}

	public @Nullable String getUser() {
		return this.user;
	}

	public void setUser(@Nullable String user) {
		this.user = user;
	}

	public @Nullable String getPassword() {
		return this.password;
	}

	public void setPassword(@Nullable String password) {
		this.password = password;
	}

	public Duration getCallTimeout() {
		return this.callTimeout;
	}

	public void setCallTimeout(Duration callTimeout) {
		this.callTimeout = callTimeout;
	}

	public Duration getConnectTimeout() {
		return this.connectTimeout;
	}

	public void setConnectTimeout(Duration connectTimeout) {
		this.connectTimeout = connectTimeout;
	}

	public Tls getTls() {
		return this.tls;
	}

	/**
	 * TLS files handed to jetcd's SSL context as they are (PEM).
	 */
	public static class Tls {

		/**
		 * CA certificate(s) to trust, PEM; when set, the client connects with TLS.
		 */
		private @Nullable Path trustCertificates;

		/**
		 * Client certificate chain, PEM, for mutual TLS.
		 */
		private @Nullable Path keyCertificateChain;

		/**
		 * Client private key, PKCS#8 PEM, for mutual TLS.
		 */
		private @Nullable Path key;

		/**
		 * Authority (server name) to verify the servers' certificates against, when it differs from the endpoints'
		 * host names.
		 */
		private @Nullable String authority;

		public @Nullable Path getTrustCertificates() {
			return this.trustCertificates;
		}

		public void setTrustCertificates(@Nullable Path trustCertificates) {
			this.trustCertificates = trustCertificates;
		}

		public @Nullable Path getKeyCertificateChain() {
			return this.keyCertificateChain;
		}

		public void setKeyCertificateChain(@Nullable Path keyCertificateChain) {
			this.keyCertificateChain = keyCertificateChain;
		}

		public @Nullable Path getKey() {
			return this.key;
		}

		public void setKey(@Nullable Path key) {
			this.key = key;
		}

		public @Nullable String getAuthority() {
			return this.authority;
		}

		public void setAuthority(@Nullable String authority) {
			this.authority = authority;
		}

	}

	@Override
	public void afterPropertiesSet() {
		PropertyRules.check("id-worker.etcd.prefix", this.prefix, () -> EtcdKeyPrefix.check(this.prefix));
		PropertyRules.requirePositive("id-worker.etcd.call-timeout", this.callTimeout);
		PropertyRules.requirePositive("id-worker.etcd.connect-timeout", this.connectTimeout);
		for (String endpoint : this.endpoints) {
			if (!endpoint.matches("(?i)(https?|ip|dns)://\\S+")) {
				throw PropertyRules.invalid("id-worker.etcd.endpoints", endpoint,
						"must be URLs such as http://10.0.0.1:2379 (https:// for TLS)");
			}
		}
		if ((this.user == null) != (this.password == null)) {
			throw PropertyRules.invalid("id-worker.etcd.user", this.user,
					"and id-worker.etcd.password must be set together");
		}
	}

}
