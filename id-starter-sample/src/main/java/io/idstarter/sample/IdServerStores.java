package io.idstarter.sample;

import io.idstarter.autoconfigure.EnableIdWorker;
import io.idstarter.autoconfigure.IdWorkerMode;
import io.idstarter.autoconfigure.IdWorkerProperties;
import io.idstarter.lease.ISequenceManager;
import io.idstarter.segment.SegmentStore;
import io.idstarter.store.mongo.MongoSegmentStore;
import io.idstarter.store.mongo.MongoSequenceManager;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Profile;
import org.springframework.data.mongodb.core.MongoOperations;

/**
 * Turns on segment and Snowflake IDs, with the worker ID leased from the store of the active profile: the relational
 * database by default (embedded H2, or the {@code mariadb} / {@code postgresql} profiles), Redis with the
 * {@code redis} profile, MongoDB with the {@code mongo} profile. An application with one store puts the one
 * {@code @EnableIdWorker} it needs on its main class instead. {@link StoreProfilesCheck} refuses both {@code redis}
 * and {@code mongo} at once.
 */
@Configuration(proxyBeanMethods = false)
public class IdServerStores {

	/**
	 * Segments and worker leases in the relational database.
	 */
	@Configuration(proxyBeanMethods = false)
	@Profile("!redis & !mongo")
	@EnableIdWorker(mode = { IdWorkerMode.SEGMENT, IdWorkerMode.DB })
	static class Jdbc {

	}

	/**
	 * Segments and worker leases in Redis.
	 */
	@Configuration(proxyBeanMethods = false)
	@Profile("redis & !mongo")
	@EnableIdWorker(mode = { IdWorkerMode.SEGMENT, IdWorkerMode.REDIS })
	static class Redis {

	}

	/**
	 * Segments and worker leases in MongoDB. The starter does not configure its MongoDB stores yet, so the server
	 * defines them here, through the extension point every application has: its own {@link SegmentStore} and
	 * {@link ISequenceManager} beans, which the starter then uses.
	 */
	@Configuration(proxyBeanMethods = false)
	@Profile("mongo & !redis")
	@EnableIdWorker(mode = { IdWorkerMode.SEGMENT, IdWorkerMode.MONGO })
	static class Mongo {

		/**
		 * The stores, in a class of their own: the class that carries {@code @EnableIdWorker} must not declare
		 * beans, or the starter counts each bean as another {@code @EnableIdWorker} class.
		 */
		@Configuration(proxyBeanMethods = false)
		@Profile("mongo & !redis")
		static class Stores {

			@Bean
			MongoSegmentStore mongoSegmentStore(MongoOperations mongo, IdWorkerProperties properties) {
				return new MongoSegmentStore(mongo, properties.getMongo().getSegmentCollection());
			}

			@Bean
			MongoSequenceManager mongoSequenceManager(MongoOperations mongo, IdWorkerProperties properties) {
				return new MongoSequenceManager(mongo, properties.getMongo().getLeaseCollection());
			}

		}

	}

}
