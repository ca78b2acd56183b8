package io.idstarter.sample;

import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;

import com.jayway.jsonpath.DocumentContext;
import io.idstarter.IdWorkerListener;
import io.idstarter.lease.ISequenceManager;
import io.idstarter.lease.InMemoryLeaseStore;
import io.idstarter.lease.LayoutConflictException;
import io.idstarter.lease.LayoutConflictException.Reason;
import io.idstarter.lease.LeaseRequest;
import io.idstarter.lease.LeaseSettings;
import io.idstarter.lease.LeaseStatus.State;
import io.idstarter.lease.WorkerLease;
import io.idstarter.lease.WorkerLeaseKeeper;
import io.idstarter.snowflake.ClockBackwardsPolicy;
import io.idstarter.snowflake.RecordedLayout;
import io.idstarter.snowflake.SnowflakeIdGenerator;
import io.idstarter.snowflake.SnowflakeLayout;
import io.idstarter.snowflake.SnowflakePresets;
import io.idstarter.store.http.HttpLeaseStore;
import io.idstarter.store.http.IdServerClient;
import io.idstarter.store.http.IdServerLayoutConflictException;
import io.idstarter.testsupport.TcpProxy;
import io.idstarter.testsupport.contract.AbstractLeaseStoreContractTests;
import io.idstarter.time.TimeSource;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.context.TestPropertySource;
import org.springframework.web.client.RestClient;

import static io.idstarter.sample.IdServerEndpointsTests.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The layout registry through the fleet API, against a server whose own store keeps layouts (the in-memory reference
 * store): the lease contract kit over HTTP, the refusal of a borrow whose layout differs from the namespace's record,
 * a replacement whose answer was lost, and clients that may only read and write the layouts of their own namespaces.
 */
@TestPropertySource(properties = { "id-worker.testing.in-memory-stores=true", "id-server.clients[0].name=alpha",
		"id-server.clients[0].token=alpha-token-0123456789", "id-server.clients[0].namespaces=alpha-*,contract-ns-*",
		"id-server.clients[0].max-leases=1000", "id-server.clients[1].name=beta",
		"id-server.clients[1].token=beta-token-0123456789", "id-server.clients[1].namespaces=beta-*",
		// the kit asks for ceilings up to two minutes ahead with a TTL of one second
		"id-server.fleet.clock-allowance=10m" })
class FleetLayoutTests extends AbstractIdServerTests {

	private static final String[] ALPHA = { "Authorization", "Bearer alpha-token-0123456789" };

	private static final String[] BETA = { "Authorization", "Bearer beta-token-0123456789" };

	private static final String TWITTER = new RecordedLayout(SnowflakePresets.twitter(), "twitter").format();

	private static final String DEFAULTS = new RecordedLayout(SnowflakeLayout.defaults(), null).format();

	/** The first step of a planned change from Twitter's layout to the default one. */
	private static final String DEFAULTS_REPLACING_TWITTER = RecordedLayout.parse(DEFAULTS)
		.replacing(RecordedLayout.parse(TWITTER))
		.format();

	/** The first step of a planned change from the default layout to Twitter's. */
	private static final String TWITTER_REPLACING_DEFAULTS = RecordedLayout.parse(TWITTER)
		.replacing(RecordedLayout.parse(DEFAULTS))
		.format();

	@Autowired
	private ISequenceManager serverStore;

	private IdServerClient client(String token, URI... servers) {
		return new IdServerClient(RestClient.create(), List.of(servers), servers.length, Duration.ofMillis(10),
				Duration.ofMillis(10), "Bearer " + token, "id-worker.http.token", 0);
	}

	private HttpLeaseStore store(String token) {
		return new HttpLeaseStore(client(token, server()));
	}

	private URI server() {
		return URI.create("http://127.0.0.1:" + this.port);
	}

