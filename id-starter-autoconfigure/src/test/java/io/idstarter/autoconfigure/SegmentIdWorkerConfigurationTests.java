package io.idstarter.autoconfigure;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;

import io.idstarter.IdWorker;
import io.idstarter.autoconfigure.MissingIdWorkerStoreException.Problem;
import io.idstarter.segment.DynamicStep;
import io.idstarter.segment.InMemorySegmentStore;
import io.idstarter.segment.PeriodicNumbers;
import io.idstarter.segment.SegmentIdGenerator;
import io.idstarter.segment.SegmentMarks;
import io.idstarter.segment.SegmentOptions;
import io.idstarter.segment.SegmentStore;
import io.idstarter.store.jdbc.JdbcSegmentStore;
import io.idstarter.time.ManualTimeSource;
import io.idstarter.time.TimeSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.mongodb.core.MongoOperations;
import org.springframework.data.redis.connection.RedisConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

class SegmentIdWorkerConfigurationTests {

	private final InMemorySegmentStore store = new InMemorySegmentStore();

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withUserConfiguration(SegmentMode.class)
		.withBean(SegmentStore.class, () -> this.store);

	/** The generator of the running context, for a lifecycle bean to look at when it stops. */
	private final SegmentIdGenerator[] generatorHolder = new SegmentIdGenerator[1];

	SegmentIdWorkerConfigurationTests() {
		this.store.createKey("orders", 1000, 100, "orders");
	}

	@Test
	void generatorReadsTheKeysAtStartAndStopsAtShutdown() {
		SegmentIdGenerator[] generator = new SegmentIdGenerator[1];
		this.contextRunner.run((context) -> {
			assertThat(context).hasSingleBean(IdWorker.class)
				.hasSingleBean(SegmentIdGenerator.class)
				.hasBean(SegmentIds.BEAN_NAME);
			generator[0] = context.getBean(SegmentIdGenerator.class);
			assertThat(context.getBean(IdWorker.class)).isSameAs(generator[0]);
			assertThat(generator[0].keys()).containsExactly("orders");
			assertThat(generator[0].nextId("orders")).isEqualTo(1000);
			assertThat(generator[0].nextId("orders")).isEqualTo(1001);
		});
		assertThatThrownBy(() -> generator[0].nextId("orders")).hasMessageContaining("closed");
	}

	@Test
	void periodicKeysAreServedAsFormattedStringsInTheConfiguredZone() {
		ManualTimeSource clock = new ManualTimeSource(Instant.parse("2026-11-26T15:59:59.999Z"));
		this.contextRunner.withBean(TimeSource.class, () -> clock)
			.withPropertyValues("id-worker.segment.periodic-keys.invoice.format=INV-{yyyyMMdd}-{seq:6}",
					"id-worker.segment.periodic-keys.invoice.step=10", "id-worker.segment.periodic-zone=Asia/Shanghai")
			.run((context) -> {
				PeriodicNumbers numbers = context.getBean(PeriodicNumbers.class);
				assertThat(numbers.next("invoice")).isEqualTo("INV-20261126-000001");
				clock.advanceMillis(1); // midnight in Shanghai
				assertThat(numbers.next("invoice")).isEqualTo("INV-20261127-000001");
				assertThat(numbers.keys().get("invoice").step()).isEqualTo(10);
				assertThat(this.store.keys()).contains("invoice:20261126", "invoice:20261127");
			});
	}

