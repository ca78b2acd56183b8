package io.idstarter.autoconfigure.metrics;

import io.idstarter.autoconfigure.IdWorkerProperties;
import io.idstarter.lease.WorkerLeaseKeeper;
import io.idstarter.metrics.IdWorkerMetrics;
import io.idstarter.segment.PeriodicNumbers;
import io.idstarter.segment.SegmentIdGenerator;
import io.idstarter.snowflake.SnowflakeIdGenerator;
import io.idstarter.time.TimeSource;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.config.MeterFilter;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.micrometer.metrics.MaximumAllowableTagsMeterFilter;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Auto-configuration of {@link IdWorkerMetrics}: a listener bean that the generators report their events to, and a
 * meter binder for their counters; and a cap on the segment keys that get meters of their own
 * ({@code id-worker.segment.max-key-tags}), as Spring Boot caps the URIs of {@code http.server.requests}.
 *
 * @since 0.1.0
 */
@AutoConfiguration(afterName = { "org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration",
		"org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration",
		"org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration" })
@ConditionalOnClass(MeterRegistry.class)
@ConditionalOnBean(MeterRegistry.class)
public final class IdWorkerMetricsAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	IdWorkerMetrics idWorkerMetrics(MeterRegistry registry, ObjectProvider<SnowflakeIdGenerator> snowflake,
			ObjectProvider<WorkerLeaseKeeper> lease, ObjectProvider<SegmentIdGenerator> segments,
			ObjectProvider<PeriodicNumbers> periodic, ObjectProvider<TimeSource> time) {
		// The generators are looked up when the binder is bound, after they exist: they depend on this listener.
		return new IdWorkerMetrics(registry, snowflake::getIfUnique, lease::getIfUnique, segments::getIfUnique,
				periodic::getIfUnique, time.getIfUnique(TimeSource::system));
	}

	/** Applied by Spring Boot to every meter registry before meters are registered. */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(MaximumAllowableTagsMeterFilter.class)
	static class KeyTagsConfiguration {

		@Bean
		MeterFilter idWorkerKeyTagsFilter(ObjectProvider<IdWorkerProperties> properties) {
			int max = properties.getIfAvailable(IdWorkerProperties::new).getSegment().getMaxKeyTags();
			return new MaximumAllowableTagsMeterFilter(IdWorkerMetrics.PREFIX, "key", max,
					" Meters of further segment keys are not registered; raise id-worker.segment.max-key-tags to meter"
							+ " more keys.");
		}

	}

}
