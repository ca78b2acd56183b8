package io.idstarter.autoconfigure.mongo;

import io.idstarter.segment.SegmentStore;
import io.idstarter.store.mongo.MongoSegmentStore;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.data.mongodb.core.MongoOperations;

/**
 * Segments from MongoDB ({@code id-worker.mongo.segment-collection}); selected by
 * {@code @EnableIdWorker(mode = SEGMENT)} with {@code id-worker.segment.store=mongo}.
 *
 * @since 0.1.0
 */
@AutoConfiguration(afterName = "org.springframework.boot.data.mongodb.autoconfigure.DataMongoAutoConfiguration")
@ConditionalOnClass(MongoOperations.class)
@ConditionalOnProperty(name = "id-worker.segment.store", havingValue = "mongo")
@ConditionalOnSingleCandidate(MongoOperations.class)
@EnableConfigurationProperties(MongoStoreProperties.class)
public final class MongoSegmentStoreConfiguration {

	@Bean
	@ConditionalOnMissingBean(SegmentStore.class)
	MongoSegmentStore mongoSegmentStore(MongoOperations mongo, MongoStoreProperties properties) {
		return new MongoSegmentStore(mongo, properties.getSegmentCollection());
	}

}
