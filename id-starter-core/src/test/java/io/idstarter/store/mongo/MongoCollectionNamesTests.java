package io.idstarter.store.mongo;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.data.mongodb.core.MongoTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link MongoCollectionNames}, through the stores built by hand: the rule the settings apply is the one
 * the stores apply.
 */
class MongoCollectionNamesTests {

	// Never connected: building a store does not talk to the server.
	private final MongoClient client = MongoClients.create("mongodb://localhost:1");

	private final MongoTemplate mongo = new MongoTemplate(this.client, "ids");

	@AfterEach
	void closeClient() {
		this.client.close();
	}

	@Test
	void aStoreBuiltByHandRefusesACollectionMongoDbKeepsForItself() {
		assertThatIllegalArgumentException().isThrownBy(() -> new MongoLeaseStore(this.mongo, "system.leases"))
			.withMessageContaining("'system.leases'")
			.withMessageContaining("not start with 'system.'");
		assertThatIllegalArgumentException().isThrownBy(() -> new MongoSegmentStore(this.mongo, "system.x"));
	}

	@Test
	void namesMongoDbRefusesAreRefused() {
		assertThatIllegalArgumentException().isThrownBy(() -> MongoCollectionNames.check(" "));
		assertThatIllegalArgumentException().isThrownBy(() -> MongoCollectionNames.check("ids$"));
		assertThatIllegalArgumentException().isThrownBy(() -> MongoCollectionNames.check("a\0b"));
		assertThatIllegalArgumentException()
			.isThrownBy(() -> MongoCollectionNames.check("x".repeat(MongoCollectionNames.MAX_LENGTH + 1)));
	}

	@Test
	void ordinaryNamesPass() {
		assertThat(MongoCollectionNames.check("id_worker_leases")).isEqualTo("id_worker_leases");
		assertThat(MongoCollectionNames.check("x".repeat(MongoCollectionNames.MAX_LENGTH))).hasSize(120);
		assertThat(new MongoSegmentStore(this.mongo, "my.segments")).isNotNull();
	}

}
