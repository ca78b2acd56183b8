package io.idstarter.store.ensemble;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import io.etcd.jetcd.Client;
import io.idstarter.IdWorkerListener;
import io.idstarter.lease.ISequenceManager;
import io.idstarter.lease.LeaseSettings;
import io.idstarter.lease.WorkerLeaseKeeper;
import io.idstarter.snowflake.ClockBackwardsPolicy;
import io.idstarter.snowflake.SnowflakeIdGenerator;
import io.idstarter.snowflake.SnowflakeLayout;
import io.idstarter.snowflake.WorkerIdUnavailableException;
import io.idstarter.store.etcd.EtcdLeaseStore;
import io.idstarter.store.zookeeper.ZooKeeperLeaseStore;
import io.idstarter.testsupport.LocalEnsemble;
import io.idstarter.time.TimeSource;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryNTimes;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two Snowflake nodes on a three-member ensemble of the test's own (ports 22100-22399, never the shared one) while
 * members are killed with SIGKILL: with one member down issuing goes on; with two down both nodes stop within their
 * lease's validity; with quorum back they issue again; no ID is ever issued twice.
 */
class EnsembleQuorumIntegrationTests {

	/** Long enough that the validity (TTL - margin) outlasts a leader election after a member is killed. */
	private static final Duration TTL = Duration.ofSeconds(6);

	private static final Duration HEARTBEAT = Duration.ofSeconds(1);

	private static final Duration MARGIN = Duration.ofSeconds(1);

	enum Service {

		ZOOKEEPER(22100), ETCD(22300);

		final int basePort;

		Service(int basePort) {
			this.basePort = basePort;
		}

	}

	@ParameterizedTest
	@EnumSource(Service.class)
	void issuingSurvivesOneMemberDownStopsWithinTheLeaseWithoutQuorumAndResumesWhenItReturns(Service service)
			throws Exception {
		List<AutoCloseable> closeables = new ArrayList<>();
		try (LocalEnsemble ensemble = (service == Service.ZOOKEEPER) ? LocalEnsemble.zookeeper(service.basePort)
				: LocalEnsemble.etcd(service.basePort)) {
			SnowflakeLayout layout = SnowflakeLayout.of(SnowflakeLayout.DEFAULT_EPOCH, 41, 2, 20);
			List<Node> nodes = new ArrayList<>();
			for (String name : List.of("a", "b")) {
				ISequenceManager manager = connect(service, ensemble, closeables);
				Node node = new Node(name, manager, layout);
				closeables.add(node);
				nodes.add(node);
			}
			for (Node node : nodes) {
				node.keeper.start();
				node.startIssuing();
			}
			awaitIssuing(nodes);

			// One member down: quorum holds, both keep issuing.
			nodes.forEach((node) -> node.refusals.set(0));
			ensemble.kill(0);
			Thread.sleep(TTL.toMillis() + 1000);
			for (Node node : nodes) {
				assertThat(node.lastIssuedAt.get()).as("%s issuing with one member down", node.name)
					.isGreaterThan(System.currentTimeMillis() - 500);
				assertThat(node.refusals.get()).as("%s refusals with one member down", node.name).isZero();
			}
			ensemble.start(0);
			ensemble.awaitQuorum(Duration.ofSeconds(60));
			awaitIssuing(nodes);

			// Two members down: no quorum; each node stops within its lease's validity.
			ensemble.kill(1);
			ensemble.kill(2);
			long noQuorumAt = System.currentTimeMillis();
			Thread.sleep(TTL.toMillis() + 1500);
			for (Node node : nodes) {
				long last = node.lastIssuedAt.get();
				assertThat(node.refusals.get()).as("%s refuses without quorum", node.name).isPositive();
				assertThat(last).as("%s stopped within ttl - margin of the loss", node.name)
					.isLessThanOrEqualTo(noQuorumAt + TTL.minus(MARGIN).toMillis() + 100);
			}
			long stoppedAt = System.currentTimeMillis();
			Thread.sleep(500);
			for (Node node : nodes) {
				assertThat(node.lastIssuedAt.get()).as("%s issues nothing while quorum is lost", node.name)
					.isLessThan(stoppedAt);
			}

			// Quorum back: both issue again.
			long restartAt = System.currentTimeMillis();
			ensemble.start(1);
			ensemble.start(2);
			ensemble.awaitQuorum(Duration.ofSeconds(60));
			long quorumBackAt = System.currentTimeMillis();
			long deadline = quorumBackAt + 30_000;
			while (nodes.stream().anyMatch((node) -> node.lastIssuedAt.get() < quorumBackAt)
					&& System.currentTimeMillis() < deadline) {
				Thread.sleep(100);
			}
			for (Node node : nodes) {
				assertThat(node.lastIssuedAt.get()).as("%s issues again after quorum returned", node.name)
					.isGreaterThanOrEqualTo(quorumBackAt);
			}
			long recoveredAfter = nodes.stream().mapToLong((node) -> node.firstAfter(restartAt)).max().orElse(0)
					- restartAt;
			for (Node node : nodes) {
				node.stopIssuing();
			}
			long[] all = nodes.stream().flatMapToLong((node) -> node.ids.stream().mapToLong(Long::longValue)).toArray();
			Arrays.sort(all);
			long duplicates = 0;
			for (int i = 1; i < all.length; i++) {
				if (all[i] == all[i - 1]) {
					duplicates++;
				}
			}
			assertThat(duplicates).as("IDs issued twice").isZero();
			System.out.printf("%s quorum drill: %d IDs, %d duplicates; one member down %d ms without a refusal; "
					+ "no quorum: nodes stopped %s ms after the loss; both issuing again %d ms after the two members were "
					+ "started again (%d ms until the ensemble reported quorum)%n",
					service, all.length, duplicates, TTL.toMillis() + 1000,
					nodes.stream().map((node) -> Long.toString(node.lastIssuedBefore(stoppedAt) - noQuorumAt)).toList(),
					recoveredAfter, quorumBackAt - restartAt);
		}
		finally {
			for (int i = closeables.size() - 1; i >= 0; i--) {
				closeables.get(i).close();
			}
		}
	}

