package io.idstarter.store.mongo;

import java.time.Duration;

import com.mongodb.client.MongoClient;
import io.idstarter.segment.SegmentAllocation;
import io.idstarter.segment.SegmentIdGenerator;
import io.idstarter.segment.SegmentOptions;
import io.idstarter.segment.SegmentStore;
import io.idstarter.segment.SegmentStoreException;
import io.idstarter.segment.UnknownKeyException;
import io.idstarter.testsupport.contract.AbstractSegmentStoreContractTests;
import org.bson.Document;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.data.mongodb.core.MongoTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Integration tests for {@link MongoSegmentStore} on the server of {@code TestBackends.mongo()}: a real MongoDB when
 * one is found, otherwise (on this project's CI machines, which have no {@code mongod}) the in-JVM
 * {@code mongo-java-server}; the log line at the start names the one used. The segment contract of
 * {@link AbstractSegmentStoreContractTests}, and what is particular to MongoDB (cached steps, documents written by
 * hand, corrupt documents, outages). Each test uses its own collection.
 */
class MongoSegmentStoreIntegrationTests extends AbstractSegmentStoreContractTests {

	private static MongoTestSupport mongo;

	private MongoTemplate template;

	private String collection;

	private MongoSegmentStore store;

	@BeforeAll
	static void connect() {
		mongo = MongoTestSupport.connect(MongoSegmentStoreIntegrationTests.class);
	}

	@AfterAll
	static void disconnect() {
		mongo.close();
	}

	@Override
	protected SegmentStore createStore() {
		this.template = mongo.template();
		this.collection = MongoTestSupport.unique("segments");
		this.store = new MongoSegmentStore(this.template, this.collection);
		return this.store;
	}

	@AfterEach
	void dropCollection() {
		mongo.drop(this.collection);
	}

	@Test
	void updateStepIsSeenByAnotherStoreThatCachedTheOldStep() {
		MongoSegmentStore other = new MongoSegmentStore(this.template, this.collection);
		this.store.createKey("order", 0, 10, "");
		assertThat(this.store.allocate("order")).isEqualTo(new SegmentAllocation("order", 0, 10, 10));
		other.updateStep("order", 25);
		assertThat(this.store.allocate("order")).isEqualTo(new SegmentAllocation("order", 10, 35, 25));
		assertThat(document("order").getInteger("step")).isEqualTo(25);
	}

	@Test
	void everyKeyCreatedChangesTheMarkerEvenWhenAnotherDocumentWentMissing() {
		this.store.createKey("first", 0, 10, "");
		this.store.createKey("lost", 0, 10, "");
		String seen = this.store.keysMarker();
		// Removed by hand, or rolled back by a failover: as many documents as before once the next key is created.
		this.template.getCollection(this.collection).deleteOne(new Document("_id", "lost"));
		this.store.createKey("other", 0, 10, "");
		assertThat(this.store.keys()).containsExactly("first", "other");
		assertThat(this.store.keysMarker()).isNotEqualTo(seen);
		String withOther = this.store.keysMarker();
		assertThat(this.store.createKey("other", 0, 10, "")).isFalse();
		assertThat(this.store.keysMarker()).as("a key that existed: no change").isEqualTo(withOther);
	}

	@Test
	void aKeySwappedByHandIsServedAtItsFirstCallWithinTheUnknownKeyInterval() {
		this.store.createKey("swapped", 1, 10, "");
		this.store.createKey("kept", 1, 10, "");
		SegmentOptions options = SegmentOptions.builder().keyRefreshInterval(Duration.ofHours(1)).build();
		try (SegmentIdGenerator generator = new SegmentIdGenerator(this.store, options)) {
			generator.start();
			assertThat(generator.nextId("kept")).isOne();
			// By hand: one document deleted and another inserted, as many documents as before.
			this.template.getCollection(this.collection).deleteOne(new Document("_id", "swapped"));
			insert(new Document("_id", "inserted").append("max_id", 1L).append("step", 10));
			await().atMost(Duration.ofSeconds(3))
				.pollInterval(Duration.ofMillis(100))
				.ignoreException(UnknownKeyException.class)
				.until(() -> generator.nextId("inserted") == 1);
			assertThat(generator.keys()).contains("inserted", "kept");
		}
	}

	@Test
	void keysListsTheStringKeysOfTheCollection() {
		this.store.createKey("b", 0, 1, "");
		this.store.createKey("a", 0, 1, "");
		this.template.getCollection(this.collection).insertOne(new Document("_id", 42).append("max_id", 0L));
		assertThat(this.store.keys()).containsExactly("a", "b");
	}

	@Test
	void corruptDocumentsGiveClearErrorsAndAreLeftUnchanged() {
		insert(new Document("_id", "text").append("max_id", "abc").append("step", 10));
		insert(new Document("_id", "double").append("max_id", 1.5).append("step", 10));
		insert(new Document("_id", "negative").append("max_id", -3L).append("step", 10));
		insert(new Document("_id", "zero-step").append("max_id", 5L).append("step", 0));
		insert(new Document("_id", "no-step").append("max_id", 5L));
		assertCorrupt("text", "max_id is string 'abc'");
		assertCorrupt("double", "max_id is double '1.5'");
		assertCorrupt("negative", "max_id is long '-3'");
		assertCorrupt("zero-step", "step is int '0'");
		assertCorrupt("no-step", "step is missing");
	}

	@Test
	void aHandWrittenKeyWithIntegerFieldsWorks() {
		insert(new Document("_id", "legacy").append("max_id", 7).append("step", 3));
		assertThat(this.store.allocate("legacy")).isEqualTo(new SegmentAllocation("legacy", 7, 10, 3));
		assertThat(document("legacy").get("max_id")).isInstanceOf(Long.class);
	}

	@Test
	void anOutageGivesAStoreExceptionNamingTheStoreAndAllocationResumesAfterwards() {
		try (MongoClient client = mongo.proxiedClient()) {
			MongoSegmentStore proxied = new MongoSegmentStore(MongoTestSupport.template(client), this.collection);
			proxied.createKey("order", 0, 10, "");
			SegmentAllocation before = proxied.allocate("order");
			mongo.cut();
			try {
				assertThatExceptionOfType(SegmentStoreException.class).isThrownBy(() -> proxied.allocate("order"))
					.withMessageContaining("MongoDB segment store (collection '" + this.collection + "')")
					.withMessageContaining("allocate a range of key 'order'");
			}
			finally {
				mongo.restore();
			}
			SegmentAllocation after = proxied.allocate("order");
			assertThat(after.start()).isGreaterThanOrEqualTo(before.end());
		}
	}

	private void assertCorrupt(String key, String detail) {
		Document before = document(key);
		assertThatExceptionOfType(SegmentStoreException.class).isThrownBy(() -> this.store.allocate(key))
			.withMessageContaining("'" + key + "'")
			.withMessageContaining(this.collection)
			.withMessageContaining(detail);
		assertThatExceptionOfType(SegmentStoreException.class).isThrownBy(() -> this.store.allocate(key, 4))
			.withMessageContaining(detail);
		assertThat(document(key)).isEqualTo(before);
	}

	private void insert(Document document) {
		this.template.getCollection(this.collection).insertOne(document);
	}

	private Document document(String key) {
		return this.template.getCollection(this.collection).find(new Document("_id", key)).first();
	}

}
