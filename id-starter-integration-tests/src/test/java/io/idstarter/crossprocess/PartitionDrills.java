package io.idstarter.crossprocess;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.function.BooleanSupplier;

import io.idstarter.crossprocess.NetworkLab.Host;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.opentest4j.TestAbortedException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * Network partitions between real hosts: each ensemble member and each client JVM ({@link IdDrillProcess}, Snowflake
 * IDs under worker IDs leased from the ensemble) runs in a network namespace of its own ({@link NetworkLab}), and the
 * kernel drops the packets. Five drills, each with fresh clients on one ensemble the class starts once:
 * <ol>
 * <li>the leader and client A on one side, the other two members and clients B and C on the other; C starts after
 * the cut and can only get a worker ID that A or B held; then heal;</li>
 * <li>a follower cut off from the other two members, and client A cut off from those two but still reaching the
 * follower; C as above;</li>
 * <li>one way: A's packets reach every member, their replies to A are dropped;</li>
 * <li>30% of the packets of A, B and the leader lost each way, at random, across several renewals;</li>
 * <li>the leader's link down for 6 s ({@code ip link set eth0 down}), then up.</li>
 * </ol>
 * Each drill counts the IDs, checks that none was issued twice, that no worker ID was held by two clients at any
 * time nor granted while another lease on it was live ({@link LeaseHistory}), that the clients cut off stopped and
 * issued again after the heal, and logs when each stopped and recovered (figures in docs/correctness.md).
 *
 * <p>Lease TTL 3 s, heartbeat 1 s, safety margin 1 s; one worker-ID bit (two slots) in the drills where C must wait
 * for a slot, so that it can only ever get one a cut-off client held. Needs root, iproute2 and nftables (see
 * {@link NetworkLab}): without them the drills fail, unless the environment variable {@value NetworkLab#OPT_OUT} is
 * {@code skip}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
abstract class PartitionDrills {

	private static final Logger logger = LoggerFactory.getLogger(PartitionDrills.class);

	private static final Duration TTL = Duration.ofSeconds(3);

	private static final Duration HEARTBEAT = Duration.ofSeconds(1);

	private static final Duration MARGIN = Duration.ofSeconds(1);

	/** IDs per second of each client's one thread. */
	private static final long RATE = 2000;

	/** More IDs than a client issues in a drill: the drill ends the issuing. */
	private static final long COUNT = 10_000_000;

	/** IDs the late client C issues before it gives its worker ID back. */
	private static final long NEWCOMER_COUNT = 4000;

	/** How long a client may take to issue again once the network is whole. */
	private static final Duration RECOVERY = Duration.ofSeconds(25);

	/** Share of packets lost in the loss drill, each way. */
	private static final int LOSS_PERCENT = 30;

	/** Why the drills are skipped ({@value NetworkLab#OPT_OUT}), or {@code null} when they run. */
	private @Nullable String skipped;

	private NetworkLab lab;

	private NamespacedEnsemble ensemble;

	private List<Host> members;

	private Host hostA;

	private Host hostB;

	private Host hostC;

	/**
	 * Starts the ensemble on the lab's member hosts.
	 * @param members one host per member
	 * @return the ensemble, with a leader
	 */
	abstract NamespacedEnsemble startEnsemble(List<Host> members);

	/**
	 * Names the store in test output.
	 * @return the store
	 */
	abstract String storeName();

	@BeforeAll
	void buildLab() {
		try {
			this.lab = NetworkLab.create();
		}
		catch (TestAbortedException ex) {
			// Opted out: each drill reports itself skipped, with the reason.
			this.skipped = ex.getMessage();
			return;
		}
		try {
			this.members = List.of(this.lab.addHost("m1", 1), this.lab.addHost("m2", 2), this.lab.addHost("m3", 3));
			this.hostA = this.lab.addHost("a", 11);
			this.hostB = this.lab.addHost("b", 12);
			this.hostC = this.lab.addHost("c", 13);
			this.ensemble = startEnsemble(this.members);
		}
		catch (RuntimeException ex) {
			this.lab.close();
			throw ex;
		}
	}

	@BeforeEach
	void skipWhenOptedOut() {
		Assumptions.assumeTrue(this.skipped == null, this.skipped);
	}

	@AfterAll
	void removeLab() {
		try {
			if (this.ensemble != null) {
				this.ensemble.close();
			}
		}
		finally {
			if (this.lab != null) {
				this.lab.close();
			}
		}
	}

	@Test
	@Order(1)
	void aMinorityHoldingTheLeaderAndAClientStopsThatClientAndTheMajorityHandsItsWorkerIdOnlyOnceItExpired() {
		try (Run run = new Run("a", 1)) {
			Host leader = this.ensemble.awaitLeader(Duration.ofSeconds(30));
			List<Host> majority = new ArrayList<>(this.members);
			majority.remove(leader);
			List<Host> majoritySide = new ArrayList<>(majority);
			majoritySide.addAll(List.of(this.hostB, this.hostC));
			run.cut(() -> this.lab.partition(List.of(leader, this.hostA), majoritySide), "leader " + leader.name
					+ " and A | " + majority.stream().map((host) -> host.name).toList() + ", B and C");
			run.newcomerTakesAFreedWorkerId();
			run.heal();
			run.finish(List.of(run.a));
		}
	}

	@Test
	@Order(2)
	void aClientCutFromTheMajorityButReachingAMinorityMemberStopsAndIssuesAgainAfterTheHeal() {
		try (Run run = new Run("b", 1)) {
			Host leader = this.ensemble.awaitLeader(Duration.ofSeconds(30));
			Host follower = this.members.stream().filter((host) -> host != leader).findFirst().orElseThrow();
			List<Host> majority = new ArrayList<>(this.members);
			majority.remove(follower);
			run.cut(() -> {
				this.lab.partition(List.of(follower), majority);
				this.lab.partition(List.of(this.hostA), majority);
			}, "follower " + follower.name + " | " + majority.stream().map((host) -> host.name).toList()
					+ "; A reaches " + follower.name + " only");
			run.newcomerTakesAFreedWorkerId();
			run.heal();
			run.finish(List.of(run.a));
		}
	}

	@Test
	@Order(3)
	void aClientWhoseRepliesAreDroppedStopsWithinItsLeaseAndIssuesAgainAfterTheHeal() {
		try (Run run = new Run("c", 1)) {
			run.cut(() -> this.lab.dropOneWay(this.members, this.hostA), "members -> A dropped, A -> members passes");
			run.hold(Duration.ofSeconds(8));
			run.heal();
			run.finish(List.of(run.a));
		}
	}

	@Test
	@Order(4)
	void packetLossDuringRenewalsNeverLetsAWorkerIdBeHeldTwice() {
		try (Run run = new Run("d", 1)) {
			Host leader = this.ensemble.awaitLeader(Duration.ofSeconds(30));
			run.cut(() -> {
				for (Host host : List.of(this.hostA, this.hostB, leader)) {
					this.lab.loss(host, LOSS_PERCENT);
				}
			}, LOSS_PERCENT + "% loss each way at A, B and leader " + leader.name);
			run.hold(Duration.ofSeconds(15));
			run.heal();
			run.finish(List.of());
		}
	}

	@Test
	@Order(5)
	void theLeadersLinkDownAndUpAgainNeverLetsAWorkerIdBeHeldTwice() {
		try (Run run = new Run("e", 1)) {
			Host leader = this.ensemble.awaitLeader(Duration.ofSeconds(30));
			run.cut(() -> this.lab.linkDown(leader), "leader " + leader.name + "'s link down");
			run.hold(Duration.ofSeconds(6));
			run.heal();
			run.finish(List.of());
		}
	}

	/**
	 * One drill: clients A and B issuing from the start, C launched at the cut when the drill asks for it.
	 */
	private final class Run implements AutoCloseable {

		final String name;

		final int workerBits;

		final Drill drill;

		final DrillChild a;

		final DrillChild b;

		DrillChild c;

		String fault = "";

		long cutAt;

		long healAt;

		Run(String name, int workerBits) {
			this.name = name;
			this.workerBits = workerBits;
			StoreSpec spec = PartitionDrills.this.ensemble
				.spec("xn_" + name + "_" + UUID.randomUUID().toString().replace("-", "").substring(0, 8));
			this.drill = new Drill(spec, DrillMode.SNOWFLAKE, new Drill.Settings(1, COUNT, RATE, "unused", 1,
					workerBits, TTL, HEARTBEAT, MARGIN, Duration.ofSeconds(40)));
			try {
				this.a = launch("A", PartitionDrills.this.hostA);
				this.b = launch("B", PartitionDrills.this.hostB);
				this.a.awaitEvent("ready", Duration.ofSeconds(60));
				this.b.awaitEvent("ready", Duration.ofSeconds(60));
				this.drill.go();
				await("A and B issuing", Duration.ofSeconds(30),
						() -> this.a.idBytes() > 0 && this.b.idBytes() > 0);
				sleep(1000);
			}
			catch (RuntimeException ex) {
				close();
				throw ex;
			}
		}

		private DrillChild launch(String label, Host host, String... extraArgs) {
			List<String> args = new ArrayList<>(List.of("--timeouts=short"));
			args.addAll(List.of(extraArgs));
			return this.drill.launchOn(host.exec(), label, label, (label.equals("C")) ? NEWCOMER_COUNT : COUNT, RATE,
					args.toArray(String[]::new));
		}

		void cut(Runnable fault, String description) {
			this.fault = description;
			fault.run();
			this.cutAt = System.currentTimeMillis();
			logger.info("{} partition drill {}: {}", storeName(), this.name, description);
		}

		/**
		 * Launches C on the majority's side; it retries its start while both worker IDs are held, gets the one a
		 * cut-off client held once the store let it go, issues its IDs and gives the worker ID back.
		 */
		void newcomerTakesAFreedWorkerId() {
			// finish = the go file, which exists: C gives its worker ID back as soon as it has issued its IDs.
			this.c = launch("C", PartitionDrills.this.hostC, "--finish=" + this.drill.goFile());
			this.c.awaitEvent("closed", Duration.ofSeconds(60));
		}

		void hold(Duration duration) {
			sleep(Math.max(0, this.cutAt + duration.toMillis() - System.currentTimeMillis()));
		}

		void heal() {
			PartitionDrills.this.lab.heal();
			this.healAt = System.currentTimeMillis();
		}

		/**
		 * Waits until every client issues again, ends the drill and checks it.
		 * @param cutOff the clients that must have stopped during the fault
		 */
		void finish(List<DrillChild> cutOff) {
			for (DrillChild child : List.of(this.a, this.b)) {
				long bytes = child.idBytes();
				await(child.label() + " issuing after the heal", RECOVERY,
						() -> child.idBytes() > bytes + 2L * IdDrillProcess.BURST * Long.BYTES);
			}
			this.drill.stopIssuing();
			this.drill.finish();
			for (DrillChild child : this.drill.children()) {
				assertThat(child.awaitExit(Duration.ofSeconds(60))).as("exit status of %s", child).isZero();
			}
			IdSet ids = this.drill.ids();
			long duplicates = ids.duplicateCount();
			LeaseHistory history = this.drill.leases();
			Map<String, String> figures = new LinkedHashMap<>();
			for (DrillChild child : this.drill.children()) {
				figures.put(child.label(), describe(child, history));
			}
			String report = String.format(Locale.ROOT,
					"%s partition drill %s (%s): %d IDs, %d duplicates, %d worker-ID overlaps; fault %d ms; %s",
					storeName(), this.name, this.fault, ids.size(), duplicates, history.overlappingHolds().size(),
					this.healAt - this.cutAt, figures);
			logger.info(report);
			System.out.println(report);
			assertThat(duplicates).as("duplicate IDs, first ones: %s", ids.describeDuplicates(10)).isZero();
			assertThat(history.overlappingHolds()).as("worker IDs held by two clients at once").isEmpty();
			assertThat(history.grantsWhileLive()).as("worker IDs granted while another lease on them was live")
				.isEmpty();
			for (DrillChild child : cutOff) {
				assertThat(streaks(child)).as("refusals of %s, cut off from the majority", child)
					.anySatisfy((streak) -> assertThat(streak[0]).isGreaterThanOrEqualTo(this.cutAt));
			}
		}

		/**
		 * Says how many IDs a client issued and refused, when it stopped and issued again relative to the cut and
		 * the heal, and which worker IDs it held.
		 */
		private String describe(DrillChild child, LeaseHistory history) {
			StringBuilder text = new StringBuilder();
			DrillEvent done = child.events().stream().filter((event) -> event.kind().equals("done")).findFirst()
				.orElse(null);
			if (done != null) {
				text.append(done.field("issued")).append(" IDs, ").append(done.field("refused")).append(" refused");
			}
			List<String> stops = new ArrayList<>();
			for (long[] streak : streaks(child)) {
				if (streak[0] >= this.cutAt - 1000) {
					stops.add("stopped at cut" + signed(streak[0] - this.cutAt) + " ms, issuing again at "
							+ ((streak[1] < 0) ? "never" : (streak[1] >= this.healAt) ? "heal+" + (streak[1] - this.healAt)
									+ " ms" : "cut" + signed(streak[1] - this.cutAt) + " ms"));
				}
			}
			text.append(stops.isEmpty() ? ", never stopped" : ", " + String.join("; ", stops));
			List<String> leases = new ArrayList<>();
			for (LeaseHistory.Lease lease : history.leasesOf(child.label())) {
				leases.add("worker " + lease.workerId + " from cut" + signed(lease.grantedAt - this.cutAt) + " ms ("
						+ lease.end + ")");
			}
			return text.append(", leases ").append(leases).toString();
		}

		private static String signed(long millis) {
			return (millis >= 0) ? "+" + millis : Long.toString(millis);
		}

		/**
		 * Returns a client's refusal streaks: when each began and when it issued again (-1 if it did not).
		 */
		private List<long[]> streaks(DrillChild child) {
			List<long[]> streaks = new ArrayList<>();
			long[] open = null;
			for (DrillEvent event : child.events()) {
				if (event.kind().equals("refused")) {
					open = new long[] { event.at(), -1 };
					streaks.add(open);
				}
				else if (event.kind().equals("issuing-again") && open != null) {
					open[1] = event.at();
					open = null;
				}
			}
			return streaks;
		}

		@Override
		public void close() {
			try {
				PartitionDrills.this.lab.heal();
			}
			finally {
				this.drill.close();
			}
		}

	}

	private static void await(String what, Duration timeout, BooleanSupplier condition) {
		long deadline = System.nanoTime() + timeout.toNanos();
		while (!condition.getAsBoolean()) {
			if (System.nanoTime() - deadline > 0) {
				fail("no %s within %s", what, timeout);
			}
			sleep(50);
		}
	}

	private static void sleep(long millis) {
		try {
			Thread.sleep(millis);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("interrupted", ex);
		}
	}

}
