package io.idstarter.autoconfigure.data.mongo;

import io.idstarter.data.mongo.SequenceIdEntityCallback;
import io.idstarter.sequence.SequenceDefinition;
import io.idstarter.sequence.SequenceService;
import io.idstarter.store.mongo.MongoSequenceService;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.mongodb.autoconfigure.DataMongoAutoConfiguration;
import org.springframework.boot.mongodb.autoconfigure.MongoAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.data.mongodb.core.MongoOperations;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link IdWorkerMongoSequenceAutoConfiguration}. No server is contacted: the MongoDB client connects lazily.
 */
class IdWorkerMongoSequenceAutoConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(MongoAutoConfiguration.class, DataMongoAutoConfiguration.class,
				IdWorkerMongoSequenceAutoConfiguration.class))
		.withPropertyValues("spring.mongodb.uri=mongodb://127.0.0.1:9/unused");

	@Test
	void createsTheSequenceServiceAndTheCallback() {
		this.contextRunner.run((context) -> {
			assertThat(context).hasSingleBean(SequenceIdEntityCallback.class);
			assertThat(context.getBean(MongoSequenceService.class).getCollection())
				.isEqualTo(MongoSequenceService.DEFAULT_COLLECTION);
		});
	}

	@Test
	void sequenceCollectionCanBeSet() {
		this.contextRunner.withPropertyValues("id-worker.mongo.sequence-collection=my_sequences")
			.run((context) -> assertThat(context.getBean(MongoSequenceService.class).getCollection())
				.isEqualTo("my_sequences"));
	}

	@Test
	void userSequenceServiceWins() {
		SequenceService mine = new SequenceService() {

			@Override
			public long next(String name) {
				return 1;
			}

			@Override
			public boolean create(SequenceDefinition definition) {
				return false;
			}

		};
		this.contextRunner.withBean(SequenceService.class, () -> mine)
			.run((context) -> assertThat(context).doesNotHaveBean(MongoSequenceService.class)
				.hasSingleBean(SequenceIdEntityCallback.class)
				.getBean(SequenceService.class)
				.isSameAs(mine));
	}

	@Test
	void backsOffWithoutMongoOperations() {
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(IdWorkerMongoSequenceAutoConfiguration.class))
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(SequenceIdEntityCallback.class));
	}

	@Test
	void backsOffWithoutSpringDataMongoDb() {
		this.contextRunner.withClassLoader(new FilteredClassLoader(MongoOperations.class))
			.run((context) -> assertThat(context).hasNotFailed()
				.doesNotHaveBean(SequenceIdEntityCallback.class)
				.doesNotHaveBean(MongoSequenceService.class));
	}

}
