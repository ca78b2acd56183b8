package io.idstarter.autoconfigure.endpoint;

import java.util.ArrayList;
import java.util.List;

import io.idstarter.actuate.endpoint.IdWorkerEndpoint;
import io.idstarter.autoconfigure.IdWorkerModes;
import io.idstarter.lease.WorkerLeaseKeeper;
import io.idstarter.segment.PeriodicNumbers;
import io.idstarter.segment.SegmentIdGenerator;
import io.idstarter.snowflake.SnowflakeIdGenerator;
import io.idstarter.store.http.IdServerStatuses;
import io.idstarter.time.TimeSource;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * Auto-configuration of the {@link IdWorkerEndpoint idworker endpoint}, when it is exposed
 * ({@code management.endpoints.web.exposure.include=idworker}).
 *
 * @since 0.1.0
 */
@AutoConfiguration
@ConditionalOnClass({ Endpoint.class, ConditionalOnAvailableEndpoint.class })
@ConditionalOnAvailableEndpoint(IdWorkerEndpoint.class)
public final class IdWorkerEndpointAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	IdWorkerEndpoint idWorkerEndpoint(ObjectProvider<IdWorkerModes> modes,
			ObjectProvider<SnowflakeIdGenerator> snowflake, ObjectProvider<WorkerLeaseKeeper> lease,
			ObjectProvider<SegmentIdGenerator> segments, ObjectProvider<TimeSource> time,
			ObjectProvider<IdServerStatuses> servers, ObjectProvider<PeriodicNumbers> periodic) {
		SnowflakeIdGenerator snowflakeGenerator = snowflake.getIfUnique();
		WorkerLeaseKeeper leaseKeeper = lease.getIfUnique();
		SegmentIdGenerator segmentGenerator = segments.getIfUnique();
		IdWorkerModes enabledModes = modes.getIfAvailable();
		List<String> modeNames = (enabledModes != null) ? enabledModes.modes().stream().map(Enum::name).toList()
				: modes(snowflakeGenerator, segmentGenerator);
		return new IdWorkerEndpoint(modeNames, snowflakeGenerator, leaseKeeper, segmentGenerator,
				time.getIfUnique(TimeSource::system), servers.getIfUnique(), periodic.getIfUnique());
	}

	/**
	 * Names the generators of an application that defines them without {@code @EnableIdWorker}.
	 */
	private static List<String> modes(@Nullable SnowflakeIdGenerator snowflake, @Nullable SegmentIdGenerator segments) {
		List<String> modes = new ArrayList<>();
		if (snowflake != null) {
			modes.add("SNOWFLAKE");
		}
		if (segments != null) {
			modes.add("SEGMENT");
		}
		return modes;
	}

}
