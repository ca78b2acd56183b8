package io.idstarter.data.mongo;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.LongStream;

import io.idstarter.autoconfigure.data.mongo.IdWorkerMongoSequenceAutoConfiguration;
import io.idstarter.sequence.SequenceDefinition;
import io.idstarter.sequence.UnknownSequenceException;
import io.idstarter.store.mongo.MongoSequenceService;
import io.idstarter.testsupport.TestBackends;
import io.idstarter.testsupport.TestBackends.MongoBackend;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.mongodb.autoconfigure.DataMongoAutoConfiguration;
import org.springframework.boot.mongodb.autoconfigure.MongoAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.data.annotation.Id;
import org.springframework.data.mongodb.core.MongoTemplate;
import org.springframework.data.mongodb.core.query.Query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * Tests for {@link SequenceId @SequenceId} on the MongoDB server of {@link TestBackends#mongo()} (the in-JVM
 * mongo-java-server where no mongod is available), wired by {@link IdWorkerMongoSequenceAutoConfiguration}.
 */
class SequenceIdEntityCallbackIntegrationTests {

	private static final Logger logger = LoggerFactory.getLogger(SequenceIdEntityCallbackIntegrationTests.class);

	private static final String SEQUENCES = "id_sequences_" + unique();

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(MongoAutoConfiguration.class, DataMongoAutoConfiguration.class,
				IdWorkerMongoSequenceAutoConfiguration.class))
		.withPropertyValues("spring.mongodb.uri=" + TestBackends.mongo().connectionString(),
				"id-worker.mongo.sequence-collection=" + SEQUENCES);

	@BeforeAll
	static void logBackend() {
		MongoBackend backend = TestBackends.mongo();
		logger.info("Runs on MongoDB from {} (in-JVM mongo-java-server: {})", backend.origin(), backend.inJvm());
	}

	@Test
	void savedEntitiesGetTheNextValuesOfTheirCollectionsSequence() {
		this.contextRunner.run((context) -> {
			MongoTemplate template = context.getBean(MongoTemplate.class);
			String users = "users_" + unique();
			List<Long> ids = new ArrayList<>();
			for (int i = 0; i < 50; i++) {
				ids.add(template.insert(new User("user-" + i), users).id);
			}
			assertThat(ids).containsExactlyElementsOf(LongStream.rangeClosed(1, 50).boxed().toList());
			assertThat(template.findAll(User.class, users)).extracting((user) -> user.id)
				.containsExactlyInAnyOrderElementsOf(ids);
			assertThat(context.getBean(MongoSequenceService.class).getCollection()).isEqualTo(SEQUENCES);
			assertThat(template.getCollection(SEQUENCES).countDocuments(new org.bson.Document("_id", users)))
				.isEqualTo(1);
		});
	}

	@Test
	void concurrentSavesGetEveryValueOnceWithoutGaps() {
		this.contextRunner.run((context) -> {
			MongoTemplate template = context.getBean(MongoTemplate.class);
			String users = "users_" + unique();
			ExecutorService executor = Executors.newFixedThreadPool(4);
			try {
				List<Future<List<Long>>> futures = new ArrayList<>();
				for (int t = 0; t < 4; t++) {
					futures.add(executor.submit(() -> {
						List<Long> ids = new ArrayList<>();
						for (int i = 0; i < 100; i++) {
							ids.add(template.save(new User("u"), users).id);
						}
						return ids;
					}));
				}
				List<Long> all = new ArrayList<>();
				for (Future<List<Long>> future : futures) {
					List<Long> ids = future.get();
					assertThat(ids).isSorted();
					all.addAll(ids);
				}
				assertThat(all).containsExactlyInAnyOrderElementsOf(LongStream.rangeClosed(1, 400).boxed().toList());
			}
			finally {
				executor.shutdownNow();
			}
			assertThat(template.count(new Query(), users)).isEqualTo(400);
		});
	}

	@Test
	void existingSequenceDecidesStartAndStep() {
		this.contextRunner.run((context) -> {
			MongoTemplate template = context.getBean(MongoTemplate.class);
			String users = "users_" + unique();
			context.getBean(MongoSequenceService.class)
				.create(new SequenceDefinition(users, 1000, Long.MAX_VALUE, 10, 1));
			assertThat(template.insert(new User("a"), users).id).isEqualTo(1000);
			assertThat(template.insert(new User("b"), users).id).isEqualTo(1010);
			assertThat(template.insert(new User("c"), users).id).isEqualTo(1020);
		});
	}

	@Test
	void setIdIsKeptAndUpdatesDoNotDrawAgain() {
		this.contextRunner.run((context) -> {
			MongoTemplate template = context.getBean(MongoTemplate.class);
			String users = "users_" + unique();
			User imported = new User("imported");
			imported.id = 77L;
			assertThat(template.insert(imported, users).id).isEqualTo(77);
			User saved = template.insert(new User("new"), users);
			assertThat(saved.id).isEqualTo(1);
			saved.name = "renamed";
			assertThat(template.save(saved, users).id).isEqualTo(1);
			assertThat(template.insert(new User("next"), users).id).isEqualTo(2);
		});
	}

	@Test
	void annotationSettingsCreateTheSequenceAndNameOtherTypesAndSequences() {
		this.contextRunner.run((context) -> {
			MongoTemplate template = context.getBean(MongoTemplate.class);
			String tickets = "tickets_" + unique();
			Ticket first = template.insert(new Ticket(null, null, "a"), tickets);
			Ticket second = template.insert(new Ticket(null, null, "b"), tickets);
			assertThat(first.number()).isEqualTo("500");
			assertThat(second.number()).isEqualTo("505");
			assertThat(context.getBean(MongoSequenceService.class).next(Ticket.SEQUENCE)).isEqualTo(510);
		});
	}

	@Test
	void immutableEntitiesAreCopiedWithTheirId() {
		this.contextRunner.run((context) -> {
			MongoTemplate template = context.getBean(MongoTemplate.class);
			String items = "items_" + unique();
			Item item = template.insert(new Item(0, "x"), items);
			assertThat(item.id()).isEqualTo(1);
			assertThat(template.findById(1, Item.class, items)).isEqualTo(new Item(1, "x"));
		});
	}

	@Test
	void unknownSequenceFailsWhenCreationIsOff() {
		this.contextRunner.run((context) -> {
			MongoTemplate template = context.getBean(MongoTemplate.class);
			String collection = "strict_" + unique();
			assertThatExceptionOfType(UnknownSequenceException.class)
				.isThrownBy(() -> template.insert(new Strict(null), collection))
				.withMessageContaining(collection);
			assertThat(template.count(new Query(), collection)).isZero();
		});
	}

	@Test
	void invalidAnnotationFailsTheSaveWithItsReason() {
		this.contextRunner.run((context) -> {
			MongoTemplate template = context.getBean(MongoTemplate.class);
			assertThatIllegalStateException().isThrownBy(() -> template.insert(new Flag(null), "flags_" + unique()))
				.withMessage("@SequenceId on io.idstarter.data.mongo.SequenceIdEntityCallbackIntegrationTests$Flag"
						+ ".id needs a long, int, BigInteger or String field, found java.lang.Boolean");
			assertThatIllegalStateException().isThrownBy(() -> template.insert(new Zero(null), "zero_" + unique()))
				.withMessageContaining("start must be at least 1");
		});
	}

	private static String unique() {
		return UUID.randomUUID().toString().substring(0, 8);
	}

	static class User {

		@Id
		@SequenceId
		Long id;

		String name;

		User(String name) {
			this.name = name;
		}

	}

	record Item(@Id @SequenceId long id, String name) {

		Item withId(long id) {
			return new Item(id, this.name);
		}

	}

	record Ticket(@Id String id, @SequenceId(sequence = Ticket.SEQUENCE, start = 500, step = 5) String number,
			String label) {

		static final String SEQUENCE = "ticket-numbers";

		Ticket withNumber(String number) {
			return new Ticket(this.id, number, this.label);
		}

		Ticket withId(String id) {
			return new Ticket(id, this.number, this.label);
		}

	}

	record Strict(@Id @SequenceId(create = false) Long id) {

		Strict withId(Long id) {
			return new Strict(id);
		}

	}

	record Flag(@Id @SequenceId Boolean id) {

	}

	record Zero(@Id @SequenceId(start = 0) Long id) {

	}

}
