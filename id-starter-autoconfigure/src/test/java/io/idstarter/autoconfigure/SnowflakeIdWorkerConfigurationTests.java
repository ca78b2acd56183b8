package io.idstarter.autoconfigure;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.idstarter.IdWorker;
import io.idstarter.IdWorkerListener;
import io.idstarter.autoconfigure.MissingIdWorkerStoreException.Problem;
import io.idstarter.codec.IdPermutation;
import io.idstarter.codec.ObfuscatedIdWorker;
import io.idstarter.lease.ISequenceManager;
import io.idstarter.lease.InMemoryLeaseStore;
import io.idstarter.lease.LayoutConflictException;
import io.idstarter.lease.LeaseFileOfAnotherStoreException;
import io.idstarter.lease.LeaseRequest;
import io.idstarter.lease.LeaseSettings;
import io.idstarter.lease.LeaseStatus;
import io.idstarter.lease.SlotMark;
import io.idstarter.lease.WorkerLease;
import io.idstarter.lease.WorkerLeaseKeeper;
import io.idstarter.snowflake.ClockBackwardsPolicy;
import io.idstarter.snowflake.RecordedLayout;
import io.idstarter.snowflake.SnowflakeIdGenerator;
import io.idstarter.snowflake.SnowflakeLayout;
import io.idstarter.snowflake.SnowflakePresets;
import io.idstarter.snowflake.WorkerIdUnavailableException;
import io.idstarter.store.jdbc.JdbcLeaseStore;
import io.idstarter.time.ManualTimeSource;
import io.idstarter.time.TimeSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.io.support.SpringFactoriesLoader;
import org.springframework.core.io.support.SpringFactoriesLoader.FailureHandler;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.mock.env.MockEnvironment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

class SnowflakeIdWorkerConfigurationTests {

	private final InMemoryLeaseStore sequenceManager = new InMemoryLeaseStore();

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withUserConfiguration(DbMode.class)
		.withBean(ISequenceManager.class, () -> this.sequenceManager);

	@Test
	void aTestSliceLeavesTheWorkerIdCacheFileAloneUnlessToldTo() {
		IdWorkerProperties properties = new IdWorkerProperties();
		properties.getLease().setCacheFile(Path.of("state/worker-id"));
		MockEnvironment application = new MockEnvironment();
		MockEnvironment slice = new MockEnvironment().withProperty("spring.boot.enableautoconfiguration", "false");
		assertThat(SnowflakeIdWorkerConfiguration.leaseSettings(properties, application).cacheFile())
			.isEqualTo(Path.of("state/worker-id"));
		assertThat(SnowflakeIdWorkerConfiguration.leaseSettings(properties, slice).cacheFile()).isNull();
		properties.getTesting().setNodeFilesInSlices(true);
		assertThat(SnowflakeIdWorkerConfiguration.leaseSettings(properties, slice).cacheFile())
			.isEqualTo(Path.of("state/worker-id"));
	}

	@Test
	void withoutACacheFileEveryRestartTakesTheNextNeverUsedWorkerIdAndWithOneItsOwn(@TempDir Path directory) {
		List<Integer> withoutFile = new ArrayList<>();
		for (int restart = 0; restart < 3; restart++) {
			this.contextRunner.run((context) -> withoutFile.add(workerId(context)));
		}
		assertThat(withoutFile).containsExactly(0, 1, 2);
		List<Integer> withFile = new ArrayList<>();
		for (int restart = 0; restart < 3; restart++) {
			this.contextRunner.withPropertyValues("id-worker.lease.cache-file=" + directory.resolve("worker-id"))
				.run((context) -> withFile.add(workerId(context)));
		}
		assertThat(withFile).as("the first start takes the next never-used one, then keeps it")
			.containsExactly(3, 3, 3);
	}

