package io.idstarter.autoconfigure;

import java.nio.file.Path;
import java.time.Instant;
import java.util.Locale;

import javax.sql.DataSource;

import io.idstarter.IdWorker;
import io.idstarter.IdWorkerListener;
import io.idstarter.lease.ISequenceManager;
import io.idstarter.lease.LeaseSettings;
import io.idstarter.lease.WorkerLeaseKeeper;
import io.idstarter.snowflake.ClockBackwardsPolicy;
import io.idstarter.snowflake.SnowflakeIdGenerator;
import io.idstarter.snowflake.SnowflakeLayout;
import io.idstarter.time.TimeSource;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * The Snowflake generator, bean {@code snowflakeIdWorker}, and the {@link WorkerLeaseKeeper} that leases its worker
 * ID from the application's {@link ISequenceManager}; selected by every Snowflake mode of {@code @EnableIdWorker}
 * ({@link IdWorkerMode#isSnowflake()}), with the lease configuration of that mode's store.
 * The worker ID is borrowed while the beans are initialised, before any bean that uses the generator, and given back
 * when the context stops, after the web server and before the store's client.
 *
 * @since 0.1.0
 */
@AutoConfiguration
@EnableConfigurationProperties(IdWorkerProperties.class)
public final class SnowflakeIdWorkerConfiguration {

	private static final Logger logger = LoggerFactory.getLogger(SnowflakeIdWorkerConfiguration.class);

	@Bean
	@ConditionalOnMissingBean
	SnowflakeLayout snowflakeLayout(IdWorkerProperties properties) {
		IdWorkerProperties.Snowflake snowflake = properties.getSnowflake();
		SnowflakeLayout preset = snowflake.presetLayout(Instant.now());
		if (preset != null) {
			logger.info("Snowflake layout: preset '{}', epoch {}: {}",
					snowflake.getPreset().name().toLowerCase(Locale.ROOT), preset.epoch(), preset);
			return preset;
		}
		SnowflakeLayout layout = snowflake.layout();
		logger.info("Snowflake layout: {} timestamp, {} worker-ID, {} sequence bits from {}: {}",
				layout.timestampBits(), layout.workerIdBits(), layout.sequenceBits(), layout.epoch(), layout);
		return layout;
	}

	@Bean
	@ConditionalOnMissingBean
	ClockBackwardsPolicy clockBackwardsPolicy(IdWorkerProperties properties) {
		IdWorkerProperties.ClockBackwards clockBackwards = properties.getSnowflake().getClockBackwards();
		return switch (clockBackwards.getPolicy()) {
			case FAIL -> ClockBackwardsPolicy.failAfter(clockBackwards.getMaxWait());
			case TOLERATE -> ClockBackwardsPolicy.tolerate(clockBackwards.getMaxWait());
		};
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnMissingBean(value = IdWorker.class,
			ignoredType = { "io.idstarter.segment.SegmentIdGenerator", "io.idstarter.codec.ObfuscatedIdWorker" })
	static class LeasedGeneratorConfiguration {

		@Bean(initMethod = "borrow", destroyMethod = "close")
		LeasedSnowflakeWorker leasedSnowflakeWorker(ObjectProvider<ISequenceManager> sequenceManager,
				SnowflakeLayout layout, ClockBackwardsPolicy clockBackwardsPolicy, TimeSource timeSource,
				IdWorkerProperties properties, Environment environment, ObjectProvider<IdWorkerListener> listeners,
				ObjectProvider<IdWorkerModes> modes, ConfigurableListableBeanFactory beanFactory,
				ObjectProvider<DataSource> dataSource) {
			ISequenceManager manager = sequenceManager.getIfAvailable();
			if (manager == null) {
				throw missingStore(modes.getIfAvailable(), beanFactory);
			}
			LeaseSettings settings = leaseSettings(properties, environment);
			Instant issueFrom = SnowflakeTakeoverCheck.run(properties, layout, settings.maxStartupWait(),
					dataSource.getIfUnique(), timeSource);
			if (issueFrom != null) {
				settings = settings.toBuilder().issueFrom(issueFrom).build();
			}
			IdWorkerListener listener = CompositeIdWorkerListener.of(listeners);
			SnowflakeIdGenerator generator = new SnowflakeIdGenerator(layout, timeSource, clockBackwardsPolicy,
					listener, properties.getSnowflake().getLayoutWarning());
			WorkerLeaseKeeper keeper = new WorkerLeaseKeeper(manager, generator, settings, timeSource, listener);
			return new LeasedSnowflakeWorker(generator, keeper);
		}

		@Bean(name = SnowflakeIds.BEAN_NAME, destroyMethod = "")
		@SnowflakeIds
		SnowflakeIdGenerator snowflakeIdWorker(LeasedSnowflakeWorker leasedSnowflakeWorker) {
			return leasedSnowflakeWorker.generator();
		}

		@Bean(destroyMethod = "")
		WorkerLeaseKeeper workerLeaseKeeper(LeasedSnowflakeWorker leasedSnowflakeWorker) {
			return leasedSnowflakeWorker.keeper();
		}

		private static RuntimeException missingStore(@Nullable IdWorkerModes modes,
				ConfigurableListableBeanFactory beanFactory) {
			IdWorkerMode mode = (modes != null) ? modes.snowflake() : null;
			IdWorkerStoreDescriptor store = (mode != null) ? mode.store() : null;
			if (mode == null || store == null) {
				return new IllegalStateException("A Snowflake generator needs an ISequenceManager bean to lease its "
						+ "worker ID from; none was found");
			}
			return MissingIdWorkerStoreException.diagnose(mode, store, beanFactory);
		}

	}

	/**
	 * Builds the lease settings; the namespace defaults to {@code spring.application.name}.
	 * @param lease the lease properties
	 * @param environment where {@code spring.application.name} is read
	 * @return the settings
	 */
	static LeaseSettings leaseSettings(IdWorkerProperties properties, Environment environment) {
		IdWorkerProperties.Lease lease = properties.getLease();
		Path cacheFile = lease.getCacheFile();
		if (cacheFile != null && !IdWorkerSliceAutoConfiguration.usesNodeFiles(properties, environment)) {
			logger.info("The worker-ID cache file {} is not used in this test slice: its database starts empty on "
					+ "every run. Set id-worker.testing.node-files-in-slices=true to use it", cacheFile);
			cacheFile = null;
		}
		String namespace = lease.getNamespace();
		if (namespace == null) {
			namespace = environment.getProperty("spring.application.name", LeaseSettings.DEFAULT_NAMESPACE);
		}
		IdWorkerProperties.Snowflake snowflake = properties.getSnowflake();
		LeaseSettings.Builder settings = lease.settings()
			.namespace(namespace)
			.cacheFile(cacheFile)
			.replacedLayout(snowflake.getLayoutChange().getFrom());
		if (snowflake.getPreset() != null) {
			settings.layoutPreset(snowflake.getPreset().name().toLowerCase(Locale.ROOT));
		}
		return settings.build();
	}

}
