package io.idstarter.store.mongo;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.IntFunction;
import java.util.function.LongSupplier;
import java.util.stream.LongStream;

import com.mongodb.client.MongoClient;
import io.idstarter.sequence.SequenceDefinition;
import io.idstarter.sequence.SequenceExhaustedException;
import io.idstarter.sequence.SequenceStoreException;
import io.idstarter.sequence.UnknownSequenceException;
import org.bson.Document;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.data.mongodb.core.MongoTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Integration tests for {@link MongoSequenceService}, including seed 000's own expectations, on the server of
 * {@code TestBackends.mongo()}: a real MongoDB when one is found, otherwise (on this project's CI machines, which
 * have no {@code mongod}) the in-JVM {@code mongo-java-server}; the log line at the start names the one used. Each
 * test uses its own sequences collection.
 */
class MongoSequenceServiceIntegrationTests {

	private static MongoTestSupport mongo;

	private MongoTemplate template;

	private String collection;

	private MongoSequenceService sequences;

	@BeforeAll
	static void connect() {
		mongo = MongoTestSupport.connect(MongoSequenceServiceIntegrationTests.class);
	}

	@AfterAll
	static void disconnect() {
		mongo.close();
	}

	@BeforeEach
	void createService() {
		this.template = mongo.template();
		this.collection = MongoTestSupport.unique("sequences");
		this.sequences = new MongoSequenceService(this.template, this.collection);
	}

	@AfterEach
	void dropCollection() {
		mongo.drop(this.collection);
	}

	@Test
	void seed000StepOneGivesOneThousandAfterOneThousandCalls() {
		assertThat(this.sequences.create(SequenceDefinition.of("sys_user"))).isTrue();
		for (int i = 0; i < 1000; i++) {
			assertThat(this.sequences.next(SysUser.class)).isEqualTo(i);
		}
		assertThat(this.sequences.next(SysUser.class)).isEqualTo(1000L);
	}

	@Test
	void seed000StepTenGivesTenThousandAfterOneThousandCalls() {
		this.sequences.create(SequenceDefinition.of("sys_user2").withStep(10));
		for (int i = 0; i < 1000; i++) {
			this.sequences.next("sys_user2");
		}
		assertThat(this.sequences.next("sys_user2")).isEqualTo(10000L);
	}

	@Test
	void seed000BatchOfTenGivesOneThousandAfterOneThousandCallsWithATenthOfTheStoreRoundTrips() {
		this.sequences.create(SequenceDefinition.of("sys_user3").withBatchSize(10));
		for (int i = 0; i < 1000; i++) {
			this.sequences.next("sys_user3");
		}
		assertThat(this.sequences.next("sys_user3")).isEqualTo(1000L);
		assertThat(document("sys_user3").getLong("current")).isEqualTo(1010L);
	}

	@Test
	void valuesStartAtTheDefinitionsStart() {
		this.sequences.create(SequenceDefinition.of("orders").withStart(500).withStep(5));
		assertThat(this.sequences.next("orders")).isEqualTo(500);
		assertThat(this.sequences.next("orders")).isEqualTo(505);
	}

	@Test
	void entitiesAreNamedAfterTheirCollectionAsSpringDataResolvesIt() {
		assertThat(this.sequences.sequenceName(SysUser.class)).isEqualTo("sys_user");
		assertThat(this.sequences.sequenceName(Invoice.class)).isEqualTo("invoice");
		assertThat(this.sequences.sequenceName(PlainOrder.class)).isEqualTo("plainOrder");
		this.sequences.create(SequenceDefinition.of("invoice").withStart(7));
		assertThat(this.sequences.next(Invoice.class)).isEqualTo(7);
	}

	@Test
	void concurrentCallsGetEachValueExactlyOnce() throws Exception {
		this.sequences.create(SequenceDefinition.of("orders"));
		List<Long> values = drawConcurrently(8, 100, (thread) -> () -> this.sequences.next("orders"));
		assertThat(values).containsExactlyInAnyOrderElementsOf(LongStream.range(0, 800).boxed().toList());
	}