	@Test
	void aCacheFileOfAnotherStoreFailsTheStartWithAnAnalysisNamingBothStoresTheFileAndTheSettingToChange(
			@TempDir Path directory) throws Exception {
		Path cacheFile = directory.resolve("worker-id");
		ApplicationContextRunner sameDirectory = new ApplicationContextRunner().withUserConfiguration(DbMode.class)
			.withPropertyValues("id-worker.lease.cache-file=" + cacheFile, "id-worker.lease.namespace=orders");
		sameDirectory.withBean(ISequenceManager.class, () -> new Named(this.sequenceManager, "store of production"))
			.run((context) -> assertThat(context.getBean(IdWorker.class).nextId()).isPositive());
		InMemoryLeaseStore stagingSlots = new InMemoryLeaseStore();
		sameDirectory.withBean(ISequenceManager.class, () -> new Named(stagingSlots, "store of staging"))
			.run((context) -> {
				assertThat(context).hasFailed();
				Throwable failure = context.getStartupFailure();
				assertThat(failure).hasRootCauseInstanceOf(LeaseFileOfAnotherStoreException.class);
				FailureAnalysis analysis = new LeaseFileOfAnotherStoreFailureAnalyzer().analyze(failure);
				assertThat(analysis).isNotNull();
				assertThat(analysis.getDescription()).contains("store of production")
					.contains("store of staging")
					.contains("namespace 'orders'")
					.containsAnyOf(cacheFile.toString(), cacheFile.resolveSibling("id-worker-slot-marks").toString());
				assertThat(analysis.getAction()).contains("id-worker.lease.cache-file").contains("delete");
			});
		assertThat(stagingSlots.holder("orders", 0)).as("nothing borrowed from the other store").isEmpty();
		assertThat(SpringFactoriesLoader.forDefaultResourceLocation()
			.load(FailureAnalyzer.class, FailureHandler.handleMessage((message, ex) -> { })))
			.as("registered").hasAtLeastOneElementOfType(LeaseFileOfAnotherStoreFailureAnalyzer.class);
	}

	/** A lease store with an identity. */
	record Named(ISequenceManager delegate, String identity) implements ISequenceManager {

		@Override
		public WorkerLease borrow(LeaseRequest request) {
			return this.delegate.borrow(request);
		}

		@Override
		public WorkerLease renew(WorkerLease lease, long timestampCeiling) {
			return this.delegate.renew(lease, timestampCeiling);
		}

		@Override
		public void release(WorkerLease lease, long lastIssuedTimestamp) {
			this.delegate.release(lease, lastIssuedTimestamp);
		}

	}

