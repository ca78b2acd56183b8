package io.idstarter.autoconfigure.zookeeper;

import java.time.Duration;

import io.idstarter.autoconfigure.PropertyRules;
import io.idstarter.store.zookeeper.LeafSnowflake;
import io.idstarter.store.zookeeper.ZooKeeperPaths;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.InitializingBean;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * ZooKeeper lease store settings, under {@code id-worker.zookeeper} ({@code @EnableIdWorker(mode = ZOOKEEPER)}); the
 * client is built from them unless the application defines a {@code CuratorFramework} bean. Bound only in that mode.
 *
 * @since 0.1.0
 */
@ConfigurationProperties(prefix = "id-worker.zookeeper", ignoreUnknownFields = false)
public class ZooKeeperStoreProperties implements InitializingBean {

	/**
	 * Connect string of the ensemble, host:port pairs separated by commas, optionally followed by a chroot path.
	 */
	private @Nullable String connectString;

	/**
	 * Path under which the worker-ID slots of every lease namespace are kept.
	 */
	private String rootPath = "/id-starter/worker-ids";

	/**
	 * Curator namespace (a path prefix without the leading slash) applied to every path of the client built
	 * from these settings.
	 */
	private @Nullable String namespace;

	/**
	 * Session timeout to ask the ensemble for; the servers bound it by their minSessionTimeout and
	 * maxSessionTimeout. Must be at least id-worker.lease.ttl, which it defaults to: a node that loses its session
	 * then has stopped issuing before its worker ID can be taken.
	 */
	private @Nullable Duration sessionTimeout;

	/**
	 * How long to wait for a connection to the ensemble, at start and per attempt.
	 */
	private Duration connectionTimeout = Duration.ofSeconds(15);

	/**
	 * Digest credentials, "user:password". When set, the client authenticates with them and the nodes it
	 * creates are readable and writable only by that user (ZooKeeper's CREATOR_ALL_ACL).
	 */
	private @Nullable String authDigest;

	/**
	 * Leaf's leaf.name, when a Leaf Snowflake deployment shares the ensemble: every worker ID under
	 * /snowflake/{leaf-name}/forever is then treated as held by Leaf.
	 */
	private @Nullable String leafName;

	/**
	 * This node's ip:port as Leaf recorded it under /snowflake/{leaf-name}/forever when Leaf ran here; the node
	 * then takes over that worker ID above Leaf's last reported timestamp.
	 */
	private @Nullable String leafAddress;

	public @Nullable String getConnectString() {
		return this.connectString;
	}

	public void setConnectString(@Nullable String connectString) {
		this.connectString = connectString;
	}

	public String getRootPath() {
		return this.rootPath;
	}

	public void setRootPath(String rootPath) {
		this.rootPath = rootPath;
	}

	public @Nullable String getNamespace() {
		return this.namespace;
	}

	public void setNamespace(@Nullable String namespace) {
		this.namespace = namespace;
	}

	public @Nullable Duration getSessionTimeout() {
		return this.sessionTimeout;
	}

	public void setSessionTimeout(@Nullable Duration sessionTimeout) {
		this.sessionTimeout = sessionTimeout;
	}

	public Duration getConnectionTimeout() {
		return this.connectionTimeout;
	}

	public void setConnectionTimeout(Duration connectionTimeout) {
		this.connectionTimeout = connectionTimeout;
	}

	public @Nullable String getAuthDigest() {
		return this.authDigest;
	}

	public void setAuthDigest(@Nullable String authDigest) {
		this.authDigest = authDigest;
	}

	public @Nullable String getLeafName() {
		return this.leafName;
	}

	public void setLeafName(@Nullable String leafName) {
		this.leafName = leafName;
	}

	public @Nullable String getLeafAddress() {
		return this.leafAddress;
	}

	public void setLeafAddress(@Nullable String leafAddress) {
		this.leafAddress = leafAddress;
	}

	@Override
	public void afterPropertiesSet() {
		String connectString = this.connectString;
		if (connectString != null && (connectString.isBlank() || connectString.contains(",,")
				|| connectString.startsWith(",") || connectString.endsWith(","))) {
			throw PropertyRules.invalid("id-worker.zookeeper.connect-string",
					connectString.isBlank() ? "(blank)" : connectString,
					"must list the ensemble's servers as host:port separated by commas, such as "
							+ "zk1:2181,zk2:2181,zk3:2181 (or leave it unset and define a CuratorFramework bean)");
		}
		PropertyRules.check("id-worker.zookeeper.root-path", this.rootPath,
				() -> ZooKeeperPaths.checkRootPath(this.rootPath));
		PropertyRules.requirePositive("id-worker.zookeeper.connection-timeout", this.connectionTimeout);
		String digest = this.authDigest;
		if (digest != null && (digest.indexOf(':') < 1 || digest.endsWith(":"))) {
			throw PropertyRules.invalid("id-worker.zookeeper.auth-digest", "(hidden)", "must be user:password");
		}
		String leafName = this.leafName;
		if (leafName != null) {
			PropertyRules.check("id-worker.zookeeper.leaf-name", leafName, () -> new LeafSnowflake(leafName, null));
		}
		String leafAddress = this.leafAddress;
		if (leafAddress != null) {
			if (leafName == null) {
				throw PropertyRules.invalid("id-worker.zookeeper.leaf-address", leafAddress,
						"needs id-worker.zookeeper.leaf-name as well");
			}
			PropertyRules.check("id-worker.zookeeper.leaf-address", leafAddress,
					() -> new LeafSnowflake(leafName, leafAddress));
		}
	}

	/**
	 * Checks the session timeout against the lease it must outlast.
	 * @param leaseTtl {@code id-worker.lease.ttl}
	 */
	void checkSessionTimeout(Duration leaseTtl) {
		Duration sessionTimeout = this.sessionTimeout;
		if (sessionTimeout != null && sessionTimeout.compareTo(leaseTtl) < 0) {
			throw PropertyRules.invalid("id-worker.zookeeper.session-timeout", PropertyRules.format(sessionTimeout),
					"must be at least id-worker.lease.ttl (" + PropertyRules.format(leaseTtl) + "): a node cut off "
							+ "from the ensemble must stop issuing before its session expires and another node can "
							+ "take its worker ID");
		}
	}

}
