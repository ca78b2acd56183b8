package io.idstarter.store.kubernetes;

import java.time.Duration;
import java.time.ZonedDateTime;
import java.util.List;
import java.util.UUID;
import java.util.regex.Pattern;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.idstarter.lease.ISequenceManager;
import io.idstarter.lease.LeaseLostException;
import io.idstarter.lease.LeaseRequest;
import io.idstarter.lease.LeaseStoreException;
import io.idstarter.lease.NoFreeWorkerIdException;
import io.idstarter.lease.WorkerLease;
import io.idstarter.testsupport.KubernetesBackend;
import io.idstarter.testsupport.contract.AbstractLeaseStoreContractTests;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * {@link KubernetesLeaseStore} against the API server of {@link KubernetesBackend}: a real cluster when
 * {@code IDSTARTER_KUBERNETES_CONTEXT} names one, otherwise (on this project's CI machines, where no API server can
 * run) the fabric8 in-JVM API server in CRUD mode, with the {@code Date} header a real server sends, from a clock the
 * tests move forward instead of sleeping. The lease contract of {@link AbstractLeaseStoreContractTests}, and what is
 * particular to Kubernetes: the StatefulSet ordinal, object names, objects edited by someone else, refusals. The class
 * uses a name prefix of its own, and each test its own lease namespace.
 */
class KubernetesLeaseStoreIntegrationTests extends AbstractLeaseStoreContractTests {

	private static KubernetesBackend backend;

	private static KubernetesClient client;

	private static final String PREFIX = "it" + UUID.randomUUID().toString().substring(0, 8);

	@BeforeAll
	static void start() {
		backend = KubernetesBackend.start();
		client = backend.newClient();
	}

	@AfterAll
	static void stop() {
		client.leases().inNamespace(backend.namespace()).withLabel(KubernetesLeaseStore.MANAGED_BY_LABEL).list()
			.getItems().stream()
			.filter((lease) -> lease.getMetadata().getName().startsWith(PREFIX + "-"))
			.forEach((lease) -> client.leases().inNamespace(backend.namespace()).resource(lease).delete());
		client.close();
		backend.close();
	}

	@Override
	protected ISequenceManager createManager() {
		return store(-1);
	}

	private static KubernetesLeaseStore store(int podOrdinal) {
		return new KubernetesLeaseStore(client, backend.namespace(), PREFIX, podOrdinal, Duration.ofSeconds(5));
	}

	@Override
	protected String withoutStorageSkipReason() {
		return "Lease is a built-in resource of every cluster: there is no storage to set up (a missing namespace "
				+ "fails the first create with the API server's 404, which the in-JVM server does not give)";
	}

	@Override
	protected List<String> identityParts() {
		return List.of("Kubernetes lease store, namespace " + backend.namespace() + ", name prefix " + PREFIX);
	}

	/**
	 * Moves the server's clock by whole seconds: the {@code Date} header, this store's clock, has no finer resolution
	 * (slots freed within one second are ordered by worker ID).
	 */
	@Override
	protected void advanceStoreClock(Duration duration) throws InterruptedException {
		backend.advanceClock(Duration.ofSeconds((duration.toMillis() + 999) / 1000));
	}

	/**
	 * The TTL rounded up to seconds, and 2 s for the {@code Date} header's resolution: the holder's renewal time is
	 * an upper bound of the server's time, the borrower's reading a lower bound.
	 */
	@Override
	protected void letExpire(WorkerLease lease) throws InterruptedException {
		advanceStoreClock(Duration.ofSeconds(KubernetesLeaseStore.durationSeconds(lease.ttl()) + 2));
	}

	private LeaseRequest request(int maxWorkerId, int preferred) {
		return request(maxWorkerId, TTL, preferred, NOW);
	}

	private Lease object(int workerId) {
		KubernetesLeaseStore store = store(-1);
		return client.leases().inNamespace(backend.namespace()).withName(store.name(namespace(), workerId)).get();
	}

	private void edit(int workerId, java.util.function.UnaryOperator<Lease> change) {
		KubernetesLeaseStore store = store(-1);
		client.leases().inNamespace(backend.namespace()).withName(store.name(namespace(), workerId)).edit(change);
	}