	/** Waits until every node has issued within the last 200 ms (a busy machine's first calls are slow). */
	private static void awaitIssuing(List<Node> nodes) throws InterruptedException {
		long deadline = System.currentTimeMillis() + 30_000;
		while (nodes.stream().anyMatch((node) -> node.lastIssuedAt.get() < System.currentTimeMillis() - 200)) {
			assertThat(System.currentTimeMillis()).as("nodes issuing within 30 s").isLessThan(deadline);
			Thread.sleep(50);
		}
	}

	private static ISequenceManager connect(Service service, LocalEnsemble ensemble, List<AutoCloseable> closeables) {
		if (service == Service.ZOOKEEPER) {
			CuratorFramework client = CuratorFrameworkFactory.builder()
				.connectString(ensemble.connectString())
				.sessionTimeoutMs((int) TTL.toMillis())
				.connectionTimeoutMs(1000)
				.retryPolicy(new RetryNTimes(1, 100))
				.build();
			client.start();
			closeables.add(client);
			return new ZooKeeperLeaseStore(client, "/quorum-drill", null);
		}
		Client client = Client.builder().endpoints(ensemble.connectString().split(",")).build();
		closeables.add(client);
		try {
			client.getClusterClient().listMember().get(30, TimeUnit.SECONDS);
		}
		catch (Exception ex) {
			throw new IllegalStateException("no answer from " + ensemble, ex);
		}
		return new EtcdLeaseStore(client, "/quorum-drill/", Duration.ofSeconds(2), ensemble.connectString());
	}

	/**
	 * A Snowflake node issuing on its own thread, recording every ID and when it last issued.
	 */
	private static final class Node implements AutoCloseable {

		final String name;

		final SnowflakeIdGenerator generator;

		final WorkerLeaseKeeper keeper;

		final ConcurrentLinkedQueue<Long> ids = new ConcurrentLinkedQueue<>();

		final ConcurrentLinkedQueue<Long> issuedAt = new ConcurrentLinkedQueue<>();

		final AtomicLong lastIssuedAt = new AtomicLong();

		final AtomicLong refusals = new AtomicLong();

		final AtomicBoolean running = new AtomicBoolean(true);

		Thread thread;

		Node(String name, ISequenceManager manager, SnowflakeLayout layout) {
			this.name = name;
			this.generator = new SnowflakeIdGenerator(layout, TimeSource.system(), ClockBackwardsPolicy.defaults(),
					IdWorkerListener.NONE);
			this.keeper = new WorkerLeaseKeeper(manager, this.generator, LeaseSettings.builder()
				.namespace("quorum")
				.ttl(TTL)
				.heartbeat(HEARTBEAT)
				.safetyMargin(MARGIN)
				.instance(name)
				.build(), TimeSource.system(), IdWorkerListener.NONE);
		}

		void startIssuing() {
			this.thread = new Thread(() -> {
				while (this.running.get()) {
					try {
						this.ids.add(this.generator.nextId());
						long now = System.currentTimeMillis();
						this.lastIssuedAt.set(now);
						this.issuedAt.add(now);
						Thread.sleep(2);
					}
					catch (WorkerIdUnavailableException ex) {
						this.refusals.incrementAndGet();
						sleepQuietly();
					}
					catch (InterruptedException ex) {
						return;
					}
				}
			}, "issuer-" + this.name);
			this.thread.setDaemon(true);
			this.thread.start();
		}

		long firstAfter(long at) {
			return this.issuedAt.stream().mapToLong(Long::longValue).filter((t) -> t >= at).min().orElse(Long.MAX_VALUE);
		}

		long lastIssuedBefore(long at) {
			return this.issuedAt.stream().mapToLong(Long::longValue).filter((t) -> t < at).max().orElse(0);
		}

		void stopIssuing() throws InterruptedException {
			this.running.set(false);
			this.thread.join(TimeUnit.SECONDS.toMillis(5));
		}

		private static void sleepQuietly() {
			try {
				Thread.sleep(10);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}

		@Override
		public void close() throws Exception {
			this.running.set(false);
			this.keeper.close();
		}

	}

}
