package io.idstarter.autoconfigure;

import java.util.List;

import io.idstarter.autoconfigure.MissingIdWorkerStoreException.Problem;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.support.DefaultListableBeanFactory;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.FilteredClassLoader;

import static org.assertj.core.api.Assertions.assertThat;

class MissingIdWorkerStoreFailureAnalyzerTests {

	private final MissingIdWorkerStoreFailureAnalyzer analyzer = new MissingIdWorkerStoreFailureAnalyzer();

	@Test
	void missingLibraryNamesTheStarterToAdd() {
		FailureAnalysis analysis = analyze(new MissingIdWorkerStoreException(IdWorkerMode.REDIS, IdWorkerStore.REDIS,
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
				IdWorkerStore.ZOOKEEPER, Problem.LIBRARY_MISSING, List.of()));
		assertThat(analysis.getAction()).startsWith("Add org.apache.curator:curator-framework:"
				+ CuratorFrameworkFactory.class.getPackage().getImplementationVersion()
				+ " (the version id-starter was tested with; importing io.idstarter:id-starter-bom manages it) to the"
				+ " application's dependencies and set id-worker.zookeeper.connect-string.");
		assertThat(analyze(new MissingIdWorkerStoreException(IdWorkerMode.ETCD, IdWorkerStore.ETCD,
				Problem.LIBRARY_MISSING, List.of()))
			.getAction()).matches("Add io\\.etcd:jetcd-core:\\d+\\.\\d+\\.\\d+ \\(the version id-starter was tested with.*");
	}

	@Test
	void missingBeanNamesThePropertyThatCreatesIt() {
		FailureAnalysis analysis = analyze(new MissingIdWorkerStoreException(IdWorkerMode.DB, IdWorkerStore.JDBC,
				Problem.BEAN_MISSING, List.of()));
		assertThat(analysis.getDescription()).isEqualTo(
				"@EnableIdWorker(mode = DB) leases worker IDs from the relational database, but the application has no "
						+ "javax.sql.DataSource bean.");
		assertThat(analysis.getAction()).startsWith(
				"Set spring.datasource.url so that Spring Boot defines the DataSource bean, or define a DataSource bean.");
	}

	@Test
	void severalBeansAskForAPrimaryOne() {
		FailureAnalysis analysis = analyze(new MissingIdWorkerStoreException(IdWorkerMode.MONGO, IdWorkerStore.MONGO,
				Problem.BEAN_NOT_UNIQUE, List.of("ordersTemplate", "usersTemplate")));
		assertThat(analysis.getDescription()).endsWith("the application has 2 "
				+ "org.springframework.data.mongodb.core.MongoOperations beans [ordersTemplate, usersTemplate] and "
				+ "none of them is primary.");
		assertThat(analysis.getAction())
			.startsWith("Mark one of the MongoOperations beans [ordersTemplate, usersTemplate] as @Primary.");
	}

	@Test
	void segmentStoreActionOffersTheOtherStores() {
		FailureAnalysis analysis = analyze(new MissingIdWorkerStoreException(IdWorkerMode.SEGMENT, IdWorkerStore.REDIS,
				Problem.BEAN_MISSING, List.of()));
		assertThat(analysis.getDescription()).startsWith(
				"@EnableIdWorker(mode = SEGMENT) with id-worker.segment.store=redis allocates segments from Redis, but");
		assertThat(analysis.getAction()).endsWith("Alternatively, set id-worker.segment.store to a store the "
				+ "application has (jdbc or mongo or http), or define a SegmentStore bean.");
	}

	@Test
	void diagnoseTellsAMissingLibraryFromAMissingBean() {
		DefaultListableBeanFactory beanFactory = new DefaultListableBeanFactory();
		ClassLoader withoutRedis = new FilteredClassLoader("org.springframework.data.redis");
		assertThat(MissingIdWorkerStoreException
			.diagnose(IdWorkerMode.REDIS, IdWorkerStore.REDIS, beanFactory, withoutRedis)
			.getProblem()).isEqualTo(Problem.LIBRARY_MISSING);
		assertThat(MissingIdWorkerStoreException
			.diagnose(IdWorkerMode.REDIS, IdWorkerStore.REDIS, beanFactory, getClass().getClassLoader())
			.getProblem()).isEqualTo(Problem.BEAN_MISSING);
	}

	@Test
	void otherFailuresAreLeftAlone() {
		assertThat(this.analyzer.analyze(new IllegalStateException("unrelated"))).isNull();
	}

	private FailureAnalysis analyze(MissingIdWorkerStoreException cause) {
		FailureAnalysis analysis = this.analyzer.analyze(new RuntimeException("wrapped", cause));
		assertThat(analysis).isNotNull();
		assertThat(analysis.getCause()).isSameAs(cause);
		return analysis;
	}

}