	@Test
	void theLayoutIsALeaseObjectWithoutAHolderBesideTheSlots() {
		String name = store(-1).namePrefix(namespace()) + "layout";
		assertThat(manager().recordLayout(namespace(), "recorded-layout")).isEqualTo("recorded-layout");
		Lease object = client.leases().inNamespace(backend.namespace()).withName(name).get();
		assertThat(object.getMetadata().getAnnotations()).containsEntry("id-starter.io/layout", "recorded-layout")
			.containsEntry("id-starter.io/namespace", namespace())
			.doesNotContainKey("id-starter.io/max-timestamp");
		assertThat(object.getMetadata().getLabels()).containsEntry("app.kubernetes.io/managed-by", "id-starter");
		assertThat(object.getSpec().getHolderIdentity()).isNull();
		assertThat(manager().borrow(request(0, -1)).workerId()).isZero();
		assertThat(manager().slotMarks(namespace())).extracting((mark) -> mark.workerId()).containsExactly(0);
		assertThat(manager().replaceLayout(namespace(), "recorded-layout", "new-layout")).isTrue();
		assertThat(client.leases().inNamespace(backend.namespace()).withName(name).get().getMetadata()
			.getAnnotations()).containsEntry("id-starter.io/layout", "new-layout");
	}

	@Test
	void aLayoutObjectWrittenOutsideIdStarterIsReportedNotOverwritten() {
		String name = store(-1).namePrefix(namespace()) + "layout";
		client.leases().inNamespace(backend.namespace()).resource(new io.fabric8.kubernetes.api.model.coordination.v1
			.LeaseBuilder().withNewMetadata().withName(name).addToLabels(KubernetesLeaseStore.MANAGED_BY_LABEL,
					"someone-else").endMetadata().withNewSpec().withHolderIdentity("leader-election").endSpec()
			.build()).create();
		assertThatExceptionOfType(LeaseStoreException.class)
			.isThrownBy(() -> manager().recordLayout(namespace(), "mine"))
			.withMessageContaining(name)
			.withMessageContaining("id-starter.io/layout")
			.withMessageContaining("id-worker.kubernetes.name-prefix");
		assertThatExceptionOfType(LeaseStoreException.class)
			.isThrownBy(() -> manager().replaceLayout(namespace(), "mine", "other"));
		assertThat(client.leases().inNamespace(backend.namespace()).withName(name).get().getSpec()
			.getHolderIdentity()).isEqualTo("leader-election");
	}

	@Test
	void slotMarksFailNamingASlotWhoseMarkCannotBeRead() {
		WorkerLease lease = manager().borrow(request(0, TTL, -1, NOW));
		manager().release(lease, NOW);
		edit(0, (object) -> {
			object.getMetadata().getAnnotations().put("id-starter.io/max-timestamp", "soon");
			return object;
		});
		assertThatExceptionOfType(LeaseStoreException.class).isThrownBy(() -> manager().slotMarks(namespace()))
			.withMessageContaining(store(-1).name(namespace(), 0))
			.withMessageContaining("'soon', not a number");
	}

	@Test
	void aSlotIsALeaseObjectThatKubectlCanRead() {
		WorkerLease lease = manager().borrow(request(3, TTL, -1, NOW + 5));
		Lease object = object(lease.workerId());
		assertThat(object.getSpec().getHolderIdentity()).isEqualTo(lease.ownerToken());
		assertThat(object.getSpec().getLeaseDurationSeconds()).isEqualTo(60);
		assertThat(object.getSpec().getRenewTime()).isNotNull();
		assertThat(object.getMetadata().getLabels()).containsEntry("app.kubernetes.io/managed-by", "id-starter");
		assertThat(object.getMetadata().getAnnotations()).containsEntry("id-starter.io/max-timestamp",
				Long.toString(NOW + 5))
			.containsEntry("id-starter.io/namespace", namespace())
			.containsEntry("id-starter.io/instance", "contract-test/1");
		manager().release(lease, NOW + 3);
		Lease released = object(lease.workerId());
		assertThat(released.getSpec().getHolderIdentity()).isNull();
		assertThat(released.getMetadata().getAnnotations()).containsEntry("id-starter.io/max-timestamp",
				Long.toString(NOW + 3));
	}

	@Test
	void theHoldersRenewTimeIsAtOrAfterTheServersTimeSoThatItsLeaseLastsAtLeastItsTtl() {
		WorkerLease lease = manager().borrow(request(0, 0));
		ZonedDateTime renewTime = object(0).getSpec().getRenewTime();
		assertThat(renewTime.toInstant().toEpochMilli()).as("an upper bound of the server's time at the borrow")
			.isGreaterThanOrEqualTo(lease.storeTimeMillis());
	}

