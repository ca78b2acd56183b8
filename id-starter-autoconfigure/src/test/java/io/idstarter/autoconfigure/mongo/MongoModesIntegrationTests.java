package io.idstarter.autoconfigure.mongo;

import java.util.UUID;

import com.mongodb.ConnectionString;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoDatabase;
import io.idstarter.IdWorker;
import io.idstarter.autoconfigure.EnableIdWorker;
import io.idstarter.autoconfigure.IdWorkerMode;
import io.idstarter.lease.WorkerLeaseKeeper;
import io.idstarter.store.mongo.MongoSegmentStore;
import io.idstarter.testsupport.TestBackends;
import io.idstarter.testsupport.TestBackends.MongoBackend;
import org.bson.Document;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.mongodb.autoconfigure.DataMongoAutoConfiguration;
import org.springframework.boot.mongodb.autoconfigure.MongoAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.mongodb.core.MongoOperations;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * MONGO mode and MongoDB segments on the server {@link TestBackends#mongo()} finds: a real {@code mongod} when there
 * is one, otherwise the in-JVM {@code mongo-java-server} (as on the CI machines, which have no {@code mongod}).
 * Collections are the test's own and are dropped after it.
 */
class MongoModesIntegrationTests {

	private final MongoBackend mongo = TestBackends.mongo();

	private final String suffix = UUID.randomUUID().toString().replace("-", "").substring(0, 12);

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(MongoAutoConfiguration.class, DataMongoAutoConfiguration.class))
		.withPropertyValues("spring.mongodb.uri=" + this.mongo.connectionString(),
				"id-worker.mongo.lease-collection=it_leases_" + this.suffix,
				"id-worker.mongo.segment-collection=it_segments_" + this.suffix, "id-worker.lease.namespace=it");

	@Test
	void mongoModeLeasesDifferentWorkerIdsFromTheConfiguredCollection() {
		this.contextRunner.withUserConfiguration(MongoMode.class).run((first) -> {
			assertThat(first).hasNotFailed();
			int firstWorkerId = first.getBean(WorkerLeaseKeeper.class).status().workerId();
			this.contextRunner.withUserConfiguration(MongoMode.class).run((second) -> {
				assertThat(second.getBean(WorkerLeaseKeeper.class).status().workerId()).isNotEqualTo(firstWorkerId);
				assertThat(second.getBean(IdWorker.class).nextId()).isPositive();
			});
			MongoOperations operations = first.getBean(MongoOperations.class);
			// Two slots and the namespace's layout record, which has no slot field.
			assertThat(operations.getCollection("it_leases_" + this.suffix)
				.countDocuments(new Document("slot", new Document("$exists", true)))).isEqualTo(2);
			assertThat(operations.getCollection("it_leases_" + this.suffix)
				.countDocuments(new Document("_id", "it:layout"))).isEqualTo(1);
		});
	}

	@Test
	void segmentsComeFromMongoWhenChosen() {
		ApplicationContextRunner segments = this.contextRunner.withUserConfiguration(SegmentMode.class)
			.withPropertyValues("id-worker.segment.store=mongo");
		// The key must exist when the generators start: they read the key list then.
		segments.run((setup) -> {
			assertThat(setup).hasSingleBean(MongoSegmentStore.class);
			setup.getBean(MongoSegmentStore.class).createKey("orders", 1, 50, "integration test");
		});
		segments.run((first) -> {
			segments.run((second) -> {
				assertThat(first.getBean(IdWorker.class).nextId("orders")).isEqualTo(1);
				assertThat(second.getBean(IdWorker.class).nextId("orders")).isEqualTo(51);
			});
			MongoOperations operations = first.getBean(MongoOperations.class);
			// One document per key (its name is the _id) and the key list's marker, whose _id is a document.
			assertThat(operations.getCollection("it_segments_" + this.suffix)
				.countDocuments(new Document("_id", new Document("$type", "string")))).isOne();
			assertThat(operations.getCollection("it_segments_" + this.suffix).countDocuments()).isEqualTo(2);
		});
	}

	@AfterEach
	void dropOwnCollections() {
		try (MongoClient client = MongoClients.create(this.mongo.connectionString())) {
			String name = new ConnectionString(this.mongo.connectionString()).getDatabase();
			MongoDatabase database = client.getDatabase(name);
			database.getCollection("it_leases_" + this.suffix).drop();
			database.getCollection("it_segments_" + this.suffix).drop();
		}
	}

	@Configuration(proxyBeanMethods = false)
	@EnableIdWorker(mode = IdWorkerMode.MONGO)
	static class MongoMode {

	}

	@Configuration(proxyBeanMethods = false)
	@EnableIdWorker(mode = IdWorkerMode.SEGMENT)
	static class SegmentMode {

	}

}
