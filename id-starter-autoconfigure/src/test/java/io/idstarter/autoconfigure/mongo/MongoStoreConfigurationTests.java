package io.idstarter.autoconfigure.mongo;

import io.idstarter.lease.ISequenceManager;
import io.idstarter.lease.InMemoryLeaseStore;
import io.idstarter.segment.InMemorySegmentStore;
import io.idstarter.segment.SegmentStore;
import io.idstarter.store.mongo.MongoSegmentStore;
import io.idstarter.store.mongo.MongoLeaseStore;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.data.mongodb.core.MongoOperations;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.Mockito.mock;

class MongoStoreConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(
				AutoConfigurations.of(MongoLeaseStoreConfiguration.class, MongoSegmentStoreConfiguration.class))
		.withBean(MongoOperations.class, () -> mock(MongoOperations.class));

	@Test
	void leaseStoreUsesTheApplicationsMongoOperations() {
		this.contextRunner.run((context) -> assertThat(context).hasSingleBean(MongoLeaseStore.class)
			.doesNotHaveBean(SegmentStore.class));
	}

	@Test
	void segmentStoreIsOnlyCreatedWhenChosen() {
		this.contextRunner.withPropertyValues("id-worker.segment.store=mongo")
			.run((context) -> assertThat(context).hasSingleBean(MongoSegmentStore.class));
		this.contextRunner.withPropertyValues("id-worker.segment.store=jdbc")
			.run((context) -> assertThat(context).doesNotHaveBean(SegmentStore.class));
	}

	@Test
	void backsOffWithoutSpringDataMongoDb() {
		new ApplicationContextRunner()
			.withConfiguration(
					AutoConfigurations.of(MongoLeaseStoreConfiguration.class, MongoSegmentStoreConfiguration.class))
			.withPropertyValues("id-worker.segment.store=mongo")
			.withClassLoader(new FilteredClassLoader(MongoOperations.class))
			.run((context) -> assertThat(context).hasNotFailed()
				.doesNotHaveBean(ISequenceManager.class)
				.doesNotHaveBean(SegmentStore.class));
	}

	@Test
	void backsOffWithoutMongoOperations() {
		new ApplicationContextRunner()
			.withConfiguration(
					AutoConfigurations.of(MongoLeaseStoreConfiguration.class, MongoSegmentStoreConfiguration.class))
			.withPropertyValues("id-worker.segment.store=mongo")
			.run((context) -> assertThat(context).hasNotFailed()
				.doesNotHaveBean(ISequenceManager.class)
				.doesNotHaveBean(SegmentStore.class));
	}

	@Test
	void applicationStoresWin() {
		this.contextRunner.withPropertyValues("id-worker.segment.store=mongo")
			.withBean(ISequenceManager.class, InMemoryLeaseStore::new)
			.withBean(SegmentStore.class, InMemorySegmentStore::new)
			.run((context) -> assertThat(context).doesNotHaveBean(MongoLeaseStore.class)
				.doesNotHaveBean(MongoSegmentStore.class)
				.hasSingleBean(ISequenceManager.class)
				.hasSingleBean(SegmentStore.class));
	}

}