	@Test
	void aBorrowOnAnotherLayoutThanTheNamespacesIsRefusedNamingBoth() {
		HttpLeaseStore first = store("alpha-token-0123456789");
		HttpLeaseStore second = store("alpha-token-0123456789");
		assertThat(first.recordLayout("alpha-refused", TWITTER)).isEqualTo(TWITTER);
		WorkerLease lease = first.borrow(request("alpha-refused", TWITTER));
		assertThat(second.recordLayout("alpha-refused", DEFAULTS)).as("told the first node's layout").isEqualTo(TWITTER);
		assertThatExceptionOfType(IdServerLayoutConflictException.class)
			.isThrownBy(() -> second.borrow(request("alpha-refused", DEFAULTS)))
			.satisfies((ex) -> assertThat(ex.getMessage()).contains("alpha-refused", TWITTER, DEFAULTS,
					"41/10/12 timestamp/worker-ID/sequence bits (preset twitter)"))
			.satisfies((ex) -> assertThat(ex.layout()).isEqualTo(DEFAULTS));
		assertThat(this.serverStore.slotMarks("alpha-refused")).as("the refused borrow took no slot")
			.extracting((mark) -> mark.workerId())
			.containsExactly(lease.workerId());
		first.release(lease, -1);
	}

	@Test
	void aBorrowRequestWithAnotherLayoutIsAConflictProblem() {
		this.serverStore.recordLayout("alpha-raw", TWITTER);
		HttpResponse<String> answer = this.http.send("POST", "/api/fleet/leases", borrow("alpha-raw", DEFAULTS),
				ALPHA);
		assertProblem(answer, 409, "Layout differs", "layout-differs");
		assertThat(HttpTestClient.json(answer).read("$.detail", String.class)).contains(TWITTER, DEFAULTS);
		assertThat(this.serverStore.slotMarks("alpha-raw")).isEmpty();
		DocumentContext lease = HttpTestClient.json(this.http.send("POST", "/api/fleet/leases",
				borrow("alpha-raw", TWITTER + ";preset-note=same-widths"), ALPHA));
		assertThat(lease.read("$.workerId", Integer.class)).as("only the epoch and widths count").isZero();
	}

	@Test
	void aReplacementWhoseAnswerWasLostIsReadAsTheSuccessItWasByItsRequestId() {
		this.serverStore.recordLayout("alpha-lost", TWITTER);
		try (TcpProxy proxy = TcpProxy.start("127.0.0.1", this.port)) {
			proxy.loseReply((request) -> new String(request, StandardCharsets.ISO_8859_1)
				.contains("/api/fleet/layouts/replace"), (request, reply) -> true);
			HttpLeaseStore store = new HttpLeaseStore(
					client("alpha-token-0123456789", URI.create("http://127.0.0.1:" + proxy.port()), server()));
			assertThat(store.replaceLayout("alpha-lost", TWITTER, DEFAULTS_REPLACING_TWITTER)).isTrue();
			assertThat(proxy.lostReplies()).as("the first attempt's answer was lost").isEqualTo(1);
		}
		assertThat(this.serverStore.readLayout("alpha-lost")).isEqualTo(DEFAULTS_REPLACING_TWITTER);
		assertThat(store("alpha-token-0123456789").replaceLayout("alpha-lost", TWITTER, DEFAULTS_REPLACING_TWITTER))
			.as("the same replacement by another request: not this request's doing").isFalse();
	}

	@Test
	void aServerWithoutLayoutCallsIsAStoreThatKeepsNoLayouts() {
		// An older server answers the layout calls with 404, as this one answers a fleet path it does not serve.
		HttpLeaseStore store = new HttpLeaseStore(
				client("alpha-token-0123456789", URI.create("http://127.0.0.1:" + this.port + "/api/fleet/older-server/")));
		assertThat(store.recordLayout("alpha-older", TWITTER)).isNull();
		assertThatExceptionOfType(UnsupportedOperationException.class)
			.isThrownBy(() -> store.readLayout("alpha-older"))
			.withMessageContaining("older than this client");
		assertThatExceptionOfType(UnsupportedOperationException.class)
			.isThrownBy(() -> store.replaceLayout("alpha-older", TWITTER, DEFAULTS_REPLACING_TWITTER))
			.withMessageContaining("older than this client");
		assertThatExceptionOfType(UnsupportedOperationException.class)
			.isThrownBy(() -> store.slotMarks("alpha-older"));
		assertThat(this.serverStore.recordLayout("alpha-older", DEFAULTS)).as("nothing recorded").isEqualTo(DEFAULTS);
	}

