package io.idstarter.autoconfigure;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Set;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.autoconfigure.AutoConfigurationImportSelector;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.core.annotation.AnnotationAttributes;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotationMetadata;

/**
 * Selects the configurations of the modes named by {@link EnableIdWorker @EnableIdWorker}: a Snowflake mode's lease
 * store configuration and every segment store configuration, as their {@link IdWorkerStoreDescriptor descriptors} name
 * them. Store configurations are named as strings, so their optional libraries are only loaded when a mode selects
 * them and their conditions pass.
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
			IdWorkerStoreDescriptor leaseStore = mode.store();
			if (leaseStore == null) {
				imports.add(SEGMENT);
				for (IdWorkerStoreDescriptor store : IdWorkerStores.segmentStores()) {
					imports.add(store.segmentConfiguration());
				}
			}
			else {
				imports.add(SNOWFLAKE);
				imports.add(Objects.requireNonNull(leaseStore.leaseConfiguration(),
						() -> "the store of mode " + mode + " (" + leaseStore.name() + ") names no lease configuration"));
			}
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