	@Test
	void concurrentBatchCallsFromTwoServicesNeverRepeatAValue() throws Exception {
		this.sequences.create(SequenceDefinition.of("orders").withStep(3).withBatchSize(16));
		MongoSequenceService other = new MongoSequenceService(this.template, this.collection);
		List<Long> values = drawConcurrently(8, 500,
				(thread) -> (thread % 2 == 0) ? () -> this.sequences.next("orders") : () -> other.next("orders"));
		Set<Long> distinct = new HashSet<>(values);
		assertThat(distinct).hasSize(8 * 500);
		long current = document("orders").getLong("current");
		assertThat(distinct).allSatisfy((value) -> {
			assertThat(value % 3).isZero();
			assertThat(value).isBetween(0L, current - 3);
		});
	}

	@Test
	void batchesAreOneStoreRoundTripEachAndKeepOneJvmsValuesContiguous() throws Exception {
		this.sequences.create(SequenceDefinition.of("orders").withBatchSize(50));
		List<Long> values = drawConcurrently(8, 250, (thread) -> () -> this.sequences.next("orders"));
		assertThat(values).containsExactlyInAnyOrderElementsOf(LongStream.range(0, 2000).boxed().toList());
		assertThat(document("orders").getLong("current")).isEqualTo(2000L);
	}

	@Test
	void passingTheEndGivesAClearErrorAndLeavesTheSequenceUnchanged() {
		this.sequences.create(SequenceDefinition.of("small").withEnd(9));
		for (int i = 0; i < 10; i++) {
			assertThat(this.sequences.next("small")).isEqualTo(i);
		}
		assertThatExceptionOfType(SequenceExhaustedException.class).isThrownBy(() -> this.sequences.next("small"))
			.withMessageContaining("Sequence 'small'")
			.withMessageContaining("its end 9")
			.satisfies((ex) -> {
				assertThat(ex.getSequenceName()).isEqualTo("small");
				assertThat(ex.getEnd()).isEqualTo(9);
			});
		assertThat(document("small").getLong("current")).isEqualTo(10L);
	}

	@Test
	void theLastBatchIsCutShortAtTheEnd() {
		this.sequences.create(SequenceDefinition.of("small").withStep(2).withEnd(20).withBatchSize(4));
		List<Long> values = new ArrayList<>();
		for (int i = 0; i < 11; i++) {
			values.add(this.sequences.next("small"));
		}
		assertThat(values).containsExactly(0L, 2L, 4L, 6L, 8L, 10L, 12L, 14L, 16L, 18L, 20L);
		assertThatExceptionOfType(SequenceExhaustedException.class).isThrownBy(() -> this.sequences.next("small"))
			.withMessageContaining("its end 20");
	}

	@Test
	void aSequenceEndingAtLongMaxValueStopsOneStepBelowIt() {
		this.sequences.create(SequenceDefinition.of("top").withStart(Long.MAX_VALUE - 2));
		assertThat(this.sequences.next("top")).isEqualTo(Long.MAX_VALUE - 2);
		assertThat(this.sequences.next("top")).isEqualTo(Long.MAX_VALUE - 1);
		assertThatExceptionOfType(SequenceExhaustedException.class).isThrownBy(() -> this.sequences.next("top"));
		assertThat(document("top").getLong("current")).isEqualTo(Long.MAX_VALUE);
	}

	@Test
	void anUnknownSequenceThrowsAndCreatesNothing() {
		assertThatExceptionOfType(UnknownSequenceException.class).isThrownBy(() -> this.sequences.next("missing"))
			.withMessageContaining("Unknown sequence 'missing'")
			.withMessageContaining(this.collection);
		assertThat(this.template.collectionExists(this.collection)).isFalse();
	}

	@Test
	void createReturnsFalseForAnExistingSequenceAndLeavesItUnchanged() {
		assertThat(this.sequences.create(SequenceDefinition.of("orders"))).isTrue();
		this.sequences.next("orders");
		Document before = document("orders");
		assertThat(this.sequences.create(SequenceDefinition.of("orders").withStep(99))).isFalse();
		assertThat(document("orders")).isEqualTo(before);
	}

	@Test
	void aStepChangedInTheStoreIsUsedFromTheNextDraw() {
		this.sequences.create(SequenceDefinition.of("orders"));
		assertThat(this.sequences.next("orders")).isZero();
		this.template.getCollection(this.collection)
			.updateOne(new Document("_id", "orders"), new Document("$set", new Document("step", 5L)));
		assertThat(this.sequences.next("orders")).isEqualTo(1);
		assertThat(this.sequences.next("orders")).isEqualTo(6);
	}