	@Test
	void aLayoutLongerThanTheLongestStoredFormIsRefusedAndNotRecorded() {
		String tooLong = TWITTER + ";note=" + "x".repeat(RecordedLayout.MAX_LENGTH);
		HttpResponse<String> answer = this.http.send("POST", "/api/fleet/layouts",
				"{\"namespace\":\"alpha-long\",\"layout\":\"" + tooLong + "\"}", ALPHA);
		assertProblem(answer, 400, "Invalid request body", "invalid-body");
		assertThat(HttpTestClient.json(answer).read("$.detail", String.class)).contains("layout");
		assertThat(this.serverStore.readLayout("alpha-long")).isNull();
	}

	@Test
	void aClientReadsAndWritesOnlyTheLayoutsOfItsOwnNamespaces() {
		assertThat(store("beta-token-0123456789").recordLayout("beta-ns", TWITTER)).isEqualTo(TWITTER);
		WorkerLease betaLease = store("beta-token-0123456789").borrow(request("beta-ns", TWITTER));
		assertProblem(this.http.send("POST", "/api/fleet/layouts",
				"{\"namespace\":\"beta-ns\",\"layout\":\"" + DEFAULTS + "\"}", ALPHA), 403, "Not granted",
				"not-granted");
		assertProblem(this.http.send("POST", "/api/fleet/layouts",
				"{\"namespace\":\"beta-other\",\"layout\":\"" + DEFAULTS + "\"}", ALPHA), 403, "Not granted",
				"not-granted");
		assertProblem(this.http.send("POST", "/api/fleet/layouts/replace", "{\"namespace\":\"beta-ns\",\"expected\":\""
				+ TWITTER + "\",\"replacement\":\"" + DEFAULTS + "\"}", ALPHA), 403, "Not granted", "not-granted");
		assertProblem(this.http.get("/api/fleet/slot-marks?namespace=beta-ns", ALPHA), 403, "Not granted",
				"not-granted");
		assertProblem(this.http.get("/api/fleet/layouts?namespace=beta-ns", ALPHA), 403, "Not granted",
				"not-granted");
		assertProblem(this.http.send("POST", "/api/fleet/leases", borrow("beta-ns", DEFAULTS), ALPHA), 403,
				"Not granted", "not-granted");
		assertProblem(this.http.send("POST", "/api/fleet/layouts",
				"{\"namespace\":\"alpha-x\",\"layout\":\"" + DEFAULTS + "\"}"), 401, "Authentication required", "unauthorized");
		assertThat(this.serverStore.recordLayout("beta-ns", DEFAULTS)).as("beta's record is as it was")
			.isEqualTo(TWITTER);
		assertThat(this.serverStore.recordLayout("beta-other", DEFAULTS)).as("nothing was recorded for alpha")
			.isEqualTo(DEFAULTS);
		assertThat(this.serverStore.slotMarks("beta-ns")).extracting((mark) -> mark.workerId())
			.containsExactly(betaLease.workerId());
		assertThat(store("beta-token-0123456789").slotMarks("beta-ns")).singleElement()
			.satisfies((mark) -> assertThat(mark.held()).isTrue());
	}

