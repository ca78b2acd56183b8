package io.idstarter.actuate.health;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

import io.idstarter.IdGenerationException;
import io.idstarter.IdWorkerListener;
import io.idstarter.StoreRegressionException;
import io.idstarter.autoconfigure.health.IdWorkerHealthContributorAutoConfiguration;
import io.idstarter.lease.ISequenceManager;
import io.idstarter.lease.InMemoryLeaseStore;
import io.idstarter.lease.LeaseRequest;
import io.idstarter.lease.LeaseSettings;
import io.idstarter.lease.LeaseStatus;
import io.idstarter.lease.NoFreeWorkerIdException;
import io.idstarter.lease.WorkerIdConflictException;
import io.idstarter.lease.WorkerLease;
import io.idstarter.lease.WorkerLeaseKeeper;
import io.idstarter.segment.InMemorySegmentStore;
import io.idstarter.segment.SegmentIdGenerator;
import io.idstarter.segment.SegmentMarks;
import io.idstarter.segment.SegmentOptions;
import io.idstarter.segment.UnknownKeyException;
import io.idstarter.snowflake.ClockBackwardsPolicy;
import io.idstarter.snowflake.SnowflakeIdGenerator;
import io.idstarter.snowflake.SnowflakeLayout;
import io.idstarter.snowflake.WorkerGrant;
import io.idstarter.testing.TestGenerators;
import io.idstarter.time.ManualTimeSource;
import io.idstarter.time.TimeSource;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link IdWorkerHealthIndicator}, on real generators whose stores fail.
 */
class IdWorkerHealthIndicatorTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(IdWorkerHealthContributorAutoConfiguration.class));

	@Test
	void leaseLostInAStoreOutageIsDownUntilALeaseIsHeldAgain() {
		this.contextRunner.withUserConfiguration(TestGenerators.LeasedSnowflake.class).run((context) -> {
			IdWorkerHealthIndicator indicator = context.getBean(IdWorkerHealthIndicator.class);
			InMemoryLeaseStore store = context.getBean(InMemoryLeaseStore.class);
			Health health = indicator.health();
			assertThat(health.getStatus()).isEqualTo(Status.UP);
			assertThat(snowflake(health)).containsEntry("lease", LeaseStatus.State.ACTIVE)
				.containsEntry("namespace", TestGenerators.NAMESPACE)
				.containsKeys("workerId", "leaseExpiry", "issuingUntil", "lastRenewal");
			store.setAvailable(false);
			await().atMost(Duration.ofSeconds(5)).until(() -> indicator.health().getStatus().equals(Status.DOWN));
			assertThat(snowflake(indicator.health())).containsEntry("lease", LeaseStatus.State.LOST)
				.containsKey("failedRenewals");
			assertThatExceptionOfType(IdGenerationException.class)
				.isThrownBy(() -> context.getBean(SnowflakeIdGenerator.class).nextId());
			store.setAvailable(true);
			await().atMost(Duration.ofSeconds(5)).until(() -> indicator.health().getStatus().equals(Status.UP));
			assertThat(snowflake(indicator.health())).containsEntry("lease", LeaseStatus.State.ACTIVE)
				.doesNotContainKey("failedRenewals");
		});
	}

	@Test
	void leaseTakenByAnotherNodeIsDownWhileNoWorkerIdIsFree() {
		this.contextRunner.withUserConfiguration(TestGenerators.LeasedSnowflake.class).run((context) -> {
			IdWorkerHealthIndicator indicator = context.getBean(IdWorkerHealthIndicator.class);
			InMemoryLeaseStore store = context.getBean(InMemoryLeaseStore.class);
			int workerId = context.getBean(WorkerLeaseKeeper.class).status().workerId();
			WorkerLease other = store.borrow(request(1 - workerId));
			WorkerLease[] thief = new WorkerLease[1];
			// The keeper renews a lease the store let expire as long as nobody took it: retry until the thief wins.
			await().atMost(Duration.ofSeconds(5)).until(() -> {
				store.expire(TestGenerators.NAMESPACE, workerId);
				try {
					thief[0] = store.borrow(request(workerId));
					return thief[0].workerId() == workerId;
				}
				catch (NoFreeWorkerIdException ex) {
					return false;
				}
			});
			await().atMost(Duration.ofSeconds(5)).until(() -> indicator.health().getStatus().equals(Status.DOWN));
			assertThat(snowflake(indicator.health())).containsEntry("lease", LeaseStatus.State.LOST);
			store.release(thief[0], -1);
			await().atMost(Duration.ofSeconds(5)).until(() -> indicator.health().getStatus().equals(Status.UP));
			assertThat(snowflake(indicator.health())).containsEntry("workerId", workerId);
			store.release(other, -1);
		});
	}

	private static LeaseRequest request(int preferredWorkerId) {
		return new LeaseRequest(TestGenerators.NAMESPACE, TestGenerators.LEASED_WORKER_IDS - 1,
				Duration.ofSeconds(60), preferredWorkerId, "other-node", System.currentTimeMillis());
	}

	@Test
	void aLeaseStoreThatLostAMarkThisNodeKnowsIsDown(@org.junit.jupiter.api.io.TempDir java.nio.file.Path directory) {
		java.nio.file.Path cacheFile = directory.resolve("worker-id");
		LeaseSettings settings = LeaseSettings.builder().namespace("health-regressed").cacheFile(cacheFile).build();
		SnowflakeLayout layout = SnowflakeLayout.of(SnowflakeLayout.DEFAULT_EPOCH, 41, 1, 21);
		SnowflakeIdGenerator before = new SnowflakeIdGenerator(layout, TimeSource.system(),
				ClockBackwardsPolicy.defaults(), IdWorkerListener.NONE);
		WorkerLeaseKeeper crashed = new WorkerLeaseKeeper(new InMemoryLeaseStore(), before, settings,
				TimeSource.system(), IdWorkerListener.NONE);
		crashed.start();
		// the node dies without closing; the lease store comes back empty
		SnowflakeIdGenerator generator = new SnowflakeIdGenerator(layout, TimeSource.system(),
				ClockBackwardsPolicy.defaults(), IdWorkerListener.NONE);
		WorkerLeaseKeeper restarted = new WorkerLeaseKeeper(new InMemoryLeaseStore(), generator, settings,
				TimeSource.system(), IdWorkerListener.NONE);
		assertThatExceptionOfType(io.idstarter.StoreRegressionException.class).isThrownBy(restarted::start);
		Health health = new IdWorkerHealthIndicator(generator, restarted, null).health();
		assertThat(health.getStatus()).isEqualTo(Status.DOWN);
		assertThat(snowflake(health)).containsEntry("lease", LeaseStatus.State.STORE_REGRESSED);
	}

	@Test
	void aWorkerIdClaimedByAnotherProgramIsDownWithTheAlarmAlsoOnceAnotherIsHeld() {
		InMemoryLeaseStore store = new InMemoryLeaseStore();
		AtomicBoolean claimed = new AtomicBoolean();
		ISequenceManager claimedOnce = new ISequenceManager() {

			@Override
			public WorkerLease borrow(LeaseRequest request) {
				return store.borrow(request);
			}

			@Override
			public WorkerLease renew(WorkerLease lease, long timestampCeiling) {
				if (claimed.getAndSet(false)) {
					// the claimed slot stays taken, as a store keeps a slot another program claims
					throw new WorkerIdConflictException("Leaf node 10.0.0.7:8080 recorded worker id "
							+ lease.workerId() + " for itself");
				}
				return store.renew(lease, timestampCeiling);
			}

			@Override
			public void release(WorkerLease lease, long lastIssuedTimestamp) {
				store.release(lease, lastIssuedTimestamp);
			}

		};
		SnowflakeIdGenerator generator = new SnowflakeIdGenerator(SnowflakeLayout.defaults(), TimeSource.system(),
				ClockBackwardsPolicy.defaults(), IdWorkerListener.NONE);
		LeaseSettings settings = LeaseSettings.builder()
			.namespace("health-conflict")
			.heartbeat(Duration.ofMillis(100))
			.build();
		try (WorkerLeaseKeeper keeper = new WorkerLeaseKeeper(claimedOnce, generator, settings, TimeSource.system(),
				IdWorkerListener.NONE)) {
			keeper.start();
			IdWorkerHealthIndicator indicator = new IdWorkerHealthIndicator(generator, keeper, null);
			assertThat(indicator.health().getStatus()).isEqualTo(Status.UP);
			claimed.set(true);
			await().atMost(Duration.ofSeconds(5)).until(() -> keeper.alarm() != null);
			await().atMost(Duration.ofSeconds(5)).until(() -> keeper.status().state() == LeaseStatus.State.ACTIVE);
			Health health = indicator.health();
			assertThat(health.getStatus()).isEqualTo(Status.DOWN);
			assertThat(snowflake(health)).containsEntry("lease", LeaseStatus.State.ACTIVE)
				.containsEntry("workerId", 1)
				.hasEntrySatisfying("alarm", (alarm) -> assertThat(alarm.toString()).contains("Leaf node 10.0.0.7:8080"));
		}
	}

	@Test
	void clockTooFarFromTheStoresIsDownUntilItIsBackWithinBounds() {
		this.contextRunner.withUserConfiguration(TestGenerators.LeasedSnowflake.class).run((context) -> {
			IdWorkerHealthIndicator indicator = context.getBean(IdWorkerHealthIndicator.class);
			TestGenerators.StoreClock storeClock = context.getBean(TestGenerators.StoreClock.class);
			storeClock.setOffset(Duration.ofSeconds(10));
			await().atMost(Duration.ofSeconds(5)).until(() -> indicator.health().getStatus().equals(Status.DOWN));
			assertThat(snowflake(indicator.health())).containsEntry("lease", LeaseStatus.State.CLOCK_SKEWED);
			storeClock.setOffset(Duration.ZERO);
			await().atMost(Duration.ofSeconds(5)).until(() -> indicator.health().getStatus().equals(Status.UP));
		});
	}

	@Test
	void closedKeeperIsOutOfService() {
		this.contextRunner.withUserConfiguration(TestGenerators.LeasedSnowflake.class).run((context) -> {
			context.getBean(WorkerLeaseKeeper.class).close();
			Health health = context.getBean(IdWorkerHealthIndicator.class).health();
			assertThat(health.getStatus()).isEqualTo(Status.OUT_OF_SERVICE);
			assertThat(snowflake(health)).containsEntry("lease", LeaseStatus.State.CLOSED);
		});
	}

	@Test
	void keeperNotStartedYetIsUnknown() {
		SnowflakeIdGenerator generator = new SnowflakeIdGenerator(SnowflakeLayout.defaults(), TimeSource.system(),
				ClockBackwardsPolicy.defaults(), IdWorkerListener.NONE);
		WorkerLeaseKeeper keeper = new WorkerLeaseKeeper(new InMemoryLeaseStore(), generator,
				LeaseSettings.defaults(), TimeSource.system(), IdWorkerListener.NONE);
		Health health = new IdWorkerHealthIndicator(generator, keeper, null).health();
		assertThat(health.getStatus()).isEqualTo(Status.UNKNOWN);
		assertThat(snowflake(health)).containsEntry("lease", LeaseStatus.State.NOT_STARTED)
			.containsEntry("workerId", -1);
	}

	@Test
	void aLayoutThatRunsOutWithinTheHorizonWarnsAndIsDownInItsLastDayAndNoIdIsIssuedPastIt() {
		Instant start = Instant.parse("2026-11-26T00:00:00Z");
		// 35 timestamp bits (about 397 days) from an epoch that leaves 100 days
		Instant epoch = start.minusMillis(1L << 35).plus(Duration.ofDays(100));
		SnowflakeLayout shortLived = SnowflakeLayout.of(epoch, 35, 10, 18);
		ManualTimeSource clock = new ManualTimeSource(start);
		SnowflakeIdGenerator generator = new SnowflakeIdGenerator(shortLived, clock, ClockBackwardsPolicy.defaults(),
				IdWorkerListener.NONE);
		generator.grant(WorkerGrant.fixed(1));
		assertThat(generator.layoutRemaining()).isEqualTo(Duration.ofDays(100));
		IdWorkerHealthIndicator yearAhead = new IdWorkerHealthIndicator(generator, null, null);
		Health warned = yearAhead.health();
		assertThat(warned.getStatus()).isEqualTo(Status.UP);
		assertThat(snowflake(warned)).containsEntry("layoutRunsOutAt", shortLived.exhaustedAt())
			.hasEntrySatisfying("layoutWarning", (warning) -> assertThat((String) warning).contains("in 100 days"));
		Health quiet = new IdWorkerHealthIndicator(generator, null, null, Duration.ofDays(30)).health();
		assertThat(quiet.getStatus()).isEqualTo(Status.UP);
		assertThat(snowflake(quiet)).doesNotContainKey("layoutWarning");
		clock.advance(Duration.ofDays(99).plusHours(1));
		assertThat(yearAhead.health().getStatus()).isEqualTo(Status.DOWN);
		long last = generator.nextId();
		assertThat(last).isPositive();
		clock.setWallClock(shortLived.exhaustedAt().plusMillis(1));
		assertThatExceptionOfType(IdGenerationException.class).isThrownBy(generator::nextId)
			.withMessageContaining("has run out");
		assertThat(generator.layoutRemaining().toMillis()).isNotPositive();
	}

	@Test
	void snowflakeWithoutKeeperIsUpWhileItHoldsAWorkerId() {
		this.contextRunner.withUserConfiguration(TestGenerators.Snowflake.class).run((context) -> {
			IdWorkerHealthIndicator indicator = context.getBean(IdWorkerHealthIndicator.class);
			assertThat(indicator.health().getStatus()).isEqualTo(Status.UP);
			assertThat(snowflake(indicator.health())).containsEntry("workerId", TestGenerators.WORKER_ID);
			context.getBean(SnowflakeIdGenerator.class).revoke("test");
			assertThat(indicator.health().getStatus()).isEqualTo(Status.DOWN);
			assertThat(snowflake(indicator.health())).containsEntry("error", "no worker ID granted");
		});
	}

	@Test
	void keyWithBothSegmentsSpentInAStoreOutageIsDownUntilTheStoreIsBack() {
		this.contextRunner.withUserConfiguration(TestGenerators.Segments.class).run((context) -> {
			IdWorkerHealthIndicator indicator = context.getBean(IdWorkerHealthIndicator.class);
			InMemorySegmentStore store = context.getBean(InMemorySegmentStore.class);
			SegmentIdGenerator segments = context.getBean(SegmentIdGenerator.class);
			segments.nextId(TestGenerators.INVOICE);
			segments.nextId(TestGenerators.ORDER);
			await().atMost(Duration.ofSeconds(5))
				.until(() -> segments.view(TestGenerators.INVOICE).orElseThrow().next() != null);
			assertThat(indicator.health().getStatus()).isEqualTo(Status.UP);
			assertThat(segment(indicator.health())).containsEntry("keys", 2).doesNotContainKeys("exhausted");
			store.setAvailable(false);
			int issued = 0;
			while (segments.view(TestGenerators.INVOICE).orElseThrow().lastError() == null) {
				assertThat(issued++).as("IDs issued before the failing prefetch was seen").isLessThan(1000);
				segments.nextId(TestGenerators.INVOICE);
				Thread.sleep(5);
			}
			Health failing = indicator.health();
			assertThat(failing.getStatus()).isEqualTo(Status.UP);
			assertThat(segment(failing)).extractingByKey("fetchFailing")
				.asInstanceOf(InstanceOfAssertFactories.MAP)
				.containsOnlyKeys(TestGenerators.INVOICE);
			assertThatExceptionOfType(IdGenerationException.class).isThrownBy(() -> {
				for (int i = 0; i < 10_000; i++) {
					segments.nextId(TestGenerators.INVOICE);
				}
			});
			Health down = indicator.health();
			assertThat(down.getStatus()).isEqualTo(Status.DOWN);
			assertThat(segment(down)).extractingByKey("exhausted")
				.asInstanceOf(InstanceOfAssertFactories.MAP)
				.containsOnlyKeys(TestGenerators.INVOICE)
				.extractingByKey(TestGenerators.INVOICE)
				.asInstanceOf(InstanceOfAssertFactories.MAP)
				.containsEntry("error", "store-unavailable")
				.containsKey("since");
			assertThat(down.getDetails().toString()).as("no store error text in health").doesNotContain("Exception");
			store.setAvailable(true);
			await().atMost(Duration.ofSeconds(10)).until(() -> indicator.health().getStatus().equals(Status.UP));
			assertThat(segments.nextId(TestGenerators.INVOICE)).isPositive();
		});
	}

	@Test
	void keyWhoseStoreWentBelowThisNodesHighMarkIsDownAndRefused() {
		this.contextRunner.withUserConfiguration(TestGenerators.Segments.class).run((context) -> {
			IdWorkerHealthIndicator indicator = context.getBean(IdWorkerHealthIndicator.class);
			InMemorySegmentStore store = context.getBean(InMemorySegmentStore.class);
			SegmentIdGenerator segments = context.getBean(SegmentIdGenerator.class);
			segments.nextId(TestGenerators.INVOICE);
			await().atMost(Duration.ofSeconds(5))
				.until(() -> segments.view(TestGenerators.INVOICE).orElseThrow().next() != null);
			store.resetMaxId(TestGenerators.INVOICE, 1000);
			assertThatExceptionOfType(StoreRegressionException.class).isThrownBy(() -> {
				for (int i = 0; i < 100; i++) {
					segments.nextId(TestGenerators.INVOICE);
				}
			});
			Health down = indicator.health();
			assertThat(down.getStatus()).isEqualTo(Status.DOWN);
			assertThat(segment(down)).extractingByKey("refused")
				.asInstanceOf(InstanceOfAssertFactories.MAP)
				.containsOnlyKeys(TestGenerators.INVOICE);
		});
	}

	@Test
	void keyThisNodeUsedThatTheStoreLostIsDownWhileMissing() {
		this.contextRunner.withUserConfiguration(TestGenerators.Segments.class).run((context) -> {
			IdWorkerHealthIndicator indicator = context.getBean(IdWorkerHealthIndicator.class);
			InMemorySegmentStore store = context.getBean(InMemorySegmentStore.class);
			SegmentIdGenerator segments = context.getBean(SegmentIdGenerator.class);
			segments.nextId(TestGenerators.INVOICE);
			await().atMost(Duration.ofSeconds(5))
				.until(() -> segments.view(TestGenerators.INVOICE).orElseThrow().next() != null);
			store.removeKey(TestGenerators.INVOICE);
			assertThatExceptionOfType(UnknownKeyException.class).isThrownBy(() -> {
				for (int i = 0; i < 100; i++) {
					segments.nextId(TestGenerators.INVOICE);
				}
			});
			Health down = indicator.health();
			assertThat(down.getStatus()).isEqualTo(Status.DOWN);
			assertThat(segment(down)).extractingByKey("missing")
				.asInstanceOf(InstanceOfAssertFactories.MAP)
				.containsEntry(TestGenerators.INVOICE, segments.marks().highMark(TestGenerators.INVOICE));
			store.createKey(TestGenerators.INVOICE, 5000, 10, "re-created above every mark");
			await().atMost(Duration.ofSeconds(5)).ignoreExceptions()
				.until(() -> segments.nextId(TestGenerators.INVOICE) >= 5000);
			assertThat(indicator.health().getStatus()).isEqualTo(Status.UP);
		});
	}

	@Test
	void marksFileThatCannotBeWrittenIsDownNamingTheFile(@TempDir Path directory) throws Exception {
		Path state = directory.resolve("state");
		Path file = state.resolve("segment-marks");
		InMemorySegmentStore store = new InMemorySegmentStore();
		store.createKey(TestGenerators.INVOICE, 1000, 10, "invoices");
		SegmentIdGenerator generator = new SegmentIdGenerator(store,
				SegmentOptions.builder().maxWait(Duration.ofMillis(200)).build(), TimeSource.system(),
				IdWorkerListener.NONE, null, SegmentMarks.file(file));
		this.contextRunner.withBean(SegmentIdGenerator.class, () -> generator).run((context) -> {
			IdWorkerHealthIndicator indicator = context.getBean(IdWorkerHealthIndicator.class);
			generator.start();
			// The directory turns into a file: no user, not even root, can write the marks file any more.
			Files.writeString(state, "not a directory");
			assertThatExceptionOfType(IdGenerationException.class).isThrownBy(() -> {
				for (int i = 0; i < 100; i++) {
					generator.nextId(TestGenerators.INVOICE);
				}
			});
			Health down = indicator.health();
			assertThat(down.getStatus()).isEqualTo(Status.DOWN);
			assertThat(segment(down)).extractingByKey("marksFile")
				.asInstanceOf(InstanceOfAssertFactories.MAP)
				.containsEntry("file", file.toString())
				.hasEntrySatisfying("error",
						(error) -> assertThat(error).asString().contains("the segment store is not at fault"));
			Files.delete(state);
			await().atMost(Duration.ofSeconds(5)).ignoreExceptions()
				.until(() -> generator.nextId(TestGenerators.INVOICE) >= 1000);
			assertThat(indicator.health().getStatus()).isEqualTo(Status.UP);
			// A prefetch the last call started writes the file: let it finish before the directory is deleted.
			await().atMost(Duration.ofSeconds(5))
				.until(() -> !generator.view(TestGenerators.INVOICE).orElseThrow().fetchInFlight());
		});
	}

	@SuppressWarnings("unchecked")
	private static Map<String, Object> snowflake(Health health) {
		return (Map<String, Object>) health.getDetails().get("snowflake");
	}

	@SuppressWarnings("unchecked")
	private static Map<String, Object> segment(Health health) {
		return (Map<String, Object>) health.getDetails().get("segment");
	}

}
