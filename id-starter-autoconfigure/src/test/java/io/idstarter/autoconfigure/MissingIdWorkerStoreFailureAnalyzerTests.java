package io.idstarter.autoconfigure;

import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import io.idstarter.autoconfigure.MissingIdWorkerStoreException.Problem;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.beans.factory.support.DefaultListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

import static org.assertj.core.api.Assertions.assertThat;

@ExtendWith(OutputCaptureExtension.class)
class MissingIdWorkerStoreFailureAnalyzerTests {

	private final MissingIdWorkerStoreFailureAnalyzer analyzer = new MissingIdWorkerStoreFailureAnalyzer(null);

	@Test
	void missingLibraryNamesTheStarterToAdd() {
		FailureAnalysis analysis = analyze(new MissingIdWorkerStoreException(IdWorkerMode.REDIS, IdWorkerStore.REDIS.descriptor(),
				Problem.LIBRARY_MISSING, List.of()));
		assertThat(analysis.getDescription()).isEqualTo("@EnableIdWorker(mode = REDIS) leases worker IDs from Redis, "
				+ "but the library for it is not on the class path "
				+ "(org.springframework.data.redis.connection.RedisConnectionFactory was not found).");
		assertThat(analysis.getAction()).startsWith("Add spring-boot-starter-data-redis to the application's "
				+ "dependencies and set spring.data.redis.host or spring.data.redis.url.")
			.endsWith("or define an ISequenceManager bean that leases worker IDs from a store of your own.");
	}

	@Test
	void missingClientThatSpringBootDoesNotManageComesWithTheTestedVersion() {
		FailureAnalysis analysis = analyze(new MissingIdWorkerStoreException(IdWorkerMode.ZOOKEEPER,
				IdWorkerMode.ZOOKEEPER.store(), Problem.LIBRARY_MISSING, List.of()));
		assertThat(analysis.getAction()).startsWith("Add org.apache.curator:curator-framework:"
				+ CuratorFrameworkFactory.class.getPackage().getImplementationVersion()
				+ " (the version id-starter was tested with; importing io.idstarter:id-starter-bom manages it) to the"
				+ " application's dependencies and set id-worker.zookeeper.connect-string.");
		assertThat(analyze(new MissingIdWorkerStoreException(IdWorkerMode.ETCD, IdWorkerMode.ETCD.store(),
				Problem.LIBRARY_MISSING, List.of()))
			.getAction()).matches("Add io\\.etcd:jetcd-core:\\d+\\.\\d+\\.\\d+ \\(the version id-starter was tested with.*");
		assertThat(analyze(new MissingIdWorkerStoreException(IdWorkerMode.KUBERNETES, IdWorkerMode.KUBERNETES.store(),
				Problem.LIBRARY_MISSING, List.of()))
			.getAction()).matches("Add io\\.fabric8:kubernetes-client:\\d+\\.\\d+\\.\\d+ \\(the version id-starter was "
					+ "tested with.* and set id-worker\\.kubernetes\\.master-url \\(in a pod, its service account is "
					+ "used\\)\\..*");
	}

	@Test
	void missingBeanNamesThePropertyThatCreatesIt() {
		FailureAnalysis analysis = analyze(new MissingIdWorkerStoreException(IdWorkerMode.DB, IdWorkerStore.JDBC.descriptor(),
				Problem.BEAN_MISSING, List.of()));
		assertThat(analysis.getDescription()).isEqualTo(
				"@EnableIdWorker(mode = DB) leases worker IDs from the relational database, but the application has no "
						+ "javax.sql.DataSource bean.");
		assertThat(analysis.getAction()).startsWith(
				"Set spring.datasource.url so that Spring Boot defines the DataSource bean, or define a DataSource bean.");
	}

	@Test
	void severalBeansAskForAPrimaryOne() {
		FailureAnalysis analysis = analyze(new MissingIdWorkerStoreException(IdWorkerMode.MONGO, IdWorkerStore.MONGO.descriptor(),
				Problem.BEAN_NOT_UNIQUE, List.of("ordersTemplate", "usersTemplate")));
		assertThat(analysis.getDescription()).endsWith("the application has 2 "
				+ "org.springframework.data.mongodb.core.MongoOperations beans [ordersTemplate, usersTemplate] and "
				+ "none of them is primary.");
		assertThat(analysis.getAction())
			.startsWith("Mark one of the MongoOperations beans [ordersTemplate, usersTemplate] as @Primary.");
	}

