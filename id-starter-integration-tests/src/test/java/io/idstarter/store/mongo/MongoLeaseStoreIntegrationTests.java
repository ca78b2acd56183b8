package io.idstarter.store.mongo;

import java.time.Duration;
import java.util.Date;
import java.util.List;

import com.mongodb.client.MongoClient;
import io.idstarter.lease.ISequenceManager;
import io.idstarter.lease.LeaseRequest;
import io.idstarter.lease.LeaseStoreException;
import io.idstarter.lease.SlotMark;
import io.idstarter.lease.WorkerLease;
import io.idstarter.snowflake.RecordedLayout;
import io.idstarter.testsupport.contract.AbstractLeaseStoreContractTests;
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
 * Integration tests for {@link MongoLeaseStore} on the server of {@code TestBackends.mongo()}: a real MongoDB
 * when one is found, otherwise (on this project's CI machines, which have no {@code mongod}) the in-JVM
 * {@code mongo-java-server}, whose clock is this JVM's; the log line at the start names the one used. The lease
 * contract of {@link AbstractLeaseStoreContractTests}, and what is particular to MongoDB (the slot document,
 * corrupt documents, outages). The class uses its own collection, and each test its own namespace.
 */
class MongoLeaseStoreIntegrationTests extends AbstractLeaseStoreContractTests {

	private static final Duration TTL = Duration.ofSeconds(30);

	private static MongoTestSupport mongo;

	private static String collection;

	private MongoTemplate template;

	private MongoLeaseStore manager;

	private String namespace;

	@BeforeAll
	static void connect() {
		mongo = MongoTestSupport.connect(MongoLeaseStoreIntegrationTests.class);
		collection = MongoTestSupport.unique("leases");
	}

	@AfterAll
	static void disconnect() {
		mongo.drop(collection);
		mongo.close();
	}

	@BeforeEach
	void createMongoManager() {
		this.template = mongo.template();
		this.manager = new MongoLeaseStore(this.template, collection);
		this.namespace = MongoTestSupport.unique("ns");
	}

	@Override
	protected ISequenceManager createManager() {
		return new MongoLeaseStore(mongo.template(), collection);
	}

	@Override
	protected List<String> identityParts() {
		return List.of("MongoDB lease store, database ", "collection " + collection);
	}

	@Test
	void borrowTakesTheFirstSlotOfANewNamespaceWithNoFloorAndTheServersTime() {
		long before = System.currentTimeMillis();
		WorkerLease lease = this.manager.borrow(request(3, TTL, -1, "node-a", 5_000));
		assertThat(lease.namespace()).isEqualTo(this.namespace);
		assertThat(lease.workerId()).isZero();
		assertThat(lease.timestampFloor()).isEqualTo(-1);
		assertThat(lease.timestampCeiling()).isEqualTo(5_000);
		assertThat(lease.ttl()).isEqualTo(TTL);
		assertThat(lease.ownerToken()).isNotBlank();
		assertThat(lease.storeTimeMillis()).isBetween(before - 60_000, System.currentTimeMillis() + 60_000);
		Document slot = slot(0);
		assertThat(slot.getString("owner")).isEqualTo(lease.ownerToken());
		assertThat(slot.getString("instance")).isEqualTo("node-a");
		assertThat(slot.getLong("maxTimestamp")).isEqualTo(5_000L);
		assertThat(slot.getDate("expiresAt").getTime()).isEqualTo(lease.storeTimeMillis() + TTL.toMillis());
	}

	@Test
	void theLayoutRecordIsADocumentWithoutASlotThatNoSlotQueryMatches() {
		String layout = "epoch=2010-11-04T01:42:54.657Z;timestamp-bits=41;worker-id-bits=10;sequence-bits=12";
		assertThat(this.manager.recordLayout(this.namespace, layout)).isEqualTo(layout);
		Document record = this.template.getCollection(collection)
			.find(new Document("_id", this.namespace + ":layout"))
			.first();
		assertThat(record).isNotNull();
		assertThat(record.getString("namespace")).isEqualTo(this.namespace);
		assertThat(record.getString("layout")).isEqualTo(layout);
		assertThat(record).doesNotContainKey("slot");
		WorkerLease lease = this.manager.borrow(request(0, TTL, -1, "node-a", 5_000));
		assertThat(lease.workerId()).isZero();
		assertThat(this.manager.slotMarks(this.namespace)).containsExactly(new SlotMark(0, 5_000, true));
		this.manager.release(lease, 4_000);
		assertThat(this.manager.slotMarks(this.namespace)).containsExactly(new SlotMark(0, 4_000, false));
	}

	@Test
	void aLayoutDocumentWrittenBySomethingElseIsReportedAndLeftUnchanged() {
		Document foreign = new Document("_id", this.namespace + ":layout").append("namespace", this.namespace)
			.append("layout", 42);
		this.template.getCollection(collection).insertOne(foreign);
		assertThatExceptionOfType(LeaseStoreException.class)
			.isThrownBy(() -> this.manager.recordLayout(this.namespace, "epoch=2010-11-04T01:42:54.657Z"))
			.withMessageContaining("Layout document '" + this.namespace + ":layout' in MongoDB collection '"
					+ collection + "' is not a layout record")
			.withMessageContaining("layout is int '42', expected a string")
			.withMessageContaining("delete it");
		assertThat(this.manager.replaceLayout(this.namespace, "42", "epoch=2010-11-04T01:42:54.657Z")).isFalse();
		assertThat(this.template.getCollection(collection).find(new Document("_id", this.namespace + ":layout"))
			.first()).isEqualTo(foreign);
	}

	@Test
	void aLayoutLongerThanAStoreKeepsIsRefusedAndNothingIsWritten() {
		String tooLong = "x".repeat(RecordedLayout.MAX_LENGTH + 1);
		assertThatIllegalArgumentException().isThrownBy(() -> this.manager.recordLayout(this.namespace, tooLong))
			.withMessageContaining("layout must be 1 to 255 characters")
			.withMessageContaining("was 256");
		assertThat(this.template.getCollection(collection).countDocuments(new Document("namespace", this.namespace)))
			.isZero();
	}

	@Test
	void aCorruptSlotDocumentGivesAClearErrorAndIsLeftUnchanged() {
		Document corrupt = new Document("_id", this.namespace + ":0").append("namespace", this.namespace)
			.append("slot", 0)
			.append("owner", null)
			.append("expiresAt", new Date(0))
			.append("maxTimestamp", "yesterday");
		this.template.getCollection(collection).insertOne(corrupt);
		assertThatExceptionOfType(LeaseStoreException.class)
			.isThrownBy(() -> this.manager.borrow(request(0, TTL, -1, "node-a", 0)))
			.withMessageContaining("'" + this.namespace + ":0'")
			.withMessageContaining("maxTimestamp is string 'yesterday'");
		assertThatExceptionOfType(LeaseStoreException.class)
			.isThrownBy(() -> this.manager.borrow(request(0, TTL, 0, "node-a", 0)));
		assertThat(slot(0)).isEqualTo(corrupt);
	}

	@Test
	void anOutageGivesAStoreExceptionNamingTheStoreAndRenewalWorksAfterwards() {
		try (MongoClient client = mongo.proxiedClient()) {
			MongoLeaseStore proxied = new MongoLeaseStore(MongoTestSupport.template(client), collection);
			WorkerLease lease = proxied.borrow(request(3, TTL, -1, "node-a", 1_000));
			mongo.cut();
			try {
				assertThatExceptionOfType(LeaseStoreException.class).isThrownBy(() -> proxied.renew(lease, 2_000))
					.withMessageContaining("MongoDB lease store (collection '" + collection + "')");
				assertThatExceptionOfType(LeaseStoreException.class)
					.isThrownBy(() -> proxied.borrow(request(3, TTL, -1, "node-b", 0)));
			}
			finally {
				mongo.restore();
			}
			assertThat(proxied.renew(lease, 2_000).timestampCeiling()).isEqualTo(2_000);
		}
	}

	private LeaseRequest request(int maxWorkerId, Duration ttl, int preferred, String instance, long ceiling) {
		return new LeaseRequest(this.namespace, maxWorkerId, ttl, preferred, instance, ceiling);
	}

	private Document slot(int slot) {
		return this.template.getCollection(collection).find(new Document("_id", this.namespace + ":" + slot)).first();
	}

}
