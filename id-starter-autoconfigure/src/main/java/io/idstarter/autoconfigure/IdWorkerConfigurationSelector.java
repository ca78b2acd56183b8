package io.idstarter.autoconfigure;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.autoconfigure.AutoConfigurationImportSelector;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.core.annotation.AnnotationAttributes;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotationMetadata;

/**
 * Selects the configurations of the modes named by {@link EnableIdWorker @EnableIdWorker}: a switch from mode to
 * class names. Store configurations are named as strings, so their optional libraries are only loaded when a mode
 * selects them and their conditions pass.
 *
 * <p>Like {@code @ImportAutoConfiguration}, the selection joins the auto-configuration group: the selected classes are
 * deferred until the application's own configuration has been read (so {@code @ConditionalOnMissingBean} sees the
 * application's beans) and are sorted with every auto-configuration (so the store configurations come after Spring
 * Boot's {@code DataSource}, Redis and MongoDB ones, and other auto-configurations may order themselves after ours).
 */
class IdWorkerConfigurationSelector extends AutoConfigurationImportSelector {

	private static final String PACKAGE = "io.idstarter.autoconfigure.";

	private static final String MODES = PACKAGE + "IdWorkerModesRegistrar";

	private static final String BASE = PACKAGE + "IdWorkerBaseConfiguration";

	private static final String SEGMENT = PACKAGE + "SegmentIdWorkerConfiguration";

	private static final String SNOWFLAKE = PACKAGE + "SnowflakeIdWorkerConfiguration";

	private static final String JDBC_SEGMENTS = PACKAGE + "jdbc.JdbcSegmentStoreConfiguration";

	private static final String REDIS_SEGMENTS = PACKAGE + "redis.RedisSegmentStoreConfiguration";

	private static final String MONGO_SEGMENTS = PACKAGE + "mongo.MongoSegmentStoreConfiguration";

	private static final String JDBC_LEASES = PACKAGE + "jdbc.JdbcLeaseStoreConfiguration";

	private static final String REDIS_LEASES = PACKAGE + "redis.RedisLeaseStoreConfiguration";

	private static final String MONGO_LEASES = PACKAGE + "mongo.MongoLeaseStoreConfiguration";

	private static final String HTTP_SEGMENTS = PACKAGE + "http.HttpSegmentStoreConfiguration";

	private static final String HTTP_LEASES = PACKAGE + "http.HttpLeaseStoreConfiguration";

	private static final String ZOOKEEPER_LEASES = PACKAGE + "zookeeper.ZooKeeperLeaseStoreConfiguration";

	private static final String ETCD_LEASES = PACKAGE + "etcd.EtcdLeaseStoreConfiguration";

	private static final String IN_MEMORY_STORES = PACKAGE + "InMemoryStoresConfiguration";

	/**
	 * Off in test slices ({@code @WebMvcTest}, {@code @DataJpaTest}, ...), which turn auto-configuration off and
	 * import only what they list: the generators' stores are mostly not there. The slices that have a store list
	 * {@link IdWorkerSliceAutoConfiguration}, which selects the same configurations.
	 */
	@Override
	protected boolean isEnabled(AnnotationMetadata metadata) {
		return getEnvironment().getProperty(EnableAutoConfiguration.ENABLED_OVERRIDE_PROPERTY, Boolean.class, true);
	}

	@Override
	protected List<String> getCandidateConfigurations(AnnotationMetadata metadata,
			@Nullable AnnotationAttributes attributes) {
		return configurations(metadata, getEnvironment());
	}

	/**
	 * Returns the names of the configuration classes the modes of an {@code @EnableIdWorker} class need: with
	 * {@code id-worker.testing.in-memory-stores}, the in-memory stores in place of every store configuration.
	 * @param metadata the annotated class
	 * @param environment where the property is read
	 * @return class names, the modes' registrar and the shared beans first
	 * @throws UnsupportedSpringBootVersionException on a Spring Boot version id-starter does not support
	 */
	static List<String> configurations(AnnotationMetadata metadata, Environment environment) {
		SupportedSpringBootVersions.checkRunningVersion();
		List<String> imports = new ArrayList<>(List.of(MODES, BASE));
		if (environment.getProperty(InMemoryStoresConfiguration.PROPERTY, Boolean.class, false)) {
			imports.add(IN_MEMORY_STORES);
			for (IdWorkerMode mode : IdWorkerModes.of(metadata).modes()) {
				imports.add(mode.isSnowflake() ? SNOWFLAKE : SEGMENT);
			}
			return imports;
		}
		for (IdWorkerMode mode : IdWorkerModes.of(metadata).modes()) {
			imports.addAll(switch (mode) {
				case SEGMENT -> List.of(SEGMENT, JDBC_SEGMENTS, REDIS_SEGMENTS, MONGO_SEGMENTS, HTTP_SEGMENTS);
				case DB -> List.of(SNOWFLAKE, JDBC_LEASES);
				case REDIS -> List.of(SNOWFLAKE, REDIS_LEASES);
				case MONGO -> List.of(SNOWFLAKE, MONGO_LEASES);
				case ZOOKEEPER -> List.of(SNOWFLAKE, ZOOKEEPER_LEASES);
				case ETCD -> List.of(SNOWFLAKE, ETCD_LEASES);
				case HTTP -> List.of(SNOWFLAKE, HTTP_LEASES);
			});
		}
		return imports;
	}

	@Override
	protected Class<?> getAnnotationClass() {
		return EnableIdWorker.class;
	}

	@Override
	protected Set<String> getExclusions(AnnotationMetadata metadata, @Nullable AnnotationAttributes attributes) {
		return Collections.emptySet();
	}

}
