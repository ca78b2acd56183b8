package io.idstarter.store.zookeeper;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import io.idstarter.IdWorkerListener;
import io.idstarter.lease.LeaseRequest;
import io.idstarter.lease.LeaseSettings;
import io.idstarter.lease.LeaseStatus;
import io.idstarter.lease.LeaseStoreException;
import io.idstarter.lease.WorkerLease;
import io.idstarter.lease.WorkerLeaseKeeper;
import io.idstarter.snowflake.ClockBackwardsPolicy;
import io.idstarter.snowflake.SnowflakeIdGenerator;
import io.idstarter.snowflake.SnowflakeLayout;
import io.idstarter.testsupport.TcpProxy;
import io.idstarter.testsupport.TestBackends;
import io.idstarter.time.TimeSource;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryNTimes;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Multi-ops whose reply is lost after they committed, on the real ensemble: a {@link TcpProxy} in front of one member
 * lets the borrow's or the renewal's multi-op reach the server and drops the server's reply, closing the connection.
 * Curator reconnects to the same session and sends the multi-op again, which fails on what the first one wrote. With
 * four slots, another node must still get the three this node does not hold: nothing leaks.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ZooKeeperLostReplyIntegrationTests {

	private static final Duration TTL = Duration.ofSeconds(10);

	/** ZooKeeper's opcode of a multi-op request. */
	private static final int MULTI = 14;

	/** ZooKeeper's opcode of a setData request. */
	private static final int SET_DATA = 5;

	private final String rootPath = "/idstarter-test/" + UUID.randomUUID();

	private final List<AutoCloseable> opened = new ArrayList<>();

	private CuratorFramework direct;

	private TcpProxy proxy;

	private CuratorFramework proxied;

	private ZooKeeperLeaseStore throughProxy;

	private ZooKeeperLeaseStore other;

	@BeforeAll
	void connectDirectly() {
		this.direct = ZooKeeperTestClients.start(TestBackends.zookeeper().connectString(), TTL);
		this.other = new ZooKeeperLeaseStore(this.direct, this.rootPath, null);
	}

	@AfterAll
	void deleteRootPath() {
		ZooKeeperLeaseStoreIntegrationTests.deleteQuietly(this.direct, this.rootPath);
		this.direct.close();
	}

	void connectThroughProxy() throws InterruptedException {
		connectThroughProxy(Duration.ofSeconds(5), 5);
	}

	void connectThroughProxy(Duration connectionTimeout, int retries) throws InterruptedException {
		String member = TestBackends.zookeeper().members().get(0);
		this.proxy = TcpProxy.start(member.substring(0, member.lastIndexOf(':')),
				Integer.parseInt(member.substring(member.lastIndexOf(':') + 1)));
		this.opened.add(this.proxy);
		// Long enough for Curator to reconnect (ZooKeeper waits up to 1 s before it does) and send the multi-op again.
		CuratorFramework client = CuratorFrameworkFactory.builder()
			.connectString("127.0.0.1:" + this.proxy.port())
			.sessionTimeoutMs((int) TTL.toMillis())
			.connectionTimeoutMs((int) connectionTimeout.toMillis())
			.retryPolicy(new RetryNTimes(retries, 200))
			.build();
		client.start();
		this.opened.add(client);
		this.proxied = client;
		assertThat(client.blockUntilConnected(20, TimeUnit.SECONDS)).as("connected through the proxy").isTrue();
		this.throughProxy = new ZooKeeperLeaseStore(client, this.rootPath, null);
	}

	@AfterEach
	void close() throws Exception {
		for (int i = this.opened.size() - 1; i >= 0; i--) {
			this.opened.get(i).close();
		}
		this.opened.clear();
	}

	@Test
	void aBorrowWhoseReplyIsLostHoldsTheSlotItTookAndLeaksNone() throws Exception {
		connectThroughProxy();
		String namespace = "lost-borrow-" + UUID.randomUUID();
		loseNextMultiReply();
		WorkerLease lease = this.throughProxy.borrow(request(namespace, -1));
		assertThat(this.proxy.lostReplies()).as("replies lost").isOne();
		assertThat(lease.workerId()).as("the slot the lost multi-op took").isZero();
		assertThat(holderToken(namespace, 0)).isEqualTo(lease.ownerToken());
		assertThat(otherNodeBorrowsAllItCan(namespace)).as("worker ids another node gets").containsExactly(1, 2, 3);
	}

	@Test
	void aBorrowThatGetsNoAnswerAtAllGivesItsSlotBackAtTheNextBorrow() throws Exception {
		connectThroughProxy(Duration.ofMillis(500), 2);
		String namespace = "no-answer-" + UUID.randomUUID();
		// the reply is lost and the member stays out of reach until Curator gives up
		this.proxy.loseReply((request) -> multiXid(request) != null, (request, reply) -> {
			Integer xid = multiXid(request);
			boolean lost = xid != null && replyXids(reply).contains(xid);
			if (lost) {
				this.proxy.cut();
			}
			return lost;
		});
		assertThatExceptionOfType(LeaseStoreException.class)
			.isThrownBy(() -> this.throughProxy.borrow(request(namespace, -1)))
			.withMessageContaining("ConnectionLoss");
		assertThat(this.proxy.lostReplies()).isOne();
		assertThat(holderToken(namespace, 0)).as("the take committed").isNotEmpty();
		this.proxy.restore();
		assertThat(this.proxied.blockUntilConnected(20, TimeUnit.SECONDS)).as("reconnected").isTrue();
		assertThat(this.throughProxy.borrow(request(namespace, -1)).workerId()).isEqualTo(1);
		assertThat(this.other.borrow(request(namespace, -1)).workerId()).isEqualTo(2);
		assertThat(this.other.borrow(request(namespace, -1)).workerId()).isEqualTo(3);
		assertThat(this.other.borrow(request(namespace, -1)).workerId()).as("the slot the unanswered take held")
			.isZero();
	}

	/**
	 * The write went through, but a retry cannot tell it from another writer's with the same text, and only one of
	 * them may answer {@code true}: the answer is {@code false}, and the record shows the write (the lease keeper reads
	 * it again and finds its change).
	 */
	@Test
	void aLayoutReplacementWhoseReplyIsLostAnswersFalseAndTheRecordShowsTheWrite() throws Exception {
		connectThroughProxy();
		String namespace = "lost-layout-" + UUID.randomUUID();
		assertThat(this.throughProxy.recordLayout(namespace, "layout-a")).isEqualTo("layout-a");
		this.proxy.loseReply((request) -> requestXid(request, SET_DATA) != null, (request, reply) -> {
			Integer xid = requestXid(request, SET_DATA);
			return xid != null && replyXids(reply).contains(xid);
		});
		assertThat(this.throughProxy.replaceLayout(namespace, "layout-a", "layout-b")).as("not known to be its own")
			.isFalse();
		assertThat(this.proxy.lostReplies()).as("replies lost").isOne();
		assertThat(this.other.readLayout(namespace)).isEqualTo("layout-b");
		assertThat(this.other.replaceLayout(namespace, "layout-a", "layout-c")).isFalse();
	}

	@Test
	void aRenewalWhoseReplyIsLostStillHoldsTheSlot() throws Exception {
		connectThroughProxy();
		String namespace = "lost-renewal-" + UUID.randomUUID();
		WorkerLease lease = this.throughProxy.borrow(request(namespace, -1));
		long ceiling = System.currentTimeMillis() + TTL.toMillis() + 1000;
		loseNextMultiReply();
		WorkerLease renewed = this.throughProxy.renew(lease, ceiling);
		assertThat(this.proxy.lostReplies()).as("replies lost").isOne();
		assertThat(renewed.workerId()).isEqualTo(lease.workerId());
		assertThat(renewed.timestampCeiling()).isEqualTo(ceiling);
		assertThat(holderToken(namespace, lease.workerId())).isEqualTo(lease.ownerToken());
		assertThat(this.throughProxy.renew(renewed, ceiling).timestampCeiling()).as("renewed again")
			.isEqualTo(ceiling);
		assertThat(otherNodeBorrowsAllItCan(namespace)).as("worker ids another node gets").containsExactly(1, 2, 3);
	}

	@Test
	void aReleaseWhoseReplyIsLostFreesTheSlot() throws Exception {
		connectThroughProxy();
		String namespace = "lost-release-" + UUID.randomUUID();
		WorkerLease lease = this.throughProxy.borrow(request(namespace, -1));
		loseNextMultiReply();
		this.throughProxy.release(lease, lease.timestampCeiling());
		assertThat(this.proxy.lostReplies()).as("replies lost").isOne();
		assertThat(otherNodeBorrowsAllItCan(namespace)).as("worker ids another node gets").containsExactly(1, 2, 3);
		assertThat(this.other.borrow(request(namespace, -1)).workerId()).as("the released slot").isZero();
	}

	@Test
	void aKeeperWhoseRenewalRepliesAreLostFourTimesKeepsItsWorkerIdAndLeaksNoSlot() throws Exception {
		connectThroughProxy();
		String namespace = "lost-keeper-" + UUID.randomUUID();
		SnowflakeLayout layout = SnowflakeLayout.of(LeafSnowflake.EPOCH, 41, 2, 20);
		SnowflakeIdGenerator generator = new SnowflakeIdGenerator(layout, TimeSource.system(),
				ClockBackwardsPolicy.defaults(), IdWorkerListener.NONE);
		LeaseSettings settings = LeaseSettings.builder()
			.namespace(namespace)
			.ttl(TTL)
			.heartbeat(Duration.ofMillis(300))
			.safetyMargin(Duration.ofSeconds(2))
			.instance("lost-replies")
			.build();
		try (WorkerLeaseKeeper keeper = new WorkerLeaseKeeper(this.throughProxy, generator, settings,
				TimeSource.system(), IdWorkerListener.NONE)) {
			keeper.start();
			assertThat(generator.workerId()).hasValue(0);
			for (int lost = 1; lost <= 4; lost++) {
				loseNextMultiReply();
				int expected = lost;
				await().atMost(Duration.ofSeconds(20)).until(() -> this.proxy.lostReplies() == expected);
				// the next loss only once the keeper holds a lease again after this one
				Instant lostAt = Instant.now();
				await().atMost(Duration.ofSeconds(10)).until(() -> keeper.status().lastRenewal() != null
						&& keeper.status().lastRenewal().isAfter(lostAt));
			}
			assertThat(keeper.status().state()).isEqualTo(LeaseStatus.State.ACTIVE);
			assertThat(keeper.status().workerId()).as("worker id after 4 lost replies").isZero();
			assertThat(generator.nextId()).isPositive();
			assertThat(otherNodeBorrowsAllItCan(namespace)).as("worker ids another node gets").containsExactly(1, 2, 3);
		}
	}

	/**
	 * Borrows from the other node's manager until the namespace of four slots is full or three slots are taken.
	 */
	private List<Integer> otherNodeBorrowsAllItCan(String namespace) {
		List<Integer> ids = new ArrayList<>();
		for (int i = 0; i < 3; i++) {
			try {
				ids.add(this.other.borrow(request(namespace, -1)).workerId());
			}
			catch (RuntimeException ex) {
				ids.add(-1);
				break;
			}
		}
		return ids;
	}

	private String holderToken(String namespace, int workerId) throws Exception {
		String path = this.other.namespacePath(namespace) + "/holders/" + workerId;
		Stat stat = this.direct.checkExists().forPath(path);
		assertThat(stat).as(path).isNotNull();
		return new String(this.direct.getData().forPath(path)).split(" ")[0];
	}

	private void loseNextMultiReply() {
		this.proxy.loseReply((request) -> multiXid(request) != null, (request, reply) -> {
			Integer xid = multiXid(request);
			return xid != null && replyXids(reply).contains(xid);
		});
	}

	/** Returns the xid of the first multi-op request in a chunk of ZooKeeper client frames, if any. */
	private static Integer multiXid(byte[] chunk) {
		return requestXid(chunk, MULTI);
	}

	/** Returns the xid of the first request of a type in a chunk of ZooKeeper client frames, if any. */
	private static Integer requestXid(byte[] chunk, int opcode) {
		ByteBuffer frames = ByteBuffer.wrap(chunk);
		while (frames.remaining() >= 12) {
			int length = frames.getInt(frames.position());
			int xid = frames.getInt(frames.position() + 4);
			int type = frames.getInt(frames.position() + 8);
			if (type == opcode) {
				return xid;
			}
			if (length < 0 || length > frames.remaining() - 4) {
				return null;
			}
			frames.position(frames.position() + 4 + length);
		}
		return null;
	}

	/** Returns the xids of the replies in a chunk of ZooKeeper server frames. */
	private static List<Integer> replyXids(byte[] chunk) {
		List<Integer> xids = new ArrayList<>();
		ByteBuffer frames = ByteBuffer.wrap(chunk);
		while (frames.remaining() >= 8) {
			int length = frames.getInt(frames.position());
			xids.add(frames.getInt(frames.position() + 4));
			if (length < 0 || length > frames.remaining() - 4) {
				break;
			}
			frames.position(frames.position() + 4 + length);
		}
		return xids;
	}

	private static LeaseRequest request(String namespace, int preferred) {
		return new LeaseRequest(namespace, 3, TTL, preferred, "host-a/1", System.currentTimeMillis());
	}

}