	@Test
	void aHostileClientCannotChangeTheLayoutWhileASlotIsHeldNorSkipThePendingStep() {
		this.serverStore.recordLayout("alpha-held", TWITTER);
		WorkerLease held = store("alpha-token-0123456789").borrow(request("alpha-held", TWITTER));
		assertProblem(this.http.send("POST", "/api/fleet/layouts/replace",
				replace("alpha-held", TWITTER, DEFAULTS_REPLACING_TWITTER), ALPHA), 409, "Layout change refused",
				"layout-change-refused");
		assertThat(HttpTestClient.json(this.http.send("POST", "/api/fleet/layouts/replace",
				replace("alpha-held", TWITTER, DEFAULTS_REPLACING_TWITTER), ALPHA)).read("$.detail", String.class))
			.contains("worker IDs [" + held.workerId() + "] are held");
		assertProblem(this.http.send("POST", "/api/fleet/layouts/replace", replace("alpha-held", TWITTER, DEFAULTS),
				ALPHA), 409, "Layout change refused", "layout-change-refused");
		assertThat(this.serverStore.readLayout("alpha-held")).isEqualTo(TWITTER);
	}

	@Test
	void aHostileClientCannotChangeToALayoutWhoseIdsSortBelowTheOldOnesNorCompleteBelowTheMarks() {
		long now = System.currentTimeMillis();
		this.serverStore.recordLayout("alpha-order", DEFAULTS);
		WorkerLease used = this.serverStore.borrow(new LeaseRequest("alpha-order", 7, Duration.ofSeconds(30), -1,
				"old-node", now));
		this.serverStore.release(used, now);
		String recentEpoch = new RecordedLayout(SnowflakeLayout.of(Instant.ofEpochMilli(now).minus(Duration.ofDays(1)),
				41, 10, 12), null).format();
		String below = RecordedLayout.parse(recentEpoch).replacing(RecordedLayout.parse(DEFAULTS)).format();
		assertProblem(this.http.send("POST", "/api/fleet/layouts/replace", replace("alpha-order", DEFAULTS, below),
				ALPHA), 409, "Layout change refused", "layout-change-refused");
		assertThat(this.serverStore.readLayout("alpha-order")).isEqualTo(DEFAULTS);
		// a change the slots allow, then its completion with a floor below the marks
		String pending = RecordedLayout.parse(TWITTER).replacing(RecordedLayout.parse(DEFAULTS)).format();
		assertThat(HttpTestClient.json(this.http.send("POST", "/api/fleet/layouts/replace",
				replace("alpha-order", DEFAULTS, pending), ALPHA)).read("$.replaced", Boolean.class)).isTrue();
		long floorId = SnowflakeLayout.defaults().greatestIdUpTo(now);
		String notPutBack = new RecordedLayout(SnowflakeLayout.defaults(), null).completedAbove(1).format();
		assertProblem(this.http.send("POST", "/api/fleet/layouts/replace", replace("alpha-order", pending, notPutBack),
				ALPHA), 409, "Layout change refused", "layout-change-refused");
		assertThat(this.serverStore.readLayout("alpha-order")).isEqualTo(pending);
		String tooLow = new RecordedLayout(SnowflakePresets.twitter(), "twitter").completedAbove(floorId - 1).format();
		assertThat(replaced("alpha-order", pending, tooLow)).isTrue();
		assertThat(this.serverStore.readLayout("alpha-order")).as("completed with the floor the marks give")
			.isEqualTo(new RecordedLayout(SnowflakePresets.twitter(), "twitter").completedAbove(floorId).format());
	}

