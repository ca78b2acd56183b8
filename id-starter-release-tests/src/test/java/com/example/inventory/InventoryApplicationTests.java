package com.example.inventory;

import java.util.HashSet;
import java.util.Set;

import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.backend.memory.MemoryBackend;
import io.idstarter.IdWorker;
import io.idstarter.snowflake.SnowflakeIdGenerator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The MONGO mode against mongo-java-server, a MongoDB wire-protocol server inside this JVM (no mongod needed).
 */
@SpringBootTest
class InventoryApplicationTests {

	private static final MongoServer MONGO = new MongoServer(new MemoryBackend());

	@DynamicPropertySource
	static void mongo(DynamicPropertyRegistry registry) {
		String address = MONGO.bindAndGetConnectionString();
		registry.add("spring.mongodb.uri", () -> address + "/inventory");
	}

	@AfterAll
	static void stopMongo() {
		MONGO.shutdownNow();
	}

	@Autowired
	private IdWorker idWorker;

	@Test
	void snowflakeIdsWithAWorkerIdLeasedFromMongoDb() {
		assertThat(this.idWorker).isInstanceOf(SnowflakeIdGenerator.class);
		Set<Long> ids = new HashSet<>();
		for (int i = 0; i < 10_000; i++) {
			assertThat(ids.add(this.idWorker.nextId())).isTrue();
		}
		System.out.printf("release MONGO (mongo-java-server lease): %d IDs, 0 duplicates%n", ids.size());
	}

}
