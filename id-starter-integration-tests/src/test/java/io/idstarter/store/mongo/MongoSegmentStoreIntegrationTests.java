package io.idstarter.store.mongo;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import com.mongodb.client.MongoClient;
import io.idstarter.segment.SegmentAllocation;
import io.idstarter.segment.SegmentStoreException;
import io.idstarter.segment.UnknownKeyException;
import org.bson.Document;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.data.mongodb.core.MongoTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Integration tests for {@link MongoSegmentStore} on the server of {@code TestBackends.mongo()}: a real MongoDB when
 * one is found, otherwise (on this project's CI machines, which have no {@code mongod}) the in-JVM
 * {@code mongo-java-server}; the log line at the start names the one used. Each test uses its own collection.
 */
class MongoSegmentStoreIntegrationTests {

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

	@BeforeEach
	void createStore() {
		this.template = mongo.template();
		this.collection = MongoTestSupport.unique("segments");
		this.store = new MongoSegmentStore(this.template, this.collection);
	}

	@AfterEach
	void dropCollection() {
		mongo.drop(this.collection);
	}

	@Test
	void allocateReturnsContiguousRangesFromTheFirstIdUpward() {
		assertThat(this.store.createKey("order", 100, 10, "orders")).isTrue();
		SegmentAllocation first = this.store.allocate("order");
		SegmentAllocation second = this.store.allocate("order");
		assertThat(first).isEqualTo(new SegmentAllocation("order", 100, 110, 10));
		assertThat(second).isEqualTo(new SegmentAllocation("order", 110, 120, 10));
		assertThat(document("order").getLong("max_id")).isEqualTo(120L);
	}

	@Test
	void allocateWithACallerStepUsesItAndReportsTheConfiguredStep() {
		this.store.createKey("order", 0, 10, "");
		assertThat(this.store.allocate("order", 50)).isEqualTo(new SegmentAllocation("order", 0, 50, 10));
		assertThat(this.store.allocate("order")).isEqualTo(new SegmentAllocation("order", 50, 60, 10));
	}

	@Test
	void concurrentAllocationsGetNonOverlappingContiguousRanges() throws Exception {
		this.store.createKey("order", 1, 7, "");
		int threads = 8;
		int perThread = 150;
		ExecutorService executor = Executors.newFixedThreadPool(threads);
		try {
			List<Future<List<SegmentAllocation>>> futures = new ArrayList<>();
			for (int t = 0; t < threads; t++) {
				int thread = t;
				Callable<List<SegmentAllocation>> task = () -> {
					List<SegmentAllocation> ranges = new ArrayList<>();
					for (int i = 0; i < perThread; i++) {
						ranges.add((i % 2 == 0) ? this.store.allocate("order")
								: this.store.allocate("order", 1 + (thread + i) % 5));
					}
					return ranges;
				};
				futures.add(executor.submit(task));
			}
			List<SegmentAllocation> all = new ArrayList<>();
			for (Future<List<SegmentAllocation>> future : futures) {
				all.addAll(future.get());
			}
			all.sort(Comparator.comparingLong(SegmentAllocation::start));
			assertThat(all).hasSize(threads * perThread);
			long expectedStart = 1;
			for (SegmentAllocation range : all) {
				assertThat(range.start()).as("start of %s", range).isEqualTo(expectedStart);
				assertThat(range.configuredStep()).isEqualTo(7);
				expectedStart = range.end();
			}
			assertThat(document("order").getLong("max_id")).isEqualTo(expectedStart);
		}
		finally {
			executor.shutdownNow();
		}
	}

	@Test
	void allocatingAnUnknownKeyThrowsAndCreatesNothing() {
		assertThatExceptionOfType(UnknownKeyException.class).isThrownBy(() -> this.store.allocate("missing"))
			.withMessageContaining("'missing'")
			.satisfies((ex) -> assertThat(ex.getKey()).isEqualTo("missing"));
		assertThatExceptionOfType(UnknownKeyException.class).isThrownBy(() -> this.store.allocate("missing", 5));
		assertThat(this.template.getCollection(this.collection).countDocuments()).isZero();
	}

	@Test
	void createKeyReturnsFalseForAnExistingKeyAndLeavesItUnchanged() {
		assertThat(this.store.createKey("order", 100, 10, "first")).isTrue();
		this.store.allocate("order");
		Document before = document("order");
		assertThat(this.store.createKey("order", 0, 99, "second")).isFalse();
		assertThat(document("order")).isEqualTo(before);
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
	void updateStepOfAnUnknownKeyThrows() {
		assertThatExceptionOfType(UnknownKeyException.class).isThrownBy(() -> this.store.updateStep("missing", 5));
		assertThat(this.template.getCollection(this.collection).countDocuments()).isZero();
	}

	@Test
	void keysListsTheStringKeysOfTheCollection() {
		this.store.createKey("b", 0, 1, "");
		this.store.createKey("a", 0, 1, "");
		this.template.getCollection(this.collection).insertOne(new Document("_id", 42).append("max_id", 0L));
		assertThat(this.store.keys()).containsExactly("a", "b");
	}

	@ParameterizedTest
	@ValueSource(strings = { "", "has space", "slash/key", "dollar$key", "ümlaut", "tab\tkey" })
	void invalidKeysAreRejectedBeforeTouchingTheStore(String key) {
		assertThatIllegalArgumentException().isThrownBy(() -> this.store.allocate(key))
			.withMessageContaining("[A-Za-z0-9_.:-]");
		assertThatIllegalArgumentException().isThrownBy(() -> this.store.allocate(key, 10));
		assertThatIllegalArgumentException().isThrownBy(() -> this.store.createKey(key, 0, 10, ""));
		assertThatIllegalArgumentException().isThrownBy(() -> this.store.updateStep(key, 10));
		assertThat(this.template.collectionExists(this.collection)).isFalse();
	}

	@Test
	void tooLongKeysAreRejected() {
		String key = "k".repeat(MongoSegmentStore.MAX_KEY_LENGTH + 1);
		assertThatIllegalArgumentException().isThrownBy(() -> this.store.createKey(key, 0, 10, ""))
			.withMessageContaining("1 to 128 characters");
		assertThat(this.store.createKey(key.substring(1), 0, 10, "")).isTrue();
	}

	@Test
	void invalidStepsFirstIdsAndDescriptionsAreRejectedAndLeaveTheKeyUnchanged() {
		this.store.createKey("order", 0, 10, "");
		Document before = document("order");
		assertThatIllegalArgumentException().isThrownBy(() -> this.store.allocate("order", 0))
			.withMessageContaining("step of key 'order' must be at least 1: 0");
		assertThatIllegalArgumentException().isThrownBy(() -> this.store.allocate("order", -5));
		assertThatIllegalArgumentException().isThrownBy(() -> this.store.updateStep("order", 0));
		assertThatIllegalArgumentException().isThrownBy(() -> this.store.createKey("other", 0, 0, ""));
		assertThatIllegalArgumentException().isThrownBy(() -> this.store.createKey("other", -1, 10, ""))
			.withMessageContaining("first ID of key 'other' must be at least 0: -1");
		assertThatIllegalArgumentException().isThrownBy(() -> this.store.createKey("other", 0, 10, "d".repeat(257)));
		assertThat(document("order")).isEqualTo(before);
		assertThat(document("other")).isNull();
	}

	@Test
	void aKeyThatWouldPassLongMaxValueThrowsAndIsLeftUnchanged() {
		this.store.createKey("order", Long.MAX_VALUE - 15, 10, "");
		assertThat(this.store.allocate("order"))
			.isEqualTo(new SegmentAllocation("order", Long.MAX_VALUE - 15, Long.MAX_VALUE - 5, 10));
		assertThatExceptionOfType(SegmentStoreException.class).isThrownBy(() -> this.store.allocate("order"))
			.withMessageContaining("'order'")
			.withMessageContaining("Long.MAX_VALUE");
		assertThat(document("order").getLong("max_id")).isEqualTo(Long.MAX_VALUE - 5);
		assertThat(this.store.allocate("order", 5))
			.isEqualTo(new SegmentAllocation("order", Long.MAX_VALUE - 5, Long.MAX_VALUE, 10));
		assertThatExceptionOfType(SegmentStoreException.class).isThrownBy(() -> this.store.allocate("order", 1));
		assertThat(document("order").getLong("max_id")).isEqualTo(Long.MAX_VALUE);
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