	@Test
	void aChainOfChangesKeepsTheFloorOfTheFirstUntilTheLayoutsAfterItPassIt() {
		long now = System.currentTimeMillis();
		this.serverStore.recordLayout("alpha-chain", DEFAULTS);
		WorkerLease used = this.serverStore.borrow(new LeaseRequest("alpha-chain", 7, Duration.ofSeconds(30), -1,
				"old-node", now));
		this.serverStore.release(used, now);
		long firstFloor = SnowflakeLayout.defaults().greatestIdUpTo(now);
		// a minute's later epoch: its IDs pass the first floor a minute after the marks
		RecordedLayout second = new RecordedLayout(
				SnowflakeLayout.of(SnowflakeLayout.DEFAULT_EPOCH.plusSeconds(60), 41, 10, 12), null);
		RecordedLayout third = new RecordedLayout(
				SnowflakeLayout.of(SnowflakeLayout.DEFAULT_EPOCH.plusSeconds(60), 41, 8, 14), null);
		String secondPending = second.replacing(RecordedLayout.parse(DEFAULTS)).format();
		assertReplaced("alpha-chain", DEFAULTS, secondPending, second.completedAbove(firstFloor).format());
		String secondDone = this.serverStore.readLayout("alpha-chain");
		// no node of the second layout borrowed: the marks, read under it, give a floor below the first
		assertThat(second.layout().greatestIdUpTo(now)).isLessThan(firstFloor);
		String thirdPending = third.replacing(RecordedLayout.parse(secondDone)).format();
		assertReplaced("alpha-chain", secondDone, thirdPending,
				third.completedAbove(second.layout().greatestIdUpTo(now)).format());
		assertThat(RecordedLayout.parse(this.serverStore.readLayout("alpha-chain")).floorId())
			.as("the floor of the change before").isGreaterThanOrEqualTo(firstFloor);
	}

	/**
	 * Starts and completes a change as a client would, through the fleet API.
	 */
	private void assertReplaced(String namespace, String old, String pending, String completed) {
		assertThat(replaced(namespace, old, pending)).isTrue();
		assertThat(replaced(namespace, pending, completed)).isTrue();
	}

	private boolean replaced(String namespace, String expected, String replacement) {
		HttpResponse<String> answer = this.http.send("POST", "/api/fleet/layouts/replace",
				replace(namespace, expected, replacement), ALPHA);
		assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
		return HttpTestClient.json(answer).read("$.replaced", Boolean.class);
	}

	@Test
	void aStepWhoseExpectedRecordIsGoneAnswersFalseWhileASlotIsHeldUnderTheNewLayout() {
		String completed = RecordedLayout.parse(TWITTER).completedAbove(12_345).format();
		this.serverStore.recordLayout("alpha-moved", completed);
		WorkerLease held = store("alpha-token-0123456789").borrow(request("alpha-moved", completed));
		// two steps of the same change by nodes that read the record before another node made and completed it
		assertThat(replaced("alpha-moved", DEFAULTS, TWITTER_REPLACING_DEFAULTS)).isFalse();
		assertThat(replaced("alpha-moved", TWITTER_REPLACING_DEFAULTS,
				RecordedLayout.parse(TWITTER).completedAbove(1).format())).isFalse();
		assertThat(store("alpha-token-0123456789").replaceLayout("alpha-moved", DEFAULTS, TWITTER_REPLACING_DEFAULTS))
			.as("the client store answers false too, so that its keeper reads the record again").isFalse();
		assertThat(this.serverStore.readLayout("alpha-moved")).isEqualTo(completed);
		store("alpha-token-0123456789").release(held, -1);
	}

	@Test
	void theServerComputesTheFloorOfACompletionWhateverTheClientNames() {
		long now = System.currentTimeMillis();
		this.serverStore.recordLayout("alpha-floor", DEFAULTS);
		WorkerLease used = this.serverStore.borrow(new LeaseRequest("alpha-floor", 7, Duration.ofSeconds(30), -1,
				"old-node", now));
		this.serverStore.release(used, now);
		long floorId = SnowflakeLayout.defaults().greatestIdUpTo(now);
		assertThat(replaced("alpha-floor", DEFAULTS, TWITTER_REPLACING_DEFAULTS)).isTrue();
		// a floor 50 minutes ahead would keep every node of the new layout from starting for 50 minutes
		long farAhead = SnowflakePresets.twitter().greatestIdUpTo(now + Duration.ofMinutes(50).toMillis());
		assertThat(replaced("alpha-floor", TWITTER_REPLACING_DEFAULTS,
				RecordedLayout.parse(TWITTER).completedAbove(farAhead).format())).isTrue();
		assertThat(this.serverStore.readLayout("alpha-floor"))
			.isEqualTo(RecordedLayout.parse(TWITTER).completedAbove(floorId).format());
	}

