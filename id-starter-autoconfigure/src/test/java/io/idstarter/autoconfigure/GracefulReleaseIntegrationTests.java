package io.idstarter.autoconfigure;

import java.time.Duration;
import java.util.UUID;

import io.idstarter.autoconfigure.jdbc.JdbcLeaseStoreConfiguration;
import io.idstarter.autoconfigure.mongo.MongoLeaseStoreConfiguration;
import io.idstarter.autoconfigure.redis.RedisLeaseStoreConfiguration;
import io.idstarter.lease.ISequenceManager;
import io.idstarter.lease.LeaseRequest;
import io.idstarter.lease.WorkerLease;
import io.idstarter.lease.WorkerLeaseKeeper;
import io.idstarter.snowflake.SnowflakeLayout;
import io.idstarter.snowflake.SnowflakeIdGenerator;
import io.idstarter.testsupport.TestBackends;
import io.idstarter.testsupport.TestBackends.JdbcBackend;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.mongodb.autoconfigure.DataMongoAutoConfiguration;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.mongodb.autoconfigure.MongoAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A Snowflake application gives its worker ID back when its context closes, on every store: the next borrower of the
 * namespace gets the same slot, and the slot's mark is the timestamp of the last ID issued, not the lease ceiling. The
 * store's client (a Lettuce connection factory, a pool, a Mongo client) is still usable when the keeper releases.
 */
class GracefulReleaseIntegrationTests {

	private final String suffix = UUID.randomUUID().toString().replace("-", "").substring(0, 12);

	@Test
	void dbModeGivesTheWorkerIdBackOnPostgres() {
		JdbcBackend postgres = TestBackends.postgres();
		ApplicationContextRunner runner = new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class))
			.withPropertyValues("spring.datasource.url=" + postgres.jdbcUrl(), "id-worker.jdbc.initialize-schema=always",
					"id-worker.jdbc.lease-table=it_release_" + this.suffix);
		if (postgres.username() != null) {
			runner = runner.withPropertyValues("spring.datasource.username=" + postgres.username(),
					"spring.datasource.password=" + postgres.password());
		}
		try {
			assertReleasedOnClose(runner, DbMode.class, JdbcLeaseStoreConfiguration.class);
		}
		finally {
			new JdbcTemplate(new DriverManagerDataSource(postgres.jdbcUrl(), postgres.username(), postgres.password()))
				.execute("DROP TABLE IF EXISTS it_release_" + this.suffix);
		}
	}

	@Test
	void redisModeGivesTheWorkerIdBackBeforeTheConnectionFactoryStops() {
		TestBackends.RedisBackend redis = TestBackends.redis();
		assertReleasedOnClose(new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class))
			.withPropertyValues("spring.data.redis.host=" + redis.host(), "spring.data.redis.port=" + redis.port(),
					"id-worker.redis.key-prefix=it-release-" + this.suffix + ":"),
				RedisMode.class, RedisLeaseStoreConfiguration.class);
	}

	@Test
	void mongoModeGivesTheWorkerIdBack() {
		TestBackends.MongoBackend mongo = TestBackends.mongo();
		assertReleasedOnClose(new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(MongoAutoConfiguration.class, DataMongoAutoConfiguration.class))
			.withPropertyValues("spring.mongodb.uri=" + mongo.connectionString(),
					"id-worker.mongo.lease-collection=it_release_" + this.suffix),
				MongoMode.class, MongoLeaseStoreConfiguration.class);
	}

	/**
	 * Issues IDs in an application of the given mode and closes it, then borrows from the same store in a context
	 * that has only the store (no keeper of its own to take the slot first) and checks that the slot is free again
	 * with the last issued timestamp as its mark.
	 */
	private void assertReleasedOnClose(ApplicationContextRunner runner, Class<?> mode, Class<?> storeConfiguration) {
		String namespace = "release-" + this.suffix;
		ApplicationContextRunner base = runner.withPropertyValues("id-worker.lease.namespace=" + namespace,
				"id-worker.lease.ttl=60s", "id-worker.lease.heartbeat=20s");
		int[] workerId = new int[1];
		long[] lastTimestamp = new long[1];
		base.withUserConfiguration(mode).run((app) -> {
			assertThat(app).hasNotFailed();
			SnowflakeIdGenerator generator = app.getBean(SnowflakeIdGenerator.class);
			long lastId = 0;
			for (int i = 0; i < 1000; i++) {
				lastId = generator.nextId();
			}
			workerId[0] = app.getBean(WorkerLeaseKeeper.class).status().workerId();
			lastTimestamp[0] = generator.layout().parse(lastId).timestamp().toEpochMilli();
		});
		base.withConfiguration(AutoConfigurations.of(storeConfiguration)).run((store) -> {
			assertThat(store).hasNotFailed().doesNotHaveBean(WorkerLeaseKeeper.class);
			ISequenceManager manager = store.getBean(ISequenceManager.class);
			WorkerLease lease = manager.borrow(new LeaseRequest(namespace, SnowflakeLayout.defaults().maxWorkerId(),
					Duration.ofSeconds(60), workerId[0], "test", System.currentTimeMillis()));
			assertThat(lease.workerId()).as("slot given back at close").isEqualTo(workerId[0]);
			assertThat(lease.timestampFloor()).as("mark of the released slot").isEqualTo(lastTimestamp[0]);
			manager.release(lease, -1);
		});
	}

	@Configuration(proxyBeanMethods = false)
	@EnableIdWorker(mode = IdWorkerMode.DB)
	static class DbMode {

	}

	@Configuration(proxyBeanMethods = false)
	@EnableIdWorker(mode = IdWorkerMode.REDIS)
	static class RedisMode {

	}

	@Configuration(proxyBeanMethods = false)
	@EnableIdWorker(mode = IdWorkerMode.MONGO)
	static class MongoMode {

	}

}
