package io.idstarter.autoconfigure;

import java.nio.file.Path;
import java.time.ZoneId;
import java.util.List;
import java.util.concurrent.Executor;

import io.idstarter.IdWorker;
import io.idstarter.IdWorkerListener;
import io.idstarter.segment.PeriodicKey;
import io.idstarter.segment.PeriodicNumbers;
import io.idstarter.segment.SegmentIdGenerator;
import io.idstarter.segment.SegmentMarks;
import io.idstarter.segment.SegmentOptions;
import io.idstarter.segment.SegmentStore;
import io.idstarter.time.TimeSource;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.DependsOn;
import org.springframework.core.env.Environment;

/**
 * The segment generator, bean {@code segmentIdWorker}; selected by {@code @EnableIdWorker(mode = SEGMENT)}. It loads
 * the store's keys when the bean is initialised and stops when the context stops, before the store's client, after
 * creating the keys of {@code id-worker.segment.keys} that the store lacks. Prefetches run on the generator's own
 * threads, or on an {@link Executor} bean named {@value #PREFETCH_EXECUTOR_BEAN_NAME} when the application defines
 * one. This node's high marks ({@link SegmentMarks}, bean {@value #MARKS_BEAN_NAME}) are kept in
 * {@code id-worker.segment.marks-file}, or beside {@code id-worker.lease.cache-file}, or in memory.
 *
 * @since 0.1.0
 */
@AutoConfiguration
@EnableConfigurationProperties(IdWorkerProperties.class)
public final class SegmentIdWorkerConfiguration {

	/** Name of the optional {@link Executor} bean that runs segment prefetches. */
	public static final String PREFETCH_EXECUTOR_BEAN_NAME = "idWorkerPrefetchExecutor";

	/** Name of the {@link DeclaredSegmentKeys} bean, which the generator depends on. */
	public static final String DECLARED_KEYS_BEAN_NAME = "idWorkerDeclaredSegmentKeys";

	/** Name of the {@link SegmentMarks} bean. */
	public static final String MARKS_BEAN_NAME = "idWorkerSegmentMarks";

	/** File name of the marks kept beside {@code id-worker.lease.cache-file} when no marks file is set. */
	static final String DEFAULT_MARKS_FILE_NAME = "segment-marks";

	private static final Logger logger = LoggerFactory.getLogger(SegmentIdWorkerConfiguration.class);

	@Bean(MARKS_BEAN_NAME)
	@ConditionalOnMissingBean
	SegmentMarks idWorkerSegmentMarks(IdWorkerProperties properties, Environment environment) {
		Path file = marksFile(properties);
		if (file != null && !IdWorkerSliceAutoConfiguration.usesNodeFiles(properties, environment)) {
			logger.info("Segment marks are kept in memory in this test slice, not in {}: its database starts empty on "
					+ "every run. Set id-worker.testing.node-files-in-slices=true to use the file", file);
			return SegmentMarks.inMemory();
		}
		if (file == null) {
			logger.info("Segment marks are kept in memory only: a restarted node cannot tell a segment store that "
					+ "lost writes. Set id-worker.segment.marks-file (or id-worker.lease.cache-file) to keep them");
			return SegmentMarks.inMemory();
		}
		return SegmentMarks.file(file);
	}

	/**
	 * Creates the declared keys the store lacks. Without a store it creates nothing: the generator then fails the start
	 * with the report of what is missing.
	 */
	@Bean(DECLARED_KEYS_BEAN_NAME)
	DeclaredSegmentKeys idWorkerDeclaredSegmentKeys(ObjectProvider<SegmentStore> store, IdWorkerProperties properties,
			ObjectProvider<SegmentMarks> marks) {
		SegmentStore segmentStore = store.getIfAvailable();
		if (segmentStore == null) {
			return DeclaredSegmentKeys.none();
		}
		return DeclaredSegmentKeys.create(segmentStore, properties.getSegment().getKeys(),
				marks.getIfAvailable(SegmentMarks::inMemory));
	}

