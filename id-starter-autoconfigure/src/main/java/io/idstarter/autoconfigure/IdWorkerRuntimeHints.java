package io.idstarter.autoconfigure;

import org.jspecify.annotations.Nullable;

import org.springframework.aot.hint.MemberCategory;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.aot.hint.TypeReference;

/**
 * What a native image of an id-starter application needs beyond the bean definitions that ahead-of-time processing
 * writes out: the class-path resources the stores load at run time (their descriptors'
 * {@link IdWorkerStoreDescriptor#resourcePatterns()}, such as the Redis Lua scripts), the descriptors themselves,
 * which are created by name, and the Hibernate identifier generators, which Hibernate creates by reflection when Spring's bean container does
 * not.
 *
 * @since 0.1.0
 */
class IdWorkerRuntimeHints implements RuntimeHintsRegistrar {

	/** The versions id-starter was built with, which failure reports quote ({@link BuiltVersions}). */
	static final String BUILT_VERSIONS = "io/idstarter/autoconfigure/id-starter-versions.properties";

	private static final String[] IDENTIFIER_GENERATORS = { "io.idstarter.hibernate.SnowflakeIdentifierGenerator",
			"io.idstarter.hibernate.SegmentIdentifierGenerator", "io.idstarter.hibernate.PeriodicIdentifierGenerator" };

	@Override
	public void registerHints(RuntimeHints hints, @Nullable ClassLoader classLoader) {
		for (IdWorkerStoreDescriptor store : IdWorkerStores.all()) {
			store.resourcePatterns().forEach(hints.resources()::registerPattern);
			hints.reflection().registerType(store.getClass(), MemberCategory.INVOKE_PUBLIC_CONSTRUCTORS);
		}
		hints.resources().registerPattern(BUILT_VERSIONS);
		for (String generator : IDENTIFIER_GENERATORS) {
			hints.reflection()
				.registerType(TypeReference.of(generator), MemberCategory.INVOKE_PUBLIC_CONSTRUCTORS,
						MemberCategory.INVOKE_PUBLIC_METHODS);
		}
	}

}