	@Test
	void aHandWrittenDocumentInTheSeedsShapeWorks() {
		insert(new Document("_id", "sys_user").append("start", 0).append("end", Long.MAX_VALUE)
			.append("step", 1)
			.append("current", 0));
		assertThat(this.sequences.next(SysUser.class)).isZero();
		assertThat(this.sequences.next(SysUser.class)).isEqualTo(1);
	}

	@Test
	void corruptDocumentsGiveClearErrorsAndAreLeftUnchanged() {
		insert(new Document("_id", "text").append("start", 0L).append("end", 10L).append("step", 1L)
			.append("current", "abc"));
		insert(new Document("_id", "zero-step").append("start", 0L).append("end", 10L).append("step", 0L)
			.append("current", 0L));
		insert(new Document("_id", "no-end").append("start", 0L).append("step", 1L).append("current", 0L));
		assertCorrupt("text", "current is string 'abc'");
		assertCorrupt("zero-step", "step of sequence 'zero-step' must be at least 1: 0");
		assertCorrupt("no-end", "end is missing");
	}

	@Test
	void invalidNamesAndDefinitionsAreRejectedBeforeTouchingTheStore() {
		assertThatIllegalArgumentException().isThrownBy(() -> this.sequences.next(""));
		assertThatIllegalArgumentException().isThrownBy(() -> this.sequences.next("has space"))
			.withMessageContaining("[A-Za-z0-9_.:-]");
		assertThatIllegalArgumentException().isThrownBy(() -> this.sequences.next("x".repeat(129)));
		assertThatIllegalArgumentException().isThrownBy(() -> SequenceDefinition.of("orders").withStep(0));
		assertThat(this.template.collectionExists(this.collection)).isFalse();
	}

	@Test
	void anOutageGivesAStoreExceptionNamingTheStoreAndDrawingResumesAfterwards() {
		this.sequences.create(SequenceDefinition.of("orders"));
		try (MongoClient client = mongo.proxiedClient()) {
			MongoSequenceService proxied = new MongoSequenceService(MongoTestSupport.template(client),
					this.collection);
			long before = proxied.next("orders");
			mongo.cut();
			try {
				assertThatExceptionOfType(SequenceStoreException.class).isThrownBy(() -> proxied.next("orders"))
					.withMessageContaining("MongoDB sequence store (collection '" + this.collection + "')")
					.withMessageContaining("sequence 'orders'");
			}
			finally {
				mongo.restore();
			}
			assertThat(proxied.next("orders")).isGreaterThan(before);
		}
	}

	private void assertCorrupt(String name, String detail) {
		Document before = document(name);
		assertThatExceptionOfType(SequenceStoreException.class).isThrownBy(() -> this.sequences.next(name))
			.withMessageContaining("'" + name + "'")
			.withMessageContaining(this.collection)
			.withMessageContaining(detail);
		assertThat(document(name)).isEqualTo(before);
	}

	private static List<Long> drawConcurrently(int threads, int perThread, IntFunction<LongSupplier> draws)
			throws Exception {
		ExecutorService executor = Executors.newFixedThreadPool(threads);
		try {
			CountDownLatch start = new CountDownLatch(1);
			List<Future<List<Long>>> futures = new ArrayList<>();
			for (int t = 0; t < threads; t++) {
				LongSupplier draw = draws.apply(t);
				futures.add(executor.submit(() -> {
					start.await();
					List<Long> values = new ArrayList<>();
					for (int i = 0; i < perThread; i++) {
						values.add(draw.getAsLong());
					}
					return values;
				}));
			}
			start.countDown();
			List<Long> all = new ArrayList<>();
			for (Future<List<Long>> future : futures) {
				all.addAll(future.get());
			}
			return all;
		}
		finally {
			executor.shutdownNow();
		}
	}

	private void insert(Document document) {
		this.template.getCollection(this.collection).insertOne(document);
	}

	private Document document(String name) {
		return this.template.getCollection(this.collection).find(new Document("_id", name)).first();
	}

	@org.springframework.data.mongodb.core.mapping.Document(collection = "sys_user")
	static class SysUser {

	}

	@org.springframework.data.mongodb.core.mapping.Document
	static class Invoice {

	}

	static class PlainOrder {

	}

}