	@Test
	void aBorrowUnderAPendingRecordIsRefusedAndTakesNoSlot() {
		this.serverStore.recordLayout("alpha-pending", TWITTER_REPLACING_DEFAULTS);
		HttpResponse<String> refused = this.http.send("POST", "/api/fleet/leases", borrow("alpha-pending", TWITTER),
				ALPHA);
		assertProblem(refused, 409, "Layout change pending", "layout-change-pending");
		assertThat(HttpTestClient.json(refused).read("$.detail", String.class))
			.contains(TWITTER_REPLACING_DEFAULTS, "completes the change before it borrows");
		assertThatExceptionOfType(IdServerLayoutConflictException.class)
			.isThrownBy(() -> store("alpha-token-0123456789").borrow(request("alpha-pending", TWITTER)));
		assertThat(this.serverStore.slotMarks("alpha-pending")).isEmpty();
	}

	@Test
	void aRequestIdSentAgainWithAnotherBodyIsRefusedNamingTheField() {
		this.serverStore.recordLayout("alpha-reused", DEFAULTS);
		String first = "{\"namespace\":\"alpha-reused\",\"expected\":\"" + DEFAULTS + "\",\"replacement\":\""
				+ TWITTER_REPLACING_DEFAULTS + "\",\"requestId\":\"layout-req-0001\"}";
		assertThat(HttpTestClient.json(this.http.send("POST", "/api/fleet/layouts/replace", first, ALPHA))
			.read("$.replaced", Boolean.class)).isTrue();
		String other = first.replace(TWITTER_REPLACING_DEFAULTS, RecordedLayout.parse(TWITTER_REPLACING_DEFAULTS)
			.completedAbove(1)
			.format());
		HttpResponse<String> refused = this.http.send("POST", "/api/fleet/layouts/replace", other, ALPHA);
		assertInvalid(refused, "'requestId'");
		assertThat(HttpTestClient.json(refused).read("$.detail", String.class)).contains("replacement");
		assertThat(HttpTestClient.json(this.http.send("POST", "/api/fleet/layouts/replace", first, ALPHA))
			.read("$.replaced", Boolean.class)).as("the same request again: the first answer").isTrue();
		assertThat(this.serverStore.readLayout("alpha-reused")).isEqualTo(TWITTER_REPLACING_DEFAULTS);
	}

	@Test
	void aClientThatFindsTheRecordLostWhileAnotherClientsNodeRunsRecordsNothingAndIsRefused() {
		// the server does not judge a record call: the keeper's own rule keeps a node of another layout out
		WorkerLeaseKeeper running = keeper(SnowflakePresets.twitter(), "alpha-lost-record", Duration.ofSeconds(1));
		running.start();
		((InMemoryLeaseStore) this.serverStore).forgetLayout("alpha-lost-record");
		WorkerLeaseKeeper other = keeper(SnowflakeLayout.defaults(), "alpha-lost-record", Duration.ofSeconds(1));
		try {
			assertThatExceptionOfType(LayoutConflictException.class).isThrownBy(other::start)
				.withMessageContaining("is missing while worker IDs [0] are held")
				.satisfies((ex) -> assertThat(ex.getReason()).isEqualTo(Reason.RECORD_MISSING));
			assertThat(this.serverStore.readLayout("alpha-lost-record")).isNull();
			assertThat(running.status().state()).isEqualTo(State.ACTIVE);
		}
		finally {
			other.close();
			running.close();
		}
	}

	private WorkerLeaseKeeper keeper(SnowflakeLayout layout, String namespace, Duration maxStartupWait) {
		SnowflakeIdGenerator generator = new SnowflakeIdGenerator(layout, TimeSource.system(),
				ClockBackwardsPolicy.defaults(), IdWorkerListener.NONE);
		return new WorkerLeaseKeeper(store("alpha-token-0123456789"), generator, LeaseSettings.builder()
			.namespace(namespace)
			.ttl(Duration.ofSeconds(60))
			.heartbeat(Duration.ofSeconds(20))
			.maxStartupWait(maxStartupWait)
			.build(), TimeSource.system(), IdWorkerListener.NONE);
	}

