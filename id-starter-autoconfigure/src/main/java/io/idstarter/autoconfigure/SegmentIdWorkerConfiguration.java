package io.idstarter.autoconfigure;

import java.util.concurrent.Executor;

import io.idstarter.IdWorker;
import io.idstarter.IdWorkerListener;
import io.idstarter.segment.DynamicStep;
import io.idstarter.segment.SegmentIdGenerator;
import io.idstarter.segment.SegmentOptions;
import io.idstarter.segment.SegmentStore;
import io.idstarter.time.TimeSource;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/**
 * The segment generator, bean {@code segmentIdWorker}; selected by {@code @EnableIdWorker(mode = SEGMENT)}. It loads
 * the store's keys when the bean is initialised and stops when the context stops, before the store's client.
 * Prefetches run on the generator's own threads, or on an {@link Executor} bean named
 * {@value #PREFETCH_EXECUTOR_BEAN_NAME} when the application defines one.
 *
 * @since 0.1.0
 */
@AutoConfiguration
@EnableConfigurationProperties(IdWorkerProperties.class)
public final class SegmentIdWorkerConfiguration {

	/** Name of the optional {@link Executor} bean that runs segment prefetches. */
	public static final String PREFETCH_EXECUTOR_BEAN_NAME = "idWorkerPrefetchExecutor";

	@Bean(name = SegmentIds.BEAN_NAME, initMethod = "start", destroyMethod = "close")
	@SegmentIds
	@ConditionalOnMissingBean(value = IdWorker.class,
			ignoredType = { "io.idstarter.snowflake.SnowflakeIdGenerator", "io.idstarter.codec.ObfuscatedIdWorker" })
	SegmentIdGenerator segmentIdWorker(ObjectProvider<SegmentStore> store, IdWorkerProperties properties,
			TimeSource timeSource, ObjectProvider<IdWorkerListener> listeners,
			@Qualifier(PREFETCH_EXECUTOR_BEAN_NAME) ObjectProvider<Executor> prefetchExecutor,
			ConfigurableListableBeanFactory beanFactory) {
		SegmentStore segmentStore = store.getIfAvailable();
		if (segmentStore == null) {
			throw MissingIdWorkerStoreException.diagnose(IdWorkerMode.SEGMENT, properties.getSegment().getStore(),
					beanFactory);
		}
		return new SegmentIdGenerator(segmentStore, options(properties.getSegment()), timeSource,
				CompositeIdWorkerListener.of(listeners), prefetchExecutor.getIfAvailable());
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
		IdWorkerProperties.DynamicStep dynamicStep = segment.getDynamicStep();
		// A maximum of 1 keeps every segment at the step stored for its key: the disabled dynamic step.
		int maxStep = dynamicStep.isEnabled() ? dynamicStep.getMaxStep() : 1;
		return SegmentOptions.builder()
			.prefetchThreshold(segment.getPrefetchThreshold())
			.maxWait(segment.getMaxWait())
			.keyRefreshInterval(segment.getKeyRefreshInterval())
			.defaultKey(segment.getDefaultKey())
			.dynamicStep(new DynamicStep(dynamicStep.getExpandBelow(), dynamicStep.getShrinkAbove(), maxStep))
			.threadChunkSize(segment.getThreadChunkSize())
			.build();
	}

}
