package io.idstarter.autoconfigure.health;

import java.time.Duration;

import io.idstarter.actuate.health.IdWorkerHealthIndicator;
import io.idstarter.autoconfigure.IdWorkerProperties;
import io.idstarter.autoconfigure.SegmentIdWorkerConfiguration;
import io.idstarter.autoconfigure.SnowflakeIdWorkerConfiguration;
import io.idstarter.lease.WorkerLeaseKeeper;
import io.idstarter.segment.SegmentIdGenerator;
import io.idstarter.snowflake.SnowflakeIdGenerator;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.AnyNestedCondition;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;

/**
 * Auto-configuration of {@link IdWorkerHealthIndicator}, the {@code idWorker} health contributor, when the
 * application has an ID generator. Turned off with {@code management.health.idworker.enabled=false}.
 *
 * @since 0.1.0
 */
@AutoConfiguration(after = { SnowflakeIdWorkerConfiguration.class, SegmentIdWorkerConfiguration.class })
@ConditionalOnClass({ HealthIndicator.class, ConditionalOnEnabledHealthIndicator.class })
@ConditionalOnEnabledHealthIndicator("idworker")
@Conditional(IdWorkerHealthContributorAutoConfiguration.OnGeneratorCondition.class)
public final class IdWorkerHealthContributorAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean(name = { "idWorkerHealthIndicator", "idWorkerHealthContributor" })
	IdWorkerHealthIndicator idWorkerHealthIndicator(ObjectProvider<SnowflakeIdGenerator> snowflake,
			ObjectProvider<WorkerLeaseKeeper> lease, ObjectProvider<SegmentIdGenerator> segments,
			ObjectProvider<IdWorkerProperties> properties) {
		IdWorkerProperties bound = properties.getIfAvailable();
		Duration layoutWarning = (bound != null) ? bound.getSnowflake().getLayoutWarning()
				: SnowflakeIdGenerator.DEFAULT_LAYOUT_WARNING;
		return new IdWorkerHealthIndicator(snowflake.getIfUnique(), lease.getIfUnique(), segments.getIfUnique(),
				layoutWarning);
	}

	/**
	 * Matches when there is a Snowflake or a segment generator bean. The configurations {@code @EnableIdWorker}
	 * selects join the auto-configurations, so this one is ordered after them.
	 */
	static final class OnGeneratorCondition extends AnyNestedCondition {

		OnGeneratorCondition() {
			super(ConfigurationPhase.REGISTER_BEAN);
		}

		@ConditionalOnBean(SnowflakeIdGenerator.class)
		static final class OnSnowflake {

		}

		@ConditionalOnBean(SegmentIdGenerator.class)
		static final class OnSegment {

		}

	}

}