	@Test
	void segmentStoreActionOffersTheOtherStores() {
		FailureAnalysis analysis = analyze(new MissingIdWorkerStoreException(IdWorkerMode.SEGMENT, IdWorkerStore.REDIS.descriptor(),
				Problem.BEAN_MISSING, List.of()));
		assertThat(analysis.getDescription()).startsWith(
				"@EnableIdWorker(mode = SEGMENT) with id-worker.segment.store=redis allocates segments from Redis, but");
		assertThat(analysis.getAction()).endsWith("Alternatively, set id-worker.segment.store to a store the "
				+ "application has (jdbc or mongo or http or sequence), or define a SegmentStore bean.");
	}

	@Test
	void diagnoseTellsAMissingLibraryFromAMissingBean() {
		DefaultListableBeanFactory beanFactory = new DefaultListableBeanFactory();
		ClassLoader withoutRedis = new FilteredClassLoader("org.springframework.data.redis");
		assertThat(MissingIdWorkerStoreException
			.diagnose(IdWorkerMode.REDIS, IdWorkerStore.REDIS.descriptor(), beanFactory, withoutRedis)
			.getProblem()).isEqualTo(Problem.LIBRARY_MISSING);
		assertThat(MissingIdWorkerStoreException
			.diagnose(IdWorkerMode.REDIS, IdWorkerStore.REDIS.descriptor(), beanFactory, getClass().getClassLoader())
			.getProblem()).isEqualTo(Problem.BEAN_MISSING);
	}

	@Test
	void aMistypedConnectionKeyIsNamedWithTheKeyItWasMeantToBe(CapturedOutput output) {
		AtomicReference<Environment> environment = new AtomicReference<>();
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(IdWorkerAutoConfiguration.class))
			.withUserConfiguration(ZooKeeperMode.class)
			.withInitializer((context) -> environment.set(context.getEnvironment()))
			.withPropertyValues("id-worker.zookeeper.conect-string=127.0.0.1:12181")
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(context.getStartupFailure()).hasRootCauseInstanceOf(MissingIdWorkerStoreException.class);
				FailureAnalysis analysis = new MissingIdWorkerStoreFailureAnalyzer(environment.get())
					.analyze(context.getStartupFailure());
				assertThat(analysis.getDescription())
					.contains("has no org.apache.curator.framework.CuratorFramework bean")
					.contains("Unknown configuration property 'id-worker.zookeeper.conect-string'")
					.contains("Did you mean 'id-worker.zookeeper.connect-string'?");
				assertThat(analysis.getAction()).startsWith("Set id-worker.zookeeper.connect-string");
				assertThat(output).as("warned before the failure")
					.contains("Did you mean 'id-worker.zookeeper.connect-string'?");
			});
	}

	@Test
	void aBlankConnectStringIsNamedInsteadOfCuratorsException() {
		new ApplicationContextRunner().withUserConfiguration(ZooKeeperMode.class)
			.withPropertyValues("id-worker.zookeeper.connect-string= ")
			.run((context) -> assertThat(context.getStartupFailure())
				.hasRootCauseInstanceOf(InvalidConfigurationPropertyValueException.class)
				.rootCause()
				.hasMessageContaining("Property id-worker.zookeeper.connect-string with value '(blank)' is invalid")
				.hasMessageContaining("such as zk1:2181,zk2:2181,zk3:2181"));
	}

	@Test
	void otherFailuresAreLeftAlone() {
		assertThat(this.analyzer.analyze(new IllegalStateException("unrelated"))).isNull();
	}

	@Configuration(proxyBeanMethods = false)
	@EnableIdWorker(mode = IdWorkerMode.ZOOKEEPER)
	static class ZooKeeperMode {

	}

	private FailureAnalysis analyze(MissingIdWorkerStoreException cause) {
		FailureAnalysis analysis = this.analyzer.analyze(new RuntimeException("wrapped", cause));
		assertThat(analysis).isNotNull();
		assertThat(analysis.getCause()).isSameAs(cause);
		return analysis;
	}

}
