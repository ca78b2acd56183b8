package io.idstarter.autoconfigure;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.SpringBootVersion;

/**
 * The Spring Boot versions id-starter supports: every release of one major line from the oldest supported one on. The
 * numbers come from the build ({@link BuiltVersions}, written from the parent POM's {@code spring-boot.version} and
 * {@code spring-boot.minimum-version}), so the check and its report cannot disagree. Checked when
 * {@link EnableIdWorker @EnableIdWorker} selects its configurations, before any generator or store bean exists.
 */
final class SupportedSpringBootVersions {

	/** The leading {@code major.minor.patch} of a version; a qualifier ({@code -M1}, {@code -SNAPSHOT}) is ignored. */
	private static final Pattern NUMBERS = Pattern.compile("^(\\d+)\\.(\\d+)(?:\\.(\\d+))?");

	private static final SupportedSpringBootVersions BUILT = load();

	private final String idStarterVersion;

	private final String minimum;

	private final String tested;

	SupportedSpringBootVersions(String idStarterVersion, String minimum, String tested) {
		this.idStarterVersion = idStarterVersion;
		this.minimum = minimum;
		this.tested = tested;
	}

	/**
	 * Returns the versions this build of id-starter supports.
	 * @return the supported versions
	 */
	static SupportedSpringBootVersions built() {
		return BUILT;
	}

	/**
	 * Fails unless the Spring Boot on the class path is supported.
	 * @throws UnsupportedSpringBootVersionException if it is not
	 */
	static void checkRunningVersion() {
		built().check(SpringBootVersion.getVersion());
	}

	/**
	 * Fails unless a Spring Boot version is supported. A version that cannot be read (a repackaged Spring Boot that
	 * lost it) passes: the check cannot tell, and refusing would stop applications that work.
	 * @param version the version Spring Boot reports, or {@code null}
	 * @throws UnsupportedSpringBootVersionException if it is not supported
	 */
	void check(@Nullable String version) {
		if (version != null && !supports(version)) {
			throw new UnsupportedSpringBootVersionException(version, this);
		}
	}

	/**
	 * Returns whether a Spring Boot version is supported: the same major version as the oldest supported one, and
	 * not older.
	 * @param version a Spring Boot version such as {@code 4.1.2}
	 * @return whether id-starter supports it; {@code true} when the version cannot be parsed
	 */
	boolean supports(String version) {
		int[] running = numbers(version);
		int[] floor = numbers(this.minimum);
		if (running == null || floor == null) {
			return true;
		}
		if (running[0] != floor[0]) {
			return false;
		}
		for (int i = 1; i < 3; i++) {
			if (running[i] != floor[i]) {
				return running[i] > floor[i];
			}
		}
		return true;
	}

	/**
	 * Describes the supported versions for people.
	 * @return for example "4.x from 4.0.0 on"
	 */
	String describe() {
		int[] floor = numbers(this.minimum);
		return ((floor != null) ? floor[0] + ".x from " : "") + this.minimum + " on";
	}

	String idStarterVersion() {
		return this.idStarterVersion;
	}

	String minimum() {
		return this.minimum;
	}

	String tested() {
		return this.tested;
	}

	private static int @Nullable [] numbers(String version) {
		Matcher matcher = NUMBERS.matcher(version.trim());
		if (!matcher.find()) {
			return null;
		}
		String patch = matcher.group(3);
		return new int[] { Integer.parseInt(matcher.group(1)), Integer.parseInt(matcher.group(2)),
				(patch != null) ? Integer.parseInt(patch) : 0 };
	}

	private static SupportedSpringBootVersions load() {
		return new SupportedSpringBootVersions(BuiltVersions.get("id-starter.version"),
				BuiltVersions.get("spring-boot.minimum"), BuiltVersions.get("spring-boot.tested"));
	}

}
