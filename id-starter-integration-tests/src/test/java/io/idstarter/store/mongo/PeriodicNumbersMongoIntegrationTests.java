package io.idstarter.store.mongo;

import io.idstarter.segment.SegmentStore;
import io.idstarter.store.AbstractPeriodicNumbersTests;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;

/**
 * Periodic numbers on {@link MongoSegmentStore}, on the server of {@code TestBackends.mongo()} (the in-JVM
 * {@code mongo-java-server} where no {@code mongod} is found), in a collection of each test's own. MongoDB's store
 * cannot delete keys: its periods stay.
 */
class PeriodicNumbersMongoIntegrationTests extends AbstractPeriodicNumbersTests {

	private static MongoTestSupport mongo;

	private final String collection = MongoTestSupport.unique("periodic");


	@BeforeAll
	static void connect() {
		mongo = MongoTestSupport.connect(PeriodicNumbersMongoIntegrationTests.class);
	}

	@AfterAll
	static void disconnect() {
		mongo.close();
	}

	@AfterEach
	void dropCollection() {
		mongo.drop(this.collection);
	}

	@Override
	protected SegmentStore newStore() {
		return new MongoSegmentStore(mongo.template(), this.collection);
	}

	@Override
	protected boolean deletesKeys() {
		return false;
	}

}