	@Test
	void aLeaseIsFreeOnlyOnceTheServersClockIsPastItsTtlWithTheDateHeadersSecondOnTop() throws InterruptedException {
		Assumptions.assumeTrue(backend.inJvm(), "moves the in-JVM server's clock");
		WorkerLease lease = manager().borrow(request(0, SHORT_TTL, -1, NOW));
		advanceStoreClock(Duration.ofMillis(1000));
		assertThatExceptionOfType(NoFreeWorkerIdException.class)
			.isThrownBy(() -> manager().borrow(request(0, TTL, -1, NOW)));
		advanceStoreClock(Duration.ofMillis(2000));
		assertThat(manager().borrow(request(0, TTL, -1, NOW)).ownerToken()).isNotEqualTo(lease.ownerToken());
	}

	@Test
	void aStatefulSetPodPrefersItsOrdinalAfterTheSlotItHeldBefore() {
		assertThat(store(3).borrow(request(7, -1)).workerId()).as("the ordinal").isEqualTo(3);
		assertThat(store(4).borrow(request(7, 5)).workerId()).as("the slot held before comes first").isEqualTo(5);
		assertThat(store(9).borrow(request(7, -1)).workerId()).as("an ordinal beyond the layout is ignored").isZero();
	}

	@Test
	void twoPodsClaimingOneOrdinalGetTwoWorkerIds() throws Exception {
		List<WorkerLease> leases = new java.util.concurrent.CopyOnWriteArrayList<>();
		Thread[] pods = new Thread[4];
		for (int i = 0; i < pods.length; i++) {
			pods[i] = new Thread(() -> leases.add(store(2).borrow(request(7, -1))));
			pods[i].start();
		}
		for (Thread pod : pods) {
			pod.join();
		}
		assertThat(leases).extracting(WorkerLease::workerId).hasSize(4).doesNotHaveDuplicates().contains(2);
		assertThat(store(2).borrow(request(7, -1)).workerId()).as("the ordinal is held").isNotEqualTo(2);
	}

	@Test
	void objectNamesAreValidDnsNamesAndTwoNamespacesNeverShareOne() {
		Pattern dns1123 = Pattern.compile("[a-z0-9]([-a-z0-9.]*[a-z0-9])?");
		KubernetesLeaseStore store = store(-1);
		for (String namespace : List.of("orders", "Orders", "orders_eu", "billing/EU", "-", "ÄÖÜ")) {
			assertThat(store.name(namespace, 1023)).matches(dns1123).hasSizeLessThanOrEqualTo(253);
		}
		assertThat(store.name("orders", 1)).isEqualTo(PREFIX + "-orders-1");
		assertThat(store.name("Orders", 1)).isNotEqualTo(store.name("orders", 1));
		WorkerLease upper = store.borrow(new LeaseRequest("Orders", 0, TTL, -1, "a/1", NOW));
		WorkerLease lower = store.borrow(new LeaseRequest("orders", 0, TTL, -1, "b/1", NOW));
		assertThat(upper.workerId()).isEqualTo(lower.workerId()).isZero();
	}

	@Test
	void aSlotWhoseMarkWasRemovedIsNeverLentAndTheErrorNamesIt() {
		WorkerLease lease = manager().borrow(request(0, TTL, -1, NOW + 10));
		manager().release(lease, NOW + 10);
		edit(0, (object) -> {
			object.getMetadata().getAnnotations().remove("id-starter.io/max-timestamp");
			return object;
		});
		assertThatExceptionOfType(LeaseStoreException.class).isThrownBy(() -> manager().borrow(request(0, -1)))
			.isNotInstanceOf(NoFreeWorkerIdException.class)
			.withMessageContaining(store(-1).name(namespace(), 0))
			.withMessageContaining("has no annotation id-starter.io/max-timestamp");
		assertThat(manager().borrow(request(1, -1)).workerId()).as("other slots are lent").isEqualTo(1);
	}

	@Test
	void aSlotWithAGarbageMarkIsNeverLentAndItsHolderCannotRenewIt() throws InterruptedException {
		WorkerLease lease = manager().borrow(request(0, SHORT_TTL, -1, NOW + 10));
		edit(0, (object) -> {
			object.getMetadata().getAnnotations().put("id-starter.io/max-timestamp", "soon");
			return object;
		});
		assertThatExceptionOfType(LeaseStoreException.class).isThrownBy(() -> manager().renew(lease, NOW + 20))
			.isNotInstanceOf(LeaseLostException.class)
			.withMessageContaining("'soon', not a number");
		letExpire(lease);
		assertThatExceptionOfType(LeaseStoreException.class).isThrownBy(() -> manager().borrow(request(0, -1)))
			.withMessageContaining("'soon', not a number");
		manager().release(lease, NOW + 10);
		assertThat(manager().borrow(request(0, -1)).timestampFloor()).as("its holder's release repairs it")
			.isEqualTo(NOW + 10);
	}