	@Test
	void layoutTextsThatAreNoRecordedLayoutAreBadRequestsNamingTheFieldAndNothingIsRecorded() {
		assertInvalid(this.http.send("POST", "/api/fleet/layouts", "{\"namespace\":\"alpha-junk\",\"layout\":\"junk\"}",
				ALPHA), "'layout'");
		assertInvalid(this.http.send("POST", "/api/fleet/layouts",
				"{\"namespace\":\"alpha-junk\",\"layout\":\"" + DEFAULTS_REPLACING_TWITTER + "\"}", ALPHA), "'layout'");
		assertInvalid(this.http.send("POST", "/api/fleet/leases", borrow("alpha-junk", "junk"), ALPHA), "'layout'");
		assertThat(this.serverStore.readLayout("alpha-junk")).isNull();
		this.serverStore.recordLayout("alpha-junk", TWITTER);
		assertInvalid(this.http.send("POST", "/api/fleet/layouts/replace", replace("alpha-junk", "junk", DEFAULTS),
				ALPHA), "'expected'");
		assertInvalid(this.http.send("POST", "/api/fleet/layouts/replace", replace("alpha-junk", TWITTER, "junk"),
				ALPHA), "'replacement'");
		assertThat(this.serverStore.readLayout("alpha-junk")).isEqualTo(TWITTER);
	}

	private static void assertInvalid(HttpResponse<String> answer, String field) {
		assertProblem(answer, 400, "Invalid parameter", "invalid-parameter");
		assertThat(HttpTestClient.json(answer).read("$.detail", String.class)).contains(field);
	}

	@Test
	void aBorrowNamingNoLayoutIsRefusedWhereALayoutIsRecordedAndLeasedWhereNoneIs() {
		DocumentContext lease = HttpTestClient.json(this.http.send("POST", "/api/fleet/leases",
				borrow("alpha-older-client", null), ALPHA));
		assertThat(lease.read("$.workerId", Integer.class)).as("nothing recorded: a client before 0.2.0 borrows")
			.isZero();
		this.serverStore.recordLayout("alpha-older-client", TWITTER);
		HttpResponse<String> refused = this.http.send("POST", "/api/fleet/leases", borrow("alpha-older-client", null),
				ALPHA);
		assertProblem(refused, 409, "Layout required", "layout-required");
		assertThat(HttpTestClient.json(refused).read("$.detail", String.class)).contains(TWITTER, "Upgrade the client");
		assertThat(this.serverStore.slotMarks("alpha-older-client")).hasSize(1);
	}

	private static LeaseRequest request(String namespace, String layout) {
		return new LeaseRequest(namespace, 7, Duration.ofSeconds(30), -1, "layout-test:1",
				System.currentTimeMillis() + 1000, Set.of(), layout);
	}

	private static String borrow(String namespace, String layout) {
		return "{\"namespace\":\"" + namespace + "\",\"maxWorkerId\":7,\"ttlMillis\":60000,\"preferredWorkerId\":-1,"
				+ "\"instance\":\"layout-test:1\",\"timestampCeiling\":" + System.currentTimeMillis()
				+ ((layout != null) ? ",\"layout\":\"" + layout + "\"" : "") + "}";
	}

	private static String replace(String namespace, String expected, String replacement) {
		return "{\"namespace\":\"" + namespace + "\",\"expected\":\"" + expected + "\",\"replacement\":\""
				+ replacement + "\"}";
	}

	@Nested
	class Contract extends AbstractLeaseStoreContractTests {

		@Override
		protected ISequenceManager createManager() {
			return store("alpha-token-0123456789");
		}

		@Override
		protected String withoutStorageSkipReason() {
			return "a client keeps no storage of its own: the ID server answers for its store";
		}

	}

}
