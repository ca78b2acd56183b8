package io.idstarter.autoconfigure;

import java.time.Duration;

import io.idstarter.autoconfigure.etcd.EtcdStoreProperties;
import io.idstarter.autoconfigure.http.HttpStoreProperties;
import io.idstarter.autoconfigure.jdbc.JdbcStoreProperties;
import io.idstarter.autoconfigure.kubernetes.KubernetesStoreProperties;
import io.idstarter.autoconfigure.mongo.MongoStoreProperties;
import io.idstarter.autoconfigure.redis.RedisStoreProperties;
import io.idstarter.autoconfigure.zookeeper.ZooKeeperStoreProperties;
import io.idstarter.snowflake.SnowflakeIdGenerator;
import io.idstarter.store.kubernetes.KubernetesLeaseStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The stores' settings: each store's properties class binds its group and checks it with core's rules, and is bound
 * only where its store is selected.
 */
class StorePropertiesTests {

	private final ApplicationContextRunner everyStore = new ApplicationContextRunner()
		.withUserConfiguration(EveryStoreProperties.class);

	@Test
	void anEtcdEndpointTypoDoesNotFailAnApplicationThatLeasesFromTheDatabase() {
		new ApplicationContextRunner().withUserConfiguration(DbApplication.class)
			.withPropertyValues("spring.datasource.generate-unique-name=true",
					"id-worker.etcd.endpoints=localhost:2379", "id-worker.zookeeper.root-path=ids",
					"id-worker.redis.key-prefix= ", "id-worker.mongo.lease-collection=system.leases",
					"id-worker.kubernetes.namespace=Prod", "id-worker.kubernetes.name-prefx=ids")
			.run((context) -> assertThat(context).hasNotFailed()
				.hasSingleBean(SnowflakeIdGenerator.class)
				.hasSingleBean(JdbcStoreProperties.class)
				.doesNotHaveBean(EtcdStoreProperties.class)
				.doesNotHaveBean(KubernetesStoreProperties.class)
				.doesNotHaveBean(RedisStoreProperties.class));
	}

