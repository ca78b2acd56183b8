package io.idstarter.store.mongo;

import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Supplier;
import java.util.stream.LongStream;

import com.mongodb.client.MongoClient;
import io.idstarter.sequence.SequenceStoreException;
import io.idstarter.sequence.TimePrefixedIdGenerator;
import org.bson.Document;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.data.mongodb.core.MongoTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Integration tests for {@link MongoCyclicSequence} and the {@link TimePrefixedIdGenerator} on top of it, including
 * seed 001's own expectation, on the server of {@code TestBackends.mongo()}: a real MongoDB when one is found,
 * otherwise (on this project's CI machines, which have no {@code mongod}) the in-JVM {@code mongo-java-server}; the
 * log line at the start names the one used. The class uses its own collection, and each test its own names.
 */
class MongoCyclicSequenceIntegrationTests {

	private static MongoTestSupport mongo;

	private static String collection;

	private MongoTemplate template;

	@BeforeAll
	static void connect() {
		mongo = MongoTestSupport.connect(MongoCyclicSequenceIntegrationTests.class);
		collection = MongoTestSupport.unique("cyclic");
	}

	@AfterAll
	static void disconnect() {
		mongo.drop(collection);
		mongo.close();
	}

	@BeforeEach
	void useTemplate() {
		this.template = mongo.template();
	}

	@Test
	void seed001TwentyThreadsTimesOneHundredCallsWithMax2000GiveEachOf0To1999ExactlyOnce() throws Exception {
		MongoCyclicSequence sequence = sequence(MongoTestSupport.unique("serial"), 2000);
		List<Long> values = concurrently(20, 100, sequence::next);
		assertThat(values).containsExactlyInAnyOrderElementsOf(LongStream.range(0, 2000).boxed().toList());
	}

	@Test
	void valuesWrapToZeroAtMaxAcrossProcesses() {
		String name = MongoTestSupport.unique("serial");
		MongoCyclicSequence one = sequence(name, 3);
		MongoCyclicSequence other = sequence(name, 3);
		List<Long> values = new ArrayList<>();
		for (int i = 0; i < 4; i++) {
			values.add(one.next());
			values.add(other.next());
		}
		assertThat(values).containsExactly(0L, 1L, 2L, 0L, 1L, 2L, 0L, 1L);
		assertThat(document(name)).isEqualTo(new Document("_id", name).append("max", 3L).append("counter", 8L));
	}

	@Test
	void aDifferentMaxForTheSameNameIsRejectedAndLeavesTheSequenceUnchanged() {
		String name = MongoTestSupport.unique("serial");
		sequence(name, 100).next();
		assertThatExceptionOfType(SequenceStoreException.class).isThrownBy(() -> sequence(name, 50).next())
			.withMessageContaining("Cyclic sequence '" + name + "'")
			.withMessageContaining("has max 100 in the store, but this process uses 50");
		assertThat(document(name).getLong("counter")).isEqualTo(1L);
	}

	@Test
	void aCorruptCounterGivesAClearErrorAndIsLeftUnchanged() {
		String name = MongoTestSupport.unique("serial");
		Document corrupt = new Document("_id", name).append("max", 10L).append("counter", 2.5);
		this.template.getCollection(collection).insertOne(corrupt);
		assertThatExceptionOfType(SequenceStoreException.class).isThrownBy(() -> sequence(name, 10).next())
			.withMessageContaining("counter is double '2.5'");
		assertThat(document(name)).isEqualTo(corrupt);
	}

	@Test
	void invalidNamesAndMaximaAreRejected() {
		assertThatIllegalArgumentException().isThrownBy(() -> sequence("has space", 10));
		assertThatIllegalArgumentException().isThrownBy(() -> sequence("serial", 0))
			.withMessageContaining("max of cyclic sequence 'serial' must be at least 1: 0");
	}

	@Test
	void timePrefixedIdsAreWellFormedAndUniqueUnderConcurrency() throws Exception {
		// Unique only while fewer than max IDs are made per millisecond: 1000 is far above what 8 threads reach.
		TimePrefixedIdGenerator ids = new TimePrefixedIdGenerator(sequence(MongoTestSupport.unique("serial"), 1000));
		LocalDateTime before = LocalDateTime.now(ZoneOffset.UTC).minusSeconds(1);
		List<String> values = concurrently(8, 100, ids::nextId);
		LocalDateTime after = LocalDateTime.now(ZoneOffset.UTC).plusSeconds(1);
		assertThat(new HashSet<>(values)).hasSize(values.size());
		DateTimeFormatter format = DateTimeFormatter.ofPattern("uuuuMMddHHmmssSSS");
		assertThat(values).allSatisfy((id) -> {
			assertThat(id).hasSize(20).containsOnlyDigits();
			assertThat(LocalDateTime.parse(id.substring(0, 17), format)).isBetween(before, after);
		});
		assertThat(values).extracting((id) -> Long.parseLong(id.substring(17)))
			.containsExactlyInAnyOrderElementsOf(LongStream.range(0, 800).boxed().toList());
	}

	@Test
	void anOutageGivesAStoreExceptionNamingTheStoreAndDrawingResumesAfterwards() {
		String name = MongoTestSupport.unique("serial");
		try (MongoClient client = mongo.proxiedClient()) {
			MongoCyclicSequence proxied = new MongoCyclicSequence(MongoTestSupport.template(client), collection, name,
					1000);
			assertThat(proxied.next()).isZero();
			mongo.cut();
			try {
				assertThatExceptionOfType(SequenceStoreException.class).isThrownBy(proxied::next)
					.withMessageContaining("MongoDB cyclic sequence store (collection '" + collection + "')");
			}
			finally {
				mongo.restore();
			}
			assertThat(proxied.next()).isPositive();
		}
	}

	private MongoCyclicSequence sequence(String name, long max) {
		return new MongoCyclicSequence(this.template, collection, name, max);
	}

	private Document document(String name) {
		return this.template.getCollection(collection).find(new Document("_id", name)).first();
	}

	private static <T> List<T> concurrently(int threads, int perThread, Supplier<T> draw) throws Exception {
		ExecutorService executor = Executors.newFixedThreadPool(threads);
		try {
			CountDownLatch start = new CountDownLatch(1);
			List<Future<List<T>>> futures = new ArrayList<>();
			for (int t = 0; t < threads; t++) {
				futures.add(executor.submit(() -> {
					start.await();
					List<T> values = new ArrayList<>();
					for (int i = 0; i < perThread; i++) {
						values.add(draw.get());
					}
					return values;
				}));
			}
			start.countDown();
			List<T> all = new ArrayList<>();
			for (Future<List<T>> future : futures) {
				all.addAll(future.get());
			}
			return all;
		}
		finally {
			executor.shutdownNow();
		}
	}

}
