package io.idstarter.autoconfigure.mongo;

import io.idstarter.lease.ISequenceManager;
import io.idstarter.store.mongo.MongoLeaseStore;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.data.mongodb.core.MongoOperations;

/**
 * Worker-ID leases in MongoDB ({@code id-worker.mongo.lease-collection}); selected by
 * {@code @EnableIdWorker(mode = MONGO)}.
 *
 * @since 0.1.0
 */
@AutoConfiguration(afterName = "org.springframework.boot.data.mongodb.autoconfigure.DataMongoAutoConfiguration")
@ConditionalOnClass(MongoOperations.class)
@ConditionalOnSingleCandidate(MongoOperations.class)
@EnableConfigurationProperties(MongoStoreProperties.class)
public final class MongoLeaseStoreConfiguration {

	@Bean
	@ConditionalOnMissingBean(ISequenceManager.class)
	MongoLeaseStore mongoLeaseStore(MongoOperations mongo, MongoStoreProperties properties) {
		return new MongoLeaseStore(mongo, properties.getLeaseCollection());
	}

}
