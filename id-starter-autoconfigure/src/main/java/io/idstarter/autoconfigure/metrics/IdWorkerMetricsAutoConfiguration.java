package io.idstarter.autoconfigure.metrics;

import io.idstarter.autoconfigure.IdWorkerProperties;
import io.idstarter.lease.WorkerLeaseKeeper;
import io.idstarter.metrics.IdWorkerMetrics;
import io.idstarter.segment.PeriodicNumbers;
import io.idstarter.segment.SegmentIdGenerator;
import io.idstarter.snowflake.SnowflakeIdGenerator;
import io.idstarter.time.TimeSource;
import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * Auto-configuration of {@link IdWorkerMetrics}: a listener bean that the generators report their events to, and a
 * meter binder for their counters, with at most {@code id-worker.segment.max-key-tags} segment keys metered under their
 * own name.
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
			ObjectProvider<PeriodicNumbers> periodic, ObjectProvider<TimeSource> time,
			ObjectProvider<IdWorkerProperties> properties) {
		int maxKeyTags = properties.getIfAvailable(IdWorkerProperties::new).getSegment().getMaxKeyTags();
		// The generators are looked up when the binder is bound, after they exist: they depend on this listener.
		return new IdWorkerMetrics(registry, snowflake::getIfUnique, lease::getIfUnique, segments::getIfUnique,
				periodic::getIfUnique, time.getIfUnique(TimeSource::system), maxKeyTags);
	}

}
