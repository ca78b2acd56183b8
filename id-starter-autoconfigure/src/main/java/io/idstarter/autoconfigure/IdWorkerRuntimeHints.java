package io.idstarter.autoconfigure;

import org.jspecify.annotations.Nullable;

import org.springframework.aot.hint.MemberCategory;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.aot.hint.TypeReference;

/**
 * What a native image of an id-starter application needs beyond the bean definitions that ahead-of-time processing
 * writes out: the class-path resources the stores load at run time (the Redis Lua scripts, the JDBC schema scripts),
 * and the Hibernate identifier generators, which Hibernate creates by reflection when Spring's bean container does
 * not.
 *
 * @since 0.1.0
 */
class IdWorkerRuntimeHints implements RuntimeHintsRegistrar {

	/** Lua scripts of the Redis lease and segment stores, read once per class. */
	static final String REDIS_SCRIPTS = "io/idstarter/store/redis/*.lua";

	/** Schema scripts of the JDBC stores, one per database, read when the schema is initialised. */
	static final String JDBC_SCHEMAS = "io/idstarter/store/jdbc/schema-*.sql";

	/** The versions id-starter was built with, which failure reports quote ({@link BuiltVersions}). */
	static final String BUILT_VERSIONS = "io/idstarter/autoconfigure/id-starter-versions.properties";

	private static final String[] IDENTIFIER_GENERATORS = { "io.idstarter.hibernate.SnowflakeIdentifierGenerator",
			"io.idstarter.hibernate.SegmentIdentifierGenerator" };

	@Override
	public void registerHints(RuntimeHints hints, @Nullable ClassLoader classLoader) {
		hints.resources().registerPattern(REDIS_SCRIPTS);
		hints.resources().registerPattern(JDBC_SCHEMAS);
		hints.resources().registerPattern(BUILT_VERSIONS);
		for (String generator : IDENTIFIER_GENERATORS) {
			hints.reflection()
				.registerType(TypeReference.of(generator), MemberCategory.INVOKE_PUBLIC_CONSTRUCTORS,
						MemberCategory.INVOKE_PUBLIC_METHODS);
		}
	}

}
