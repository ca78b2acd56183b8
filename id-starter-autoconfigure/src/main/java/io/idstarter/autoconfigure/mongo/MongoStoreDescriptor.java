package io.idstarter.autoconfigure.mongo;

import io.idstarter.autoconfigure.IdWorkerStoreDescriptor;
import org.jspecify.annotations.Nullable;

/**
 * The MongoDB store through the application's {@code MongoOperations} (a {@code MongoTemplate}).
 *
 * @since 0.1.0
 */
public final class MongoStoreDescriptor implements IdWorkerStoreDescriptor {

	@Override
	public String name() {
		return "mongo";
	}

	@Override
	public String description() {
		return "MongoDB";
	}

	@Override
	public String corePackage() {
		return "io.idstarter.store.mongo";
	}

	@Override
	public String beanType() {
		return "org.springframework.data.mongodb.core.MongoOperations";
	}

	@Override
	public String dependency() {
		return "spring-boot-starter-data-mongodb";
	}

	@Override
	public String connectionProperty() {
		return "spring.mongodb.uri";
	}

	@Override
	public String failureAction() {
		return "Check that MongoDB answers with the application's spring.mongodb.* settings (uri, or host, port and "
				+ "database), and that its user may read and write the collections named by id-worker.mongo.*.";
	}

	@Override
	public @Nullable String leaseConfiguration() {
		return "io.idstarter.autoconfigure.mongo.MongoLeaseStoreConfiguration";
	}

	@Override
	public @Nullable String segmentConfiguration() {
		return "io.idstarter.autoconfigure.mongo.MongoSegmentStoreConfiguration";
	}

}