	@Test
	void anUnknownKeyInTheGroupOfASelectedStoreFailsTheStart() {
		new ApplicationContextRunner().withUserConfiguration(DbApplication.class)
			.withPropertyValues("spring.datasource.generate-unique-name=true", "id-worker.jdbc.lease-tabel=leases")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.hasMessageContaining("id-worker.jdbc.lease-tabel"));
	}

	@Test
	void anUnknownKubernetesKeyFailsWhereItsGroupIsBound() {
		this.everyStore.withPropertyValues("id-worker.kubernetes.name-prefx=ids")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.hasMessageContaining("id-worker.kubernetes.name-prefx"));
	}

	@Test
	void everyStorePropertyIsBound() {
		this.everyStore.withPropertyValues("id-worker.jdbc.segment-table=ids.segments",
				"id-worker.jdbc.lease-table=worker_leases", "id-worker.jdbc.initialize-schema=never",
				"id-worker.redis.key-prefix={ids}:", "id-worker.redis.wait.replicas=1",
				"id-worker.redis.wait.timeout=250ms", "id-worker.mongo.segment-collection=segments",
				"id-worker.mongo.lease-collection=leases", "id-worker.http.servers=http://ids:8080",
				"id-worker.zookeeper.root-path=/ids", "id-worker.zookeeper.leaf-name=app",
				"id-worker.zookeeper.leaf-address=10.0.0.1:8080", "id-worker.etcd.endpoints=http://etcd:2379",
				"id-worker.etcd.tls.authority=etcd.local", "id-worker.kubernetes.namespace=ids",
				"id-worker.kubernetes.name-prefix=orders", "id-worker.kubernetes.pod-ordinal=3",
				"id-worker.kubernetes.call-timeout=2s")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				JdbcStoreProperties jdbc = context.getBean(JdbcStoreProperties.class);
				assertThat(jdbc.getSegmentTable()).isEqualTo("ids.segments");
				assertThat(jdbc.getLeaseTable()).isEqualTo("worker_leases");
				assertThat(jdbc.getInitializeSchema().name()).isEqualTo("NEVER");
				RedisStoreProperties redis = context.getBean(RedisStoreProperties.class);
				assertThat(redis.getKeyPrefix()).isEqualTo("{ids}:");
				assertThat(redis.getWait().getReplicas()).isEqualTo(1);
				assertThat(redis.getWait().getTimeout()).isEqualTo(Duration.ofMillis(250));
				MongoStoreProperties mongo = context.getBean(MongoStoreProperties.class);
				assertThat(mongo.getSegmentCollection()).isEqualTo("segments");
				assertThat(mongo.getLeaseCollection()).isEqualTo("leases");
				assertThat(context.getBean(HttpStoreProperties.class).getServers()).hasSize(1);
				ZooKeeperStoreProperties zookeeper = context.getBean(ZooKeeperStoreProperties.class);
				assertThat(zookeeper.getRootPath()).isEqualTo("/ids");
				assertThat(zookeeper.getLeafAddress()).isEqualTo("10.0.0.1:8080");
				EtcdStoreProperties etcd = context.getBean(EtcdStoreProperties.class);
				assertThat(etcd.getEndpoints()).containsExactly("http://etcd:2379");
				assertThat(etcd.getTls().getAuthority()).isEqualTo("etcd.local");
				KubernetesStoreProperties kubernetes = context.getBean(KubernetesStoreProperties.class);
				assertThat(kubernetes.getNamespace()).isEqualTo("ids");
				assertThat(kubernetes.getNamePrefix()).isEqualTo("orders");
				assertThat(kubernetes.getPodOrdinal()).isEqualTo(3);
				assertThat(kubernetes.getCallTimeout()).isEqualTo(Duration.ofSeconds(2));
			});
	}

	@Test
	void kubernetesDefaultsAreThoseOfTheStore() {
		KubernetesStoreProperties kubernetes = new KubernetesStoreProperties();
		assertThat(kubernetes.getNamePrefix()).isEqualTo(KubernetesLeaseStore.DEFAULT_NAME_PREFIX);
		assertThat(kubernetes.getCallTimeout()).isEqualTo(KubernetesLeaseStore.DEFAULT_CALL_TIMEOUT);
	}

	@ParameterizedTest(name = "{0}={1}")
	@CsvSource(delimiter = '|', textBlock = """
			id-worker.jdbc.segment-table          | leaf_alloc;drop   | SQL identifier
			id-worker.jdbc.lease-table            | 1leases           | SQL identifier
			id-worker.redis.key-prefix            | ' '               | 1 to 128 characters
			id-worker.redis.wait.replicas         | 65                | waitReplicas must be in [0, 64]
			id-worker.redis.wait.timeout          | 11m               | waitTimeout must be in [1ms, 10m]
			id-worker.mongo.segment-collection    | system.ids        | not start with 'system.'
			id-worker.mongo.lease-collection      | a$b               | without '$'
			id-worker.mongo.sequence-collection   | system.sequences  | not start with 'system.'
			id-worker.zookeeper.root-path         | /ids/             | absolute ZooKeeper path
			id-worker.zookeeper.root-path         | '/worker ids'     | no white space
			id-worker.zookeeper.connect-string    | zk1:2181,,zk2     | host:port separated by commas
			id-worker.zookeeper.auth-digest       | user              | must be user:password
			id-worker.zookeeper.leaf-name         | a/b               | leaf.name
			id-worker.etcd.prefix                 | ' '               | 1 to 256 characters
			id-worker.etcd.endpoints              | localhost:2379    | must be URLs
			id-worker.etcd.call-timeout           | 0s                | must be positive
			id-worker.kubernetes.namespace        | Prod              | lower-case letters
			id-worker.kubernetes.name-prefix      | id_worker         | Lease name prefix
			id-worker.kubernetes.call-timeout     | 0s                | must be positive
			id-worker.kubernetes.pod-ordinal      | -1                | must be a worker ID
			""")
	void invalidStoreValueFailsNamingTheProperty(String name, String value, String reason) {
		this.everyStore.withPropertyValues(name + "=" + value).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context).getFailure()
				.rootCause()
				.isInstanceOf(InvalidConfigurationPropertyValueException.class)
				.hasMessageContaining(name)
				.hasMessageContaining(reason);
		});
	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ DataSourceAutoConfiguration.class, IdWorkerAutoConfiguration.class })
	@EnableIdWorker(mode = IdWorkerMode.DB)
	static class DbApplication {

	}

	@Configuration(proxyBeanMethods = false)
	@EnableConfigurationProperties({ JdbcStoreProperties.class, RedisStoreProperties.class,
			MongoStoreProperties.class, HttpStoreProperties.class, ZooKeeperStoreProperties.class,
			EtcdStoreProperties.class, KubernetesStoreProperties.class })
	static class EveryStoreProperties {

	}

}
