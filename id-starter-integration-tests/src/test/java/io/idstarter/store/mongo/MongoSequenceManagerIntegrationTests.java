package io.idstarter.store.mongo;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import com.mongodb.client.MongoClient;
import io.idstarter.lease.LeaseLostException;
import io.idstarter.lease.LeaseRequest;
import io.idstarter.lease.LeaseStoreException;
import io.idstarter.lease.NoFreeWorkerIdException;
import io.idstarter.lease.WorkerLease;
import org.bson.Document;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.data.mongodb.core.MongoTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Integration tests for {@link MongoSequenceManager} on the server of {@code TestBackends.mongo()}: a real MongoDB
 * when one is found, otherwise (on this project's CI machines, which have no {@code mongod}) the in-JVM
 * {@code mongo-java-server}, whose clock is this JVM's; the log line at the start names the one used. The class uses
 * its own collection, and each test its own namespace.
 */
class MongoSequenceManagerIntegrationTests {

	private static final Duration TTL = Duration.ofSeconds(30);

	private static MongoTestSupport mongo;

	private static String collection;

	private MongoTemplate template;

	private MongoSequenceManager manager;

	private String namespace;

	@BeforeAll
	static void connect() {
		mongo = MongoTestSupport.connect(MongoSequenceManagerIntegrationTests.class);
		collection = MongoTestSupport.unique("leases");
	}

	@AfterAll
	static void disconnect() {
		mongo.drop(collection);
		mongo.close();
	}

	@BeforeEach
	void createManager() {
		this.template = mongo.template();
		this.manager = new MongoSequenceManager(this.template, collection);
		this.namespace = MongoTestSupport.unique("ns");
	}

	@Test
	void excludedSlotsAreNeverHandedOutWhetherFreeOrNeverUsed() {
		String namespace = this.namespace;
		List<WorkerLease> all = new ArrayList<>();
		for (int i = 0; i < 3; i++) {
			all.add(this.manager.borrow(new LeaseRequest(namespace, 3, Duration.ofSeconds(30), -1, "node-a", 0)));
		}
		this.manager.release(all.get(0), -1);
		this.manager.release(all.get(1), -1);
		int excludedFree = all.get(0).workerId();
		int neverUsed = 6 - all.get(0).workerId() - all.get(1).workerId() - all.get(2).workerId();
		java.util.Set<Integer> excluded = java.util.Set.of(excludedFree, neverUsed);
		WorkerLease lease = this.manager
			.borrow(new LeaseRequest(namespace, 3, Duration.ofSeconds(30), -1, "node-b", 0, excluded));
		assertThat(lease.workerId()).isEqualTo(all.get(1).workerId());
		assertThatExceptionOfType(NoFreeWorkerIdException.class).isThrownBy(() -> this.manager
			.borrow(new LeaseRequest(namespace, 3, Duration.ofSeconds(30), -1, "node-c", 0, excluded)));
		assertThat(this.manager.borrow(new LeaseRequest(namespace, 3, Duration.ofSeconds(30), -1, "node-d", 0))
			.workerId()).isIn(excludedFree, neverUsed);
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
	void borrowPrefersTheRequestedWorkerIdWhenItIsFree() {
		assertThat(this.manager.borrow(request(7, TTL, 5, "node-a", 0)).workerId()).isEqualTo(5);
		assertThat(this.manager.borrow(request(7, TTL, 5, "node-b", 0)).workerId()).isZero();
	}

	@Test
	void borrowingEverySlotConcurrentlyGivesEachSlotOnceThenNoFreeWorkerId() throws Exception {
		int slots = 8;
		List<Object> outcomes = borrowConcurrently(2 * slots, slots - 1);
		assertThat(outcomes).filteredOn(WorkerLease.class::isInstance)
			.extracting((outcome) -> ((WorkerLease) outcome).workerId())
			.containsExactlyInAnyOrder(0, 1, 2, 3, 4, 5, 6, 7);
		assertThat(outcomes).filteredOn(NoFreeWorkerIdException.class::isInstance).hasSize(slots);
		assertThatExceptionOfType(NoFreeWorkerIdException.class)
			.isThrownBy(() -> this.manager.borrow(request(slots - 1, TTL, 3, "late", 0)))
			.withMessageContaining("All 8 worker IDs [0, 7] of namespace '" + this.namespace + "'");

		// Released slots are taken again through their existing documents, still once each.
		for (Object outcome : outcomes) {
			if (outcome instanceof WorkerLease lease) {
				this.manager.release(lease, -1);
			}
		}
		List<Object> again = borrowConcurrently(2 * slots, slots - 1);
		assertThat(again).filteredOn(WorkerLease.class::isInstance)
			.extracting((outcome) -> ((WorkerLease) outcome).workerId())
			.containsExactlyInAnyOrder(0, 1, 2, 3, 4, 5, 6, 7);
		assertThat(again).filteredOn(NoFreeWorkerIdException.class::isInstance).hasSize(slots);
	}

	@Test
	void anExpiredLeaseGoesToANewOwnerWhoseFloorIsTheOldCeilingAndTheOldOwnerCannotRenewOrRelease() {
		Duration ttl = Duration.ofSeconds(1);
		WorkerLease first = this.manager.borrow(request(0, ttl, -1, "node-a", 123_456));
		assertThatExceptionOfType(NoFreeWorkerIdException.class)
			.isThrownBy(() -> this.manager.borrow(request(0, ttl, -1, "node-b", 0)));
		WorkerLease second = await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(100))
			.ignoreException(NoFreeWorkerIdException.class)
			.until(() -> this.manager.borrow(request(0, ttl, -1, "node-b", 100_000)), (lease) -> true);
		assertThat(second.workerId()).isZero();
		assertThat(second.storeTimeMillis()).isGreaterThanOrEqualTo(first.storeTimeMillis() + ttl.toMillis());
		assertThat(second.timestampFloor()).isEqualTo(123_456);
		assertThat(second.timestampCeiling()).isEqualTo(123_456);
		assertThat(second.ownerToken()).isNotEqualTo(first.ownerToken());

		assertThatExceptionOfType(LeaseLostException.class).isThrownBy(() -> this.manager.renew(first, 200_000))
			.withMessageContaining("Worker ID 0 of namespace '" + this.namespace + "'")
			.withMessageContaining("instance 'node-b' holds it now");
		this.manager.release(first, 1);
		Document slot = slot(0);
		assertThat(slot.getString("owner")).isEqualTo(second.ownerToken());
		assertThat(slot.getLong("maxTimestamp")).isEqualTo(123_456L);
	}

	@Test
	void anExpiredLeaseThatNobodyTookCanStillBeRenewed() throws InterruptedException {
		Duration ttl = Duration.ofSeconds(1);
		WorkerLease lease = this.manager.borrow(request(0, ttl, -1, "node-a", 1_000));
		Thread.sleep(1_100);
		WorkerLease renewed = this.manager.renew(lease, 2_000);
		assertThat(renewed.timestampCeiling()).isEqualTo(2_000);
		assertThat(slot(0).getDate("expiresAt").getTime()).isEqualTo(renewed.storeTimeMillis() + ttl.toMillis());
	}

	@Test
	void renewExtendsTheLeaseAndOnlyRaisesTheMark() {
		WorkerLease lease = this.manager.borrow(request(3, TTL, -1, "node-a", 1_000));
		WorkerLease raised = this.manager.renew(lease, 2_000);
		assertThat(raised.timestampCeiling()).isEqualTo(2_000);
		assertThat(raised.timestampFloor()).isEqualTo(-1);
		assertThat(raised.ownerToken()).isEqualTo(lease.ownerToken());
		assertThat(raised.storeTimeMillis()).isGreaterThanOrEqualTo(lease.storeTimeMillis());
		WorkerLease kept = this.manager.renew(raised, 1_500);
		assertThat(kept.timestampCeiling()).isEqualTo(2_000);
		Document slot = slot(0);
		assertThat(slot.getLong("maxTimestamp")).isEqualTo(2_000L);
		assertThat(slot.getDate("expiresAt").getTime()).isEqualTo(kept.storeTimeMillis() + TTL.toMillis());
	}

	@Test
	void renewAndReleaseWithAnotherOwnerTokenLeaveTheSlotAlone() {
		WorkerLease lease = this.manager.borrow(request(3, TTL, -1, "node-a", 1_000));
		WorkerLease forged = new WorkerLease(lease.namespace(), lease.workerId(), "not-the-owner", TTL, -1, 1_000, 0);
		Document before = slot(0);
		assertThatExceptionOfType(LeaseLostException.class).isThrownBy(() -> this.manager.renew(forged, 9_000))
			.withMessageContaining("instance 'node-a' holds it now");
		this.manager.release(forged, 1);
		assertThat(slot(0)).isEqualTo(before);
	}

	@Test
	void releaseLowersTheMarkToTheLastIssuedTimestampButNeverBelowTheFloor() {
		WorkerLease first = this.manager.borrow(request(0, TTL, -1, "node-a", 5_000));
		this.manager.release(first, 3_000);
		assertThat(slot(0).getLong("maxTimestamp")).isEqualTo(3_000L);
		assertThat(slot(0).get("owner")).isNull();

		WorkerLease second = this.manager.borrow(request(0, TTL, -1, "node-b", 2_000));
		assertThat(second.timestampFloor()).isEqualTo(3_000);
		assertThat(second.timestampCeiling()).isEqualTo(3_000);
		this.manager.release(second, 1_000);
		assertThat(slot(0).getLong("maxTimestamp")).isEqualTo(3_000L);

		WorkerLease third = this.manager.borrow(request(0, TTL, -1, "node-c", 9_000));
		assertThat(third.timestampFloor()).isEqualTo(3_000);
		this.manager.release(third, -1);
		assertThat(slot(0).getLong("maxTimestamp")).isEqualTo(9_000L);
		assertThat(this.manager.borrow(request(0, TTL, -1, "node-d", 0)).timestampFloor()).isEqualTo(9_000);
	}

	@Test
	void aReleasedSlotIsFreeAtOnceAndTheSlotFreeLongestIsTakenFirst() throws InterruptedException {
		WorkerLease zero = this.manager.borrow(request(2, TTL, -1, "node-a", 0));
		WorkerLease one = this.manager.borrow(request(2, TTL, -1, "node-b", 0));
		this.manager.borrow(request(2, TTL, -1, "node-c", 0));
		this.manager.release(one, -1);
		Thread.sleep(20);
		this.manager.release(zero, -1);
		assertThat(this.manager.borrow(request(2, TTL, -1, "node-d", 0)).workerId()).isEqualTo(1);
		assertThat(this.manager.borrow(request(2, TTL, -1, "node-e", 0)).workerId()).isZero();
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
			MongoSequenceManager proxied = new MongoSequenceManager(MongoTestSupport.template(client), collection);
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

	private List<Object> borrowConcurrently(int borrowers, int maxWorkerId) throws Exception {
		ExecutorService executor = Executors.newFixedThreadPool(borrowers);
		try {
			CountDownLatch start = new CountDownLatch(1);
			List<Future<WorkerLease>> futures = new ArrayList<>();
			for (int i = 0; i < borrowers; i++) {
				String instance = "node-" + i;
				futures.add(executor.submit(() -> {
					start.await();
					return this.manager.borrow(request(maxWorkerId, TTL, -1, instance, 0));
				}));
			}
			start.countDown();
			List<Object> outcomes = new ArrayList<>();
			for (Future<WorkerLease> future : futures) {
				try {
					outcomes.add(future.get());
				}
				catch (ExecutionException ex) {
					outcomes.add(ex.getCause());
				}
			}
			return outcomes;
		}
		finally {
			executor.shutdownNow();
		}
	}

	private LeaseRequest request(int maxWorkerId, Duration ttl, int preferred, String instance, long ceiling) {
		return new LeaseRequest(this.namespace, maxWorkerId, ttl, preferred, instance, ceiling);
	}

	private Document slot(int slot) {
		return this.template.getCollection(collection).find(new Document("_id", this.namespace + ":" + slot)).first();
	}

}
