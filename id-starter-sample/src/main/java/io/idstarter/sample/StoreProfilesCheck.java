package io.idstarter.sample;

import java.util.Arrays;
import java.util.List;

import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;

/**
 * Refuses to start with more than one of the profiles that choose the server's store ({@code redis}, {@code mongo}):
 * the server keeps its IDs in one store, and picking one of two would be a guess. Runs once the profiles are known,
 * before any bean exists.
 */
class StoreProfilesCheck implements EnvironmentPostProcessor, Ordered {

	/** Profiles that move both segments and worker leases out of the relational database. */
	static final List<String> STORE_PROFILES = List.of("redis", "mongo");

	@Override
	public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
		List<String> active = Arrays.stream(environment.getActiveProfiles()).filter(STORE_PROFILES::contains).toList();
		if (active.size() > 1) {
			throw new IllegalStateException("The profiles " + active + " are all active, but the ID server keeps its "
					+ "IDs in one store: activate one of " + STORE_PROFILES + " (or none, for the relational database)");
		}
	}

	@Override
	public int getOrder() {
		// After the config data (application.yml, spring.profiles.active) is read.
		return Ordered.LOWEST_PRECEDENCE;
	}

}
