package io.idstarter.autoconfigure;

import java.io.IOException;
import java.util.List;

import org.junit.jupiter.api.Test;

import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.core.io.Resource;
import org.springframework.core.io.support.PathMatchingResourcePatternResolver;
import org.springframework.core.io.support.SpringFactoriesLoader;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The runtime hints cover every resource the stores load, the stores' descriptors and the Hibernate generators, and are registered through
 * {@code aot.factories}.
 */
class IdWorkerRuntimeHintsTests {

	private final RuntimeHints hints = registeredHints();

	@Test
	void everyResourceOfTheStoresIsCovered() throws IOException {
		PathMatchingResourcePatternResolver resolver = new PathMatchingResourcePatternResolver();
		Resource[] resources = resolver.getResources("classpath*:io/idstarter/store/**/*.*");
		assertThat(resources).as("resources under io/idstarter/store").hasSizeGreaterThanOrEqualTo(10);
		for (Resource resource : resources) {
			String path = resource.getURL().toString().replaceFirst("^.*?(io/idstarter/store/)", "$1");
			if (path.endsWith(".class")) {
				continue;
			}
			assertThat(RuntimeHintsPredicates.resource().forResource(path)).as(path).accepts(this.hints);
		}
	}

	@Test
	void theBuiltVersionsAreCovered() {
		assertThat(getClass().getClassLoader().getResource(IdWorkerRuntimeHints.BUILT_VERSIONS)).isNotNull();
		assertThat(RuntimeHintsPredicates.resource().forResource(IdWorkerRuntimeHints.BUILT_VERSIONS))
			.accepts(this.hints);
	}

	@Test
	void theNamedScriptsAreCovered() {
		for (String path : List.of("io/idstarter/store/redis/lease-slot.lua",
				"io/idstarter/store/redis/segment-allocate.lua", "io/idstarter/store/jdbc/schema-postgresql.sql",
				"io/idstarter/store/jdbc/schema-mysql.sql", "io/idstarter/store/jdbc/schema-h2.sql")) {
			assertThat(RuntimeHintsPredicates.resource().forResource(path)).as(path).accepts(this.hints);
		}
		assertThat(RuntimeHintsPredicates.resource().forResource("io/idstarter/store/redis/other.txt"))
			.rejects(this.hints);
	}

	@Test
	void everyStoreDescriptorCanBeCreatedByName() {
		for (IdWorkerMode mode : IdWorkerMode.values()) {
			IdWorkerStoreDescriptor store = mode.store();
			if (store != null) {
				assertThat(RuntimeHintsPredicates.reflection()
					.onType(store.getClass())
					.withMemberCategory(org.springframework.aot.hint.MemberCategory.INVOKE_PUBLIC_CONSTRUCTORS))
					.as(mode.name())
					.accepts(this.hints);
			}
		}
	}

	@Test
	void hibernateGeneratorsCanBeCreatedReflectively() {
		assertThat(RuntimeHintsPredicates.reflection()
			.onType(io.idstarter.hibernate.SnowflakeIdentifierGenerator.class)
			.withMemberCategory(org.springframework.aot.hint.MemberCategory.INVOKE_PUBLIC_CONSTRUCTORS))
			.accepts(this.hints);
		assertThat(RuntimeHintsPredicates.reflection()
			.onType(io.idstarter.hibernate.SegmentIdentifierGenerator.class)
			.withMemberCategory(org.springframework.aot.hint.MemberCategory.INVOKE_PUBLIC_CONSTRUCTORS))
			.accepts(this.hints);
		assertThat(RuntimeHintsPredicates.reflection()
			.onType(io.idstarter.hibernate.PeriodicIdentifierGenerator.class)
			.withMemberCategory(org.springframework.aot.hint.MemberCategory.INVOKE_PUBLIC_CONSTRUCTORS))
			.accepts(this.hints);
	}

	private static RuntimeHints registeredHints() {
		RuntimeHints hints = new RuntimeHints();
		List<RuntimeHintsRegistrar> registrars = SpringFactoriesLoader.forResourceLocation("META-INF/spring/aot.factories")
			.load(RuntimeHintsRegistrar.class);
		assertThat(registrars).hasAtLeastOneElementOfType(IdWorkerRuntimeHints.class);
		registrars.forEach((registrar) -> registrar.registerHints(hints, IdWorkerRuntimeHintsTests.class.getClassLoader()));
		return hints;
	}

}
