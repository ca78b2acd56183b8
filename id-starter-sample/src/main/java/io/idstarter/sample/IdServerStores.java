package io.idstarter.sample;

import io.idstarter.autoconfigure.EnableIdWorker;
import io.idstarter.autoconfigure.IdWorkerMode;

import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Profile;

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
	 * Segments and worker leases in MongoDB.
	 */
	@Configuration(proxyBeanMethods = false)
	@Profile("mongo & !redis")
	@EnableIdWorker(mode = { IdWorkerMode.SEGMENT, IdWorkerMode.MONGO })
	static class Mongo {

	}

}
