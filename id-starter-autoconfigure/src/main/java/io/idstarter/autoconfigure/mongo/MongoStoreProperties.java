package io.idstarter.autoconfigure.mongo;

import io.idstarter.autoconfigure.PropertyRules;
import io.idstarter.store.mongo.MongoCollectionNames;

import org.springframework.beans.factory.InitializingBean;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * MongoDB store settings, under {@code id-worker.mongo}; bound, and checked, only when a mode,
 * {@code id-worker.segment.store} or the {@code @SequenceId} support uses MongoDB.
 *
 * @since 0.1.0
 */
@ConfigurationProperties(prefix = "id-worker.mongo", ignoreUnknownFields = false)
public class MongoStoreProperties implements InitializingBean {

	/**
	 * Collection of segment keys.
	 */
	private String segmentCollection = "id_segments";

	/**
	 * Collection of worker-ID leases.
	 */
	private String leaseCollection = "id_worker_leases";

	/**
	 * Collection of the sequences that fill @SequenceId fields.
	 */
	private String sequenceCollection = "id_sequences";

	public String getSegmentCollection() {
		return this.segmentCollection;
	}

	public void setSegmentCollection(String segmentCollection) {
		this.segmentCollection = segmentCollection;
	}

	public String getLeaseCollection() {
		return this.leaseCollection;
	}

	public void setLeaseCollection(String leaseCollection) {
		this.leaseCollection = leaseCollection;
	}

	public String getSequenceCollection() {
		return this.sequenceCollection;
	}

	public void setSequenceCollection(String sequenceCollection) {
		this.sequenceCollection = sequenceCollection;
	}

	@Override
	public void afterPropertiesSet() {
		check("id-worker.mongo.segment-collection", this.segmentCollection);
		check("id-worker.mongo.lease-collection", this.leaseCollection);
		check("id-worker.mongo.sequence-collection", this.sequenceCollection);
	}

	private static void check(String property, String collection) {
		PropertyRules.check(property, collection, () -> MongoCollectionNames.check(collection));
	}

}
