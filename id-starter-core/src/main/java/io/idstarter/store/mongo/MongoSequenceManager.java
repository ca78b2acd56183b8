package io.idstarter.store.mongo;

import org.springframework.data.mongodb.core.MongoOperations;

/**
 * The former name of {@link MongoLeaseStore}.
 *
 * @deprecated lease stores are named {@code *LeaseStore} so that they read apart from the sequences of
 * {@code io.idstarter.sequence}; use {@link MongoLeaseStore}, which takes the same arguments
 */
@Deprecated(since = "0.1.0", forRemoval = true)
public class MongoSequenceManager extends MongoLeaseStore {

	public MongoSequenceManager(MongoOperations mongo) {
		super(mongo);
	}

	public MongoSequenceManager(MongoOperations mongo, String collection) {
		super(mongo, collection);
	}

}