	@Test
	void aHolderWithoutRenewTimeIsNeverTakenOverHoweverLongItWaits() throws InterruptedException {
		WorkerLease lease = manager().borrow(request(0, SHORT_TTL, -1, NOW + 10));
		edit(0, (object) -> {
			object.getSpec().setRenewTime(null);
			return object;
		});
		letExpire(lease);
		letExpire(lease);
		assertThatExceptionOfType(LeaseStoreException.class).isThrownBy(() -> manager().borrow(request(0, -1)))
			.withMessageContaining("has a holder but no renewTime");
		assertThat(manager().slotMarks(namespace())).as("held, as every borrow sees it")
			.containsExactly(new io.idstarter.lease.SlotMark(0, NOW + 10, true));
		WorkerLease renewed = manager().renew(lease, NOW + 20);
		assertThat(renewed.timestampCeiling()).as("its holder still renews it, which repairs it").isEqualTo(NOW + 20);
	}

	@Test
	void anObjectOfAnotherNamespaceUnderThisNameIsNeverLent() {
		WorkerLease lease = manager().borrow(request(0, TTL, -1, NOW));
		manager().release(lease, NOW);
		edit(0, (object) -> {
			object.getMetadata().getAnnotations().put("id-starter.io/namespace", "someone-else");
			return object;
		});
		assertThatExceptionOfType(LeaseStoreException.class).isThrownBy(() -> manager().borrow(request(0, -1)))
			.withMessageContaining("does not say it belongs to lease namespace");
	}

	@Test
	void aDeletedObjectLosesTheLease() {
		WorkerLease lease = manager().borrow(request(0, -1));
		client.leases().inNamespace(backend.namespace()).resource(object(0)).delete();
		assertThatExceptionOfType(LeaseLostException.class).isThrownBy(() -> manager().renew(lease, NOW))
			.withMessageContaining("deleted");
	}

	@Test
	void aMissingPermissionNamesTheVerbTheResourceAndTheNamespace() {
		Assumptions.assumeTrue(backend.inJvm(), "makes the in-JVM server refuse a verb");
		backend.refuse("POST", true);
		try {
			assertThatExceptionOfType(KubernetesAccessDeniedException.class)
				.isThrownBy(() -> manager().borrow(request(0, -1)))
				.satisfies((ex) -> {
					assertThat(ex.getVerb()).isEqualTo("create");
					assertThat(ex.getResource()).isEqualTo("leases.coordination.k8s.io");
					assertThat(ex.getNamespace()).isEqualTo(backend.namespace());
				})
				.withMessageContaining("refused to create leases.coordination.k8s.io in namespace '"
						+ backend.namespace() + "'");
		}
		finally {
			backend.refuse("POST", false);
		}
	}

	@Test
	void anAnswerWithoutADateHeaderFailsRatherThanFallBackToThePodsClock() {
		Assumptions.assumeTrue(backend.inJvm(), "makes the in-JVM server leave out the Date header");
		backend.sendDateHeader(false);
		try {
			assertThatExceptionOfType(LeaseStoreException.class).isThrownBy(() -> manager().borrow(request(0, -1)))
				.withMessageContaining("without a Date header");
		}
		finally {
			backend.sendDateHeader(true);
		}
	}

	@Test
	void anUnreachableApiServerFailsWithALeaseStoreExceptionNamingIt() {
		try (KubernetesClient nowhere = new KubernetesClientBuilder()
			.withConfig(new ConfigBuilder().withMasterUrl("http://127.0.0.1:9").withRequestRetryBackoffLimit(0).build())
			.build()) {
			KubernetesLeaseStore store = new KubernetesLeaseStore(nowhere, "test", PREFIX, -1, Duration.ofSeconds(2));
			assertThatExceptionOfType(KubernetesApiUnreachableException.class)
				.isThrownBy(() -> store.borrow(request(0, -1)))
				.withMessageContaining("127.0.0.1:9");
		}
	}

	@Test
	void badNamesAreRefusedWithTheRule() {
		assertThatExceptionOfType(IllegalArgumentException.class)
			.isThrownBy(() -> new KubernetesLeaseStore(client, "Prod", PREFIX, -1, Duration.ofSeconds(1)))
			.withMessageContaining("'Prod' is not a valid namespace");
		assertThatExceptionOfType(IllegalArgumentException.class)
			.isThrownBy(() -> new KubernetesLeaseStore(client, "prod", "id_worker", -1, Duration.ofSeconds(1)))
			.withMessageContaining("'id_worker' is not valid");
	}

}