	@Test
	void theTwitterPresetIsMyBatisPlusAndHutoolsLayout() {
		this.contextRunner.withPropertyValues("id-worker.snowflake.preset=twitter").run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(context.getBean(SnowflakeLayout.class)).isEqualTo(SnowflakePresets.twitter());
			assertThat(context.getBean(SnowflakeLayout.class).epoch().toEpochMilli()).isEqualTo(1288834974657L);
		});
	}

	@Test
	void theShardingSpherePresetTakesItsEpochInTheZoneSetAndRefusesToGuessIt() {
		this.contextRunner
			.withPropertyValues("id-worker.snowflake.preset=shardingsphere", "id-worker.snowflake.preset-zone=+08:00")
			.run((context) -> assertThat(context.getBean(SnowflakeLayout.class).epoch())
				.isEqualTo(Instant.parse("2016-10-31T16:00:00Z")));
		this.contextRunner.withPropertyValues("id-worker.snowflake.preset=shardingsphere")
			.run((context) -> assertThat(context.getStartupFailure()).rootCause()
				.hasMessageContaining("id-worker.snowflake.preset-zone")
				.hasMessageContaining("2016-11-01 00:00 in the old fleet's JVM time zone"));
		this.contextRunner
			.withPropertyValues("id-worker.snowflake.preset=shardingsphere",
					"id-worker.snowflake.preset-zone=Europe/Berlin")
			.run((context) -> assertThat(context.getStartupFailure()).rootCause()
				.hasMessageContaining("id-worker.snowflake.preset-zone")
				.hasMessageContaining("set the fixed offset the old fleet ran with"));
		this.contextRunner
			.withPropertyValues("id-worker.snowflake.preset=twitter", "id-worker.snowflake.preset-zone=+08:00")
			.run((context) -> assertThat(context.getStartupFailure()).rootCause()
				.hasMessageContaining("id-worker.snowflake.preset-zone")
				.hasMessageContaining("applies only to id-worker.snowflake.preset=shardingsphere"));
		this.contextRunner
			.withPropertyValues("id-worker.snowflake.preset=twitter",
					"id-worker.snowflake.takeover.preset=shardingsphere", "id-worker.snowflake.preset-zone=+08:00",
					// the shardingsphere layout is recorded for the default namespace by the first run above
					"id-worker.lease.namespace=twitter-fleet")
			.run((context) -> assertThat(context).hasNotFailed());
	}

	@Test
	void anInstanceOfAnotherLayoutIsRefusedWithTheChangeToMakeAndThePlannedChangeThenStarts() {
		this.contextRunner.run((context) -> assertThat(context).hasNotFailed());
		String recorded = this.sequenceManager.readLayout("default");
		assertThat(RecordedLayout.parse(recorded).layout()).isEqualTo(new IdWorkerProperties().getSnowflake().layout());
		this.contextRunner.withPropertyValues("id-worker.snowflake.preset=twitter").run((context) -> {
			Throwable failure = context.getStartupFailure();
			assertThat(failure).rootCause().isInstanceOf(LayoutConflictException.class);
			FailureAnalysis analysis = new LayoutConflictFailureAnalyzer().analyze(failure);
			assertThat(analysis.getDescription()).contains("lease namespace 'default'", "(preset twitter)");
			assertThat(analysis.getAction()).contains("id-worker.snowflake.layout-change.from=" + recorded);
		});
		assertThat(this.sequenceManager.slotMarks("default")).noneMatch(SlotMark::held);
		this.contextRunner
			.withPropertyValues("id-worker.snowflake.preset=twitter", "id-worker.snowflake.layout-change.from=" + recorded)
			.run((context) -> {
				assertThat(context).hasNotFailed();
				RecordedLayout now = RecordedLayout.parse(this.sequenceManager.readLayout("default"));
				assertThat(now.preset()).isEqualTo("twitter");
				assertThat(now.floorId()).isPositive();
				assertThat(context.getBean(IdWorker.class).nextId()).isGreaterThan(now.floorId());
			});
		this.contextRunner.run((context) -> assertThat(context.getStartupFailure()).rootCause()
			.isInstanceOf(LayoutConflictException.class));
	}

	@Test
	void aLayoutChangeFromThatIsNoRecordedLayoutIsReportedWithTheProperty() {
		this.contextRunner.withPropertyValues("id-worker.snowflake.layout-change.from=twitter")
			.run((context) -> assertThat(context.getStartupFailure()).rootCause()
				.hasMessageContaining("id-worker.snowflake.layout-change.from")
				.hasMessageContaining("'epoch' is missing"));
	}

	@Test
	void excludedWorkerIdsAreNeverBorrowed() {
		this.contextRunner.withPropertyValues("id-worker.lease.excluded-worker-ids=0-3,5")
			.run((context) -> assertThat(workerId(context)).isEqualTo(4));
	}

	@Test
	void badExcludedWorkerIdsAreReportedWithTheProperty() {
		this.contextRunner.withPropertyValues("id-worker.lease.excluded-worker-ids=3-1")
			.run((context) -> assertThat(context.getStartupFailure()).rootCause()
				.hasMessageContaining("id-worker.lease.excluded-worker-ids")
				.hasMessageContaining("the range's low end is above its high end"));
		this.contextRunner
			.withPropertyValues("id-worker.snowflake.worker-id-bits=2", "id-worker.snowflake.timestamp-bits=49",
					"id-worker.lease.excluded-worker-ids=2-4")
			.run((context) -> assertThat(context.getStartupFailure()).rootCause()
				.hasMessageContaining("id-worker.lease.excluded-worker-ids")
				.hasMessageContaining("worker ID 4 is above the layout's greatest worker ID 3"));
	}

	private static int workerId(AssertableApplicationContext context) {
		assertThat(context).hasNotFailed();
		return context.getBean(WorkerLeaseKeeper.class).status().workerId();
	}

	@Test
	void aRedisModeApplicationNeedsNoSqlLibrary() {
		new ApplicationContextRunner().withUserConfiguration(RedisModeWithOwnStore.class)
			.withBean(ISequenceManager.class, () -> this.sequenceManager)
			.withClassLoader(new FilteredClassLoader("org.springframework.boot.sql", "org.springframework.boot.jdbc",
					"javax.sql"))
			.withPropertyValues("id-worker.jdbc.segment-table=unused")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context.getBean(IdWorker.class).nextId()).isPositive();
			});
	}

	@Test
	void javascriptSafeLayoutIssuesIdsBelow2To53() {
		this.contextRunner.withPropertyValues("id-worker.snowflake.javascript-safe=true").run((context) -> {
			SnowflakeLayout layout = context.getBean(SnowflakeLayout.class);
			assertThat(layout.isJavaScriptSafe()).isTrue();
			assertThat(layout.maxWorkerId()).isEqualTo(63);
			assertThat(layout.toString()).contains("64 workers, 64 IDs/ms, valid until 2089", "JavaScript-safe");
			SnowflakeIdGenerator generator = context.getBean(SnowflakeIdGenerator.class);
			for (int i = 0; i < 10_000; i++) {
				assertThat(generator.nextId()).isPositive().isLessThan(1L << 53);
			}
		});
	}

	@Test
	void generatorIsLeasedAWorkerIdBeforeItIsUsed() {
		this.contextRunner.run((context) -> {
			assertThat(context).hasSingleBean(IdWorker.class)
				.hasSingleBean(SnowflakeIdGenerator.class)
				.hasSingleBean(WorkerLeaseKeeper.class)
				.hasSingleBean(SnowflakeLayout.class)
				.hasSingleBean(ClockBackwardsPolicy.class)
				.hasSingleBean(TimeSource.class)
				.hasBean(SnowflakeIds.BEAN_NAME);
			SnowflakeIdGenerator generator = context.getBean(SnowflakeIdGenerator.class);
			assertThat(context.getBean(IdWorker.class)).isSameAs(generator);
			assertThat(context.getBean(WorkerLeaseKeeper.class).status().state()).isEqualTo(LeaseStatus.State.ACTIVE);
			assertThat(generator.workerId()).hasValue(context.getBean(WorkerLeaseKeeper.class).status().workerId());
			long first = generator.nextId();
			assertThat(generator.nextId()).isGreaterThan(first).isPositive();
			assertThat(generator.layout()).isEqualTo(SnowflakeLayout.defaults());
			assertThat(generator.policy()).isEqualTo(ClockBackwardsPolicy.defaults());
		});
	}

	@Test
	void aBeanThatUsesTheGeneratorDuringItsOwnInitialisationGetsIds() {
		this.contextRunner.withUserConfiguration(EagerUser.class)
			.run((context) -> assertThat(context.getBean(EagerUser.class).firstId).isPositive());
	}

	@Test
	void layoutAndClockPropertiesReachTheGenerator() {
		this.contextRunner
			.withPropertyValues("id-worker.snowflake.epoch=2024-01-01T00:00:00Z",
					"id-worker.snowflake.timestamp-bits=42", "id-worker.snowflake.worker-id-bits=8",
					"id-worker.snowflake.sequence-bits=13", "id-worker.snowflake.clock-backwards.policy=tolerate",
					"id-worker.snowflake.clock-backwards.max-wait=50ms")
			.run((context) -> {
				SnowflakeIdGenerator generator = context.getBean(SnowflakeIdGenerator.class);
				assertThat(generator.layout())
					.isEqualTo(SnowflakeLayout.of(Instant.parse("2024-01-01T00:00:00Z"), 42, 8, 13));
				assertThat(generator.policy()).isEqualTo(ClockBackwardsPolicy.tolerate(Duration.ofMillis(50)));
				assertThat(generator.parse(generator.nextId()).workerId())
					.isEqualTo(context.getBean(WorkerLeaseKeeper.class).status().workerId());
			});
	}

	@Test
	void leasePropertiesReachTheKeeper(@TempDir Path directory) {
		Path cacheFile = directory.resolve("worker-id");
		this.contextRunner
			.withPropertyValues("id-worker.lease.namespace=orders", "id-worker.lease.ttl=20s",
					"id-worker.lease.heartbeat=4s", "id-worker.lease.safety-margin=3s",
					"id-worker.lease.max-startup-wait=7s", "id-worker.lease.max-clock-skew=1500ms",
					"id-worker.lease.cache-file=" + cacheFile)
			.run((context) -> {
				LeaseSettings settings = context.getBean(WorkerLeaseKeeper.class).settings();
				assertThat(settings.namespace()).isEqualTo("orders");
				assertThat(settings.ttl()).isEqualTo(Duration.ofSeconds(20));
				assertThat(settings.heartbeat()).isEqualTo(Duration.ofSeconds(4));
				assertThat(settings.safetyMargin()).isEqualTo(Duration.ofSeconds(3));
				assertThat(settings.maxStartupWait()).isEqualTo(Duration.ofSeconds(7));
				assertThat(settings.cacheFile()).isEqualTo(cacheFile);
				assertThat(settings.maxClockSkew()).isEqualTo(Duration.ofMillis(1500));
				assertThat(this.sequenceManager.holder("orders", context.getBean(WorkerLeaseKeeper.class)
					.status()
					.workerId())).isPresent();
			});
	}

	@Test
	void clockSkewCheckIsOnByDefaultAndOffAtZero() {
		this.contextRunner.run((context) -> assertThat(context.getBean(WorkerLeaseKeeper.class).settings().maxClockSkew())
			.isEqualTo(LeaseSettings.DEFAULT_MAX_CLOCK_SKEW));
		this.contextRunner.withPropertyValues("id-worker.lease.max-clock-skew=0")
			.run((context) -> assertThat(context.getBean(WorkerLeaseKeeper.class).settings().maxClockSkew()).isNull());
	}

	@Test
	void namespaceDefaultsToTheApplicationName() {
		this.contextRunner.withPropertyValues("spring.application.name=billing")
			.run((context) -> assertThat(context.getBean(WorkerLeaseKeeper.class).settings().namespace())
				.isEqualTo("billing"));
		this.contextRunner.run((context) -> assertThat(context.getBean(WorkerLeaseKeeper.class).settings().namespace())
			.isEqualTo(LeaseSettings.DEFAULT_NAMESPACE));
	}

	@Test
	void applicationLayoutPolicyAndTimeSourceWin() {
		SnowflakeLayout layout = SnowflakeLayout.of(Instant.parse("2023-01-01T00:00:00Z"), 41, 12, 10);
		ClockBackwardsPolicy policy = ClockBackwardsPolicy.failAfter(Duration.ZERO);
		ManualTimeSource time = new ManualTimeSource(Instant.now());
		this.contextRunner.withBean(SnowflakeLayout.class, () -> layout)
			.withBean(ClockBackwardsPolicy.class, () -> policy)
			.withBean(TimeSource.class, () -> time)
			.run((context) -> {
				SnowflakeIdGenerator generator = context.getBean(SnowflakeIdGenerator.class);
				assertThat(generator.layout()).isSameAs(layout);
				assertThat(generator.policy()).isSameAs(policy);
				assertThat(context.getBean(TimeSource.class)).isSameAs(time);
				assertThat(layout.parse(generator.nextId()).timestamp())
					.isEqualTo(Instant.ofEpochMilli(time.currentTimeMillis()));
			});
	}

	@Test
	void applicationIdWorkerReplacesTheGenerator() {
		IdWorker own = new FixedIdWorker();
		this.contextRunner.withBean(IdWorker.class, () -> own).run((context) -> {
			assertThat(context).doesNotHaveBean(SnowflakeIdGenerator.class).doesNotHaveBean(WorkerLeaseKeeper.class);
			assertThat(context.getBean(IdWorker.class)).isSameAs(own);
		});
	}

	@Test
	void obfuscatingWrapperKeepsTheGenerator() {
		this.contextRunner.withUserConfiguration(PublicIds.class).run((context) -> {
			assertThat(context).hasSingleBean(SnowflakeIdGenerator.class);
			assertThat(context.getBean(IdWorker.class)).isInstanceOf(ObfuscatedIdWorker.class);
		});
	}

	@Test
	@ExtendWith(OutputCaptureExtension.class)
	void theStartUpLogWarnsThatTheLayoutRunsOutWithinTheConfiguredLayoutWarning(CapturedOutput output) {
		// the default layout runs out in 2089, within a century
		this.contextRunner.withPropertyValues("id-worker.snowflake.layout-warning=36500d").run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(output).containsPattern("WARN.*Snowflake layout \\(.*\\) runs out of timestamps in \\d+ days");
		});
	}

	@Test
	void listenersReceiveTheLeaseEvents() {
		RecordingListener first = new RecordingListener();
		RecordingListener second = new RecordingListener();
		this.contextRunner.withBean("first", IdWorkerListener.class, () -> first)
			.withBean("second", IdWorkerListener.class, () -> second)
			.run((context) -> {
				List<String> start = List.of("read-layout", "slot-marks", "record-layout", "borrow", "read-layout");
				assertThat(first.operations).containsExactlyElementsOf(start);
				assertThat(second.operations).containsExactlyElementsOf(start);
			});
		assertThat(first.operations).containsExactly("read-layout", "slot-marks", "record-layout", "borrow",
				"read-layout", "release");
	}

	@Test
	void workerIdIsFreeAsSoonAsTheContextCloses() {
		// One slot in the namespace: a second instance can only start once the first has given it back.
		ApplicationContextRunner oneSlot = this.contextRunner.withPropertyValues("id-worker.lease.namespace=one-slot",
				"id-worker.snowflake.worker-id-bits=1", "id-worker.snowflake.sequence-bits=21");
		// The other node runs this layout and recorded it: a holder without a record would hold up the start.
		this.sequenceManager.recordLayout("one-slot",
				new RecordedLayout(SnowflakeLayout.of(SnowflakeLayout.DEFAULT_EPOCH, 41, 1, 21), null).format());
		this.sequenceManager.borrow(new LeaseRequest("one-slot", 1, Duration.ofMinutes(5), 1, "other node",
				System.currentTimeMillis()));
		int[] workerIds = new int[2];
		oneSlot.run((context) -> workerIds[0] = context.getBean(WorkerLeaseKeeper.class).status().workerId());
		oneSlot.run((context) -> {
			assertThat(context).hasNotFailed();
			workerIds[1] = context.getBean(WorkerLeaseKeeper.class).status().workerId();
		});
		assertThat(workerIds[1]).isEqualTo(workerIds[0]).isZero();
	}

	@Test
	void generatorRefusesIdsOnceItsLeaseIsLost() {
		this.contextRunner
			.withPropertyValues("id-worker.lease.namespace=lost", "id-worker.snowflake.worker-id-bits=1",
					"id-worker.snowflake.sequence-bits=21", "id-worker.lease.ttl=1s",
					"id-worker.lease.heartbeat=200ms", "id-worker.lease.safety-margin=300ms")
			.run((context) -> {
				SnowflakeIdGenerator generator = context.getBean(SnowflakeIdGenerator.class);
				WorkerLeaseKeeper keeper = context.getBean(WorkerLeaseKeeper.class);
				int workerId = keeper.status().workerId();
				assertThat(generator.nextId()).isPositive();
				// Another node takes the slot after the lease expired, and holds the only other one.
				this.sequenceManager.expire("lost", workerId);
				this.sequenceManager.borrow(new LeaseRequest("lost", 1, Duration.ofMinutes(5), workerId, "thief",
						System.currentTimeMillis()));
				this.sequenceManager.borrow(new LeaseRequest("lost", 1, Duration.ofMinutes(5), 1 - workerId,
						"neighbour", System.currentTimeMillis()));
				await().atMost(Duration.ofSeconds(5))
					.until(() -> keeper.status().state() == LeaseStatus.State.LOST);
				assertThatExceptionOfType(WorkerIdUnavailableException.class).isThrownBy(generator::nextId);
			});
	}

	@Test
	void dbModeLeasesFromTheApplicationsDataSource() {
		new ApplicationContextRunner().withUserConfiguration(DbMode.class)
			.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class))
			.withPropertyValues("spring.datasource.generate-unique-name=true")
			.run((context) -> {
				assertThat(context).hasSingleBean(JdbcLeaseStore.class);
				assertThat(context.getBean(IdWorker.class).nextId()).isPositive();
			});
	}

	@Test
	void dbModeWithoutADataSourceFailsSayingSo() {
		new ApplicationContextRunner().withUserConfiguration(DbMode.class)
			.run((context) -> assertMissingStore(context, IdWorkerMode.DB, Problem.BEAN_MISSING));
	}

	@Test
	void redisModeWithoutSpringDataRedisFailsSayingSo() {
		new ApplicationContextRunner().withUserConfiguration(RedisMode.class)
			.withClassLoader(new FilteredClassLoader(RedisConnectionFactory.class))
			.run((context) -> assertMissingStore(context, IdWorkerMode.REDIS, Problem.LIBRARY_MISSING));
	}

	@Test
	void mongoModeWithoutMongoOperationsFailsSayingSo() {
		new ApplicationContextRunner().withUserConfiguration(MongoMode.class)
			.run((context) -> assertMissingStore(context, IdWorkerMode.MONGO, Problem.BEAN_MISSING));
	}

	@Test
	void applicationSequenceManagerIsUsedWhateverTheMode() {
		new ApplicationContextRunner().withUserConfiguration(RedisMode.class)
			.withBean(ISequenceManager.class, () -> this.sequenceManager)
			.withClassLoader(new FilteredClassLoader(RedisConnectionFactory.class))
			.run((context) -> assertThat(context.getBean(IdWorker.class).nextId()).isPositive());
	}

	@Test
	void invalidPropertyFailsBeforeAnyLeaseIsTaken() {
		this.contextRunner.withPropertyValues("id-worker.lease.namespace=invalid", "id-worker.lease.heartbeat=40s")
			.run((context) -> {
				assertThat(context).getFailure().rootCause().hasMessageContaining("id-worker.lease.heartbeat");
				assertThat(this.sequenceManager.holder("invalid", 0)).isEmpty();
			});
	}

	private static void assertMissingStore(AssertableApplicationContext context, IdWorkerMode mode, Problem problem) {
		assertThat(context).getFailure().rootCause().isInstanceOf(MissingIdWorkerStoreException.class);
		MissingIdWorkerStoreException failure = (MissingIdWorkerStoreException) rootCause(context.getStartupFailure());
		assertThat(failure.getMode()).isEqualTo(mode);
		assertThat(failure.getStoreDescriptor()).isEqualTo(mode.store());
		assertThat(failure.getProblem()).isEqualTo(problem);
	}

	static Throwable rootCause(Throwable failure) {
		Throwable cause = failure;
		while (cause.getCause() != null) {
			cause = cause.getCause();
		}
		return cause;
	}

	@Configuration(proxyBeanMethods = false)
	@EnableIdWorker(mode = IdWorkerMode.DB)
	static class DbMode {

	}

	@Configuration(proxyBeanMethods = false)
	@EnableIdWorker(mode = IdWorkerMode.REDIS)
	static class RedisModeWithOwnStore {

	}

	@Configuration(proxyBeanMethods = false)
	@EnableIdWorker(mode = IdWorkerMode.REDIS)
	static class RedisMode {

	}

	@Configuration(proxyBeanMethods = false)
	@EnableIdWorker(mode = IdWorkerMode.MONGO)
	static class MongoMode {

	}

	static class EagerUser {

		final long firstId;

		EagerUser(IdWorker idWorker) {
			this.firstId = idWorker.nextId();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class PublicIds {

		@org.springframework.context.annotation.Bean
		@org.springframework.context.annotation.Primary
		ObfuscatedIdWorker publicIds(SnowflakeIdGenerator generator) {
			return new ObfuscatedIdWorker(generator, IdPermutation.of("a test secret of enough length"));
		}

	}

	static final class FixedIdWorker implements IdWorker {

		@Override
		public long nextId() {
			return 1;
		}

		@Override
		public long nextId(String key) {
			return 1;
		}

	}

	static final class RecordingListener implements IdWorkerListener {

		final List<String> operations = new CopyOnWriteArrayList<>();

		@Override
		public void storeCall(String key, String operation, long nanos, boolean success) {
			this.operations.add(operation);
		}

	}

}