	@Test
	void aPeriodicFormatWithAnUnknownPlaceholderFailsTheStartNamingTheFormat() {
		this.contextRunner.withPropertyValues("id-worker.segment.periodic-keys.invoice.format=INV-{yyyyMMdd}-{sequence}")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.isInstanceOf(InvalidConfigurationPropertyValueException.class)
				.hasMessageContaining("id-worker.segment.periodic-keys.invoice.format")
				.hasMessageContaining("INV-{yyyyMMdd}-{sequence}")
				.hasMessageContaining("unknown placeholder {sequence}"));
	}

	@Test
	void generatorIsStoppedBeforeStoreClientsOfPhaseZeroStop() {
		String[] seenByStoreClient = new String[1];
		this.contextRunner.withBean("storeClient", SmartLifecycle.class, () -> new SmartLifecycle() {

			private volatile boolean running;

			@Override
			public void start() {
				this.running = true;
			}

			@Override
			public void stop() {
				// Like a Redis connection factory: by now the generator must have stopped fetching.
				SegmentIdGenerator generator = this.generatorOf();
				try {
					generator.nextId("orders");
					seenByStoreClient[0] = "still issuing";
				}
				catch (IllegalStateException ex) {
					seenByStoreClient[0] = ex.getMessage();
				}
				this.running = false;
			}

			private SegmentIdGenerator generatorOf() {
				return generatorHolder[0];
			}

			@Override
			public boolean isRunning() {
				return this.running;
			}

			@Override
			public int getPhase() {
				return 0;
			}

		}).run((context) -> {
			generatorHolder[0] = context.getBean(SegmentIdGenerator.class);
			assertThat(generatorHolder[0].nextId("orders")).isEqualTo(1000);
		});
		assertThat(seenByStoreClient[0]).contains("closed");
	}

	@Test
	void defaultKeyServesNextIdWithoutAKey() {
		this.contextRunner.withPropertyValues("id-worker.segment.default-key=orders")
			.run((context) -> assertThat(context.getBean(IdWorker.class).nextId()).isEqualTo(1000));
	}

	@Test
	void propertiesReachTheOptions() {
		IdWorkerProperties properties = new IdWorkerProperties();
		IdWorkerProperties.Segment segment = properties.getSegment();
		segment.setPrefetchThreshold(0.3);
		segment.setMaxWait(Duration.ofMillis(300));
		segment.setKeyRefreshInterval(Duration.ofMinutes(5));
		segment.setDefaultKey("orders");
		segment.getDynamicStep().setExpandBelow(Duration.ofMinutes(1));
		segment.getDynamicStep().setShrinkAbove(Duration.ofMinutes(4));
		segment.getDynamicStep().setMaxStep(5000);
		segment.setThreadChunkSize(64);
		segment.setHealForward(true);
		segment.setHealMargin(100_000);
		segment.setGiveBackOnClose(false);
		SegmentOptions options = SegmentIdWorkerConfiguration.options(segment);
		assertThat(options.prefetchThreshold()).isEqualTo(0.3);
		assertThat(options.maxWait()).isEqualTo(Duration.ofMillis(300));
		assertThat(options.keyRefreshInterval()).isEqualTo(Duration.ofMinutes(5));
		assertThat(options.defaultKey()).isEqualTo("orders");
		assertThat(options.dynamicStep())
			.isEqualTo(new DynamicStep(Duration.ofMinutes(1), Duration.ofMinutes(4), 5000));
		assertThat(options.threadChunkSize()).isEqualTo(64);
		assertThat(options.healForward()).isTrue();
		assertThat(options.healMargin()).isEqualTo(100_000);
		assertThat(options.giveBackOnClose()).isFalse();
		assertThat(SegmentIdWorkerConfiguration.options(new IdWorkerProperties().getSegment()).toString())
			.isEqualTo(SegmentOptions.defaults().toString());
	}

	@Test
	void disabledDynamicStepKeepsTheStoredStep() {
		IdWorkerProperties.Segment segment = new IdWorkerProperties().getSegment();
		segment.getDynamicStep().setEnabled(false);
		DynamicStep dynamicStep = SegmentIdWorkerConfiguration.options(segment).dynamicStep();
		assertThat(dynamicStep.nextStep(100, 100, 0)).isEqualTo(100);
		assertThat(dynamicStep.nextStep(100, 100, Duration.ofHours(1).toNanos())).isEqualTo(100);
	}

	@Test
	void prefetchesRunOnTheApplicationsExecutor() {
		AtomicInteger tasks = new AtomicInteger();
		Executor executor = (task) -> {
			tasks.incrementAndGet();
			task.run();
		};
		this.contextRunner.withBean(SegmentIdWorkerConfiguration.PREFETCH_EXECUTOR_BEAN_NAME, Executor.class,
				() -> executor)
			.run((context) -> {
				context.getBean(IdWorker.class).nextId("orders");
				assertThat(tasks).hasPositiveValue();
			});
	}

	@Test
	void otherExecutorsAreNotUsedForPrefetches() {
		AtomicInteger tasks = new AtomicInteger();
		Executor executor = (task) -> {
			tasks.incrementAndGet();
			task.run();
		};
		this.contextRunner.withBean("applicationTaskExecutor", Executor.class, () -> executor).run((context) -> {
			context.getBean(IdWorker.class).nextId("orders");
			assertThat(tasks).hasValue(0);
		});
	}

	@Test
	void applicationIdWorkerReplacesTheGenerator() {
		IdWorker own = new SnowflakeIdWorkerConfigurationTests.FixedIdWorker();
		this.contextRunner.withBean(IdWorker.class, () -> own).run((context) -> {
			assertThat(context).doesNotHaveBean(SegmentIdGenerator.class);
			assertThat(context.getBean(IdWorker.class)).isSameAs(own);
		});
	}

	@Test
	void segmentModeUsesTheApplicationsDataSourceByDefault() {
		new ApplicationContextRunner().withUserConfiguration(SegmentMode.class)
			.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class))
			.withPropertyValues("spring.datasource.generate-unique-name=true")
			.run((context) -> {
				assertThat(context).hasSingleBean(JdbcSegmentStore.class);
				context.getBean(JdbcSegmentStore.class).createKey("orders", 1, 10, "orders");
				// A key created after start is looked up again at most once a second.
				await().atMost(Duration.ofSeconds(5))
					.ignoreExceptions()
					.until(() -> context.getBean(IdWorker.class).nextId("orders") == 1);
			});
	}

	@Test
	void segmentModeWithoutADataSourceFailsSayingSo() {
		new ApplicationContextRunner().withUserConfiguration(SegmentMode.class)
			.run((context) -> assertMissingStore(context, IdWorkerStore.JDBC, Problem.BEAN_MISSING));
	}

	@Test
	void redisSegmentsWithoutSpringDataRedisFailSayingSo() {
		new ApplicationContextRunner().withUserConfiguration(SegmentMode.class)
			.withPropertyValues("id-worker.segment.store=redis")
			.withClassLoader(new FilteredClassLoader(RedisConnectionFactory.class))
			.run((context) -> assertMissingStore(context, IdWorkerStore.REDIS, Problem.LIBRARY_MISSING));
	}

	@Test
	void mongoSegmentsWithoutMongoOperationsFailSayingSo() {
		new ApplicationContextRunner().withUserConfiguration(SegmentMode.class)
			.withPropertyValues("id-worker.segment.store=mongo")
			.withClassLoader(new FilteredClassLoader(MongoOperations.class))
			.run((context) -> assertMissingStore(context, IdWorkerStore.MONGO, Problem.LIBRARY_MISSING));
	}

	private static void assertMissingStore(AssertableApplicationContext context, IdWorkerStore store,
			Problem problem) {
		assertThat(context).getFailure().rootCause().isInstanceOf(MissingIdWorkerStoreException.class);
		MissingIdWorkerStoreException failure = (MissingIdWorkerStoreException) SnowflakeIdWorkerConfigurationTests
			.rootCause(context.getStartupFailure());
		assertThat(failure.getMode()).isEqualTo(IdWorkerMode.SEGMENT);
		assertThat(failure.getStoreDescriptor()).isEqualTo(store.descriptor());
		assertThat(failure.getProblem()).isEqualTo(problem);
	}

	@Test
	void aTestSliceKeepsMarksInMemoryBesideTheMarksFileOfAnEarlierRun(@TempDir Path directory) throws IOException {
		Path file = directory.resolve("segment-marks");
		Files.writeString(file, "order=900000\norders=900000\n");
		this.contextRunner.withConfiguration(AutoConfigurations.of(IdWorkerSliceAutoConfiguration.class))
			.withPropertyValues("spring.boot.enableautoconfiguration=false", "id-worker.segment.marks-file=" + file)
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context.getBean(SegmentMarks.class).file()).isEmpty();
				assertThat(context.getBean(SegmentIdGenerator.class).nextId("orders")).isEqualTo(1000);
			});
		assertThat(Files.readString(file)).isEqualTo("order=900000\norders=900000\n");
	}

	@Test
	void emptyFileSettingsTurnTheFilesOffForATestThatOverridesTheApplicationsConfiguration() {
		this.contextRunner.withPropertyValues("id-worker.lease.cache-file=state/worker-id")
			.withPropertyValues("id-worker.segment.marks-file=", "id-worker.lease.cache-file=")
			.run((context) -> assertThat(context.getBean(SegmentMarks.class).file()).isEmpty());
	}

	@Test
	void aTestSliceUsesTheMarksFileWhenToldTo(@TempDir Path directory) throws IOException {
		Path file = directory.resolve("segment-marks");
		this.contextRunner.withConfiguration(AutoConfigurations.of(IdWorkerSliceAutoConfiguration.class))
			.withPropertyValues("spring.boot.enableautoconfiguration=false", "id-worker.segment.marks-file=" + file,
					"id-worker.testing.node-files-in-slices=true")
			.run((context) -> assertThat(context.getBean(SegmentMarks.class).file()).contains(file));
		this.contextRunner.withPropertyValues("id-worker.segment.marks-file=" + file)
			.run((context) -> assertThat(context.getBean(SegmentMarks.class).file()).as("an application")
				.contains(file));
	}

	@Configuration(proxyBeanMethods = false)
	@EnableIdWorker(mode = IdWorkerMode.SEGMENT)
	static class SegmentMode {

	}

}