	@Bean(name = SegmentIds.BEAN_NAME, initMethod = "start", destroyMethod = "close")
	@DependsOn(DECLARED_KEYS_BEAN_NAME)
	@SegmentIds
	@ConditionalOnMissingBean(value = IdWorker.class,
			ignoredType = { "io.idstarter.snowflake.SnowflakeIdGenerator", "io.idstarter.codec.ObfuscatedIdWorker" })
	SegmentIdGenerator segmentIdWorker(ObjectProvider<SegmentStore> store, IdWorkerProperties properties,
			TimeSource timeSource, ObjectProvider<IdWorkerListener> listeners,
			@Qualifier(PREFETCH_EXECUTOR_BEAN_NAME) ObjectProvider<Executor> prefetchExecutor,
			ObjectProvider<SegmentMarks> marks, ConfigurableListableBeanFactory beanFactory) {
		SegmentStore segmentStore = store.getIfAvailable();
		if (segmentStore == null) {
			throw MissingIdWorkerStoreException.diagnose(IdWorkerMode.SEGMENT,
					properties.getSegment().getStore().descriptor(),
					beanFactory);
		}
		SegmentMarks nodeMarks = marks.getIfAvailable(SegmentMarks::inMemory);
		return new SegmentIdGenerator(segmentStore, options(properties.getSegment()), timeSource,
				CompositeIdWorkerListener.of(listeners), prefetchExecutor.getIfAvailable(), nodeMarks);
	}

	static @Nullable Path marksFile(IdWorkerProperties properties) {
		Path file = properties.getSegment().getMarksFile();
		if (file != null) {
			return file;
		}
		Path cacheFile = properties.getLease().getCacheFile();
		if (cacheFile != null) {
			return cacheFile.toAbsolutePath().resolveSibling(DEFAULT_MARKS_FILE_NAME);
		}
		return null;
	}

	/**
	 * The formatted numbers of {@code id-worker.segment.periodic-keys}, in the zone of
	 * {@code id-worker.segment.periodic-zone} (the system zone when not set), on the application's time source.
	 */
	@Bean
	@ConditionalOnBean(SegmentIdGenerator.class)
	@ConditionalOnMissingBean
	PeriodicNumbers idWorkerPeriodicNumbers(SegmentIdGenerator segmentIdWorker, ObjectProvider<SegmentStore> store,
			IdWorkerProperties properties, TimeSource timeSource) {
		IdWorkerProperties.Segment segment = properties.getSegment();
		List<PeriodicKey> keys = DeclaredPeriodicKeys.of(segment.getPeriodicKeys());
		ZoneId zone = (segment.getPeriodicZone() != null) ? segment.getPeriodicZone() : ZoneId.systemDefault();
		try {
			return new PeriodicNumbers(segmentIdWorker, store.getObject(), keys, zone, timeSource);
		}
		catch (IllegalArgumentException ex) {
			// The store cannot serve periodic keys (it cannot create keys or keeps no descriptions).
			String name = keys.get(0).name();
			throw new InvalidConfigurationPropertyValueException("id-worker.segment.periodic-keys." + name, name,
					ex.getMessage());
		}
	}

	@Bean
	SegmentGeneratorLifecycle idWorkerSegmentGeneratorLifecycle(ObjectProvider<SegmentIdGenerator> generator) {
		return new SegmentGeneratorLifecycle(generator);
	}

	@Bean
	@ConditionalOnMissingBean
	SegmentKeysCheck idWorkerSegmentKeysCheck(ObjectProvider<SegmentIdGenerator> segments) {
		return new SegmentKeysCheck(segments);
	}

	static SegmentOptions options(IdWorkerProperties.Segment segment) {
		return SegmentOptions.builder()
			.prefetchThreshold(segment.getPrefetchThreshold())
			.maxWait(segment.getMaxWait())
			.keyRefreshInterval(segment.getKeyRefreshInterval())
			.defaultKey(segment.getDefaultKey())
			.dynamicStep(segment.getDynamicStep().toDynamicStep())
			.threadChunkSize(segment.getThreadChunkSize())
			.healForward(segment.isHealForward())
			.healMargin(segment.getHealMargin())
			.giveBackOnClose(segment.isGiveBackOnClose())
			.build();
	}

}
