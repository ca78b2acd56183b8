package io.idstarter.autoconfigure.data.mongo;

import io.idstarter.autoconfigure.mongo.MongoStoreProperties;
import io.idstarter.data.mongo.SequenceIdEntityCallback;
import io.idstarter.sequence.SequenceService;
import io.idstarter.store.mongo.MongoSequenceService;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.data.mongodb.core.MongoOperations;
import org.springframework.data.mongodb.core.mapping.MongoMappingContext;
import org.springframework.data.mongodb.core.mapping.event.BeforeConvertCallback;

/**
 * Auto-configuration of {@link io.idstarter.data.mongo.SequenceId @SequenceId} entity IDs: a
 * {@link MongoSequenceService} on the application's MongoDB and the entity callback that draws from it.
 *
 * @since 0.1.0
 */
@AutoConfiguration(afterName = "org.springframework.boot.data.mongodb.autoconfigure.DataMongoAutoConfiguration")
@ConditionalOnClass({ MongoOperations.class, BeforeConvertCallback.class })
@ConditionalOnBean(MongoOperations.class)
@EnableConfigurationProperties(MongoStoreProperties.class)
public final class IdWorkerMongoSequenceAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean(SequenceService.class)
	MongoSequenceService mongoSequenceService(MongoOperations mongo, MongoStoreProperties properties) {
		return new MongoSequenceService(mongo, properties.getSequenceCollection());
	}

	@Bean
	@ConditionalOnMissingBean
	SequenceIdEntityCallback sequenceIdEntityCallback(ObjectProvider<SequenceService> sequences,
			MongoMappingContext mappingContext) {
		// Lazy: the converter, which MongoTemplate and so the sequence service need, asks for the callbacks.
		return new SequenceIdEntityCallback(sequences::getObject, mappingContext);
	}

}
