package io.idstarter.autoconfigure;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.boot.SpringBootVersion;
import org.springframework.boot.diagnostics.FailureAnalysis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatNoException;

/**
 * The Spring Boot version check: the 4.x line from the oldest supported release on starts, anything else stops the
 * start with a report that names the supported versions.
 */
class SupportedSpringBootVersionsTests {

	private final SupportedSpringBootVersions fromFourZero = new SupportedSpringBootVersions("0.1.0", "4.0.0", "4.1.2");

	private final SupportedSpringBootVersions fromFourOneTwo = new SupportedSpringBootVersions("0.1.0", "4.1.2",
			"4.1.2");

	@ParameterizedTest
	@ValueSource(strings = { "4.0.0", "4.0.9", "4.1.0", "4.1.2", "4.1.10", "4.2.0-M1", "4.1.3-SNAPSHOT", "4.10" })
	void theMajorLineFromTheMinimumOnIsSupported(String version) {
		assertThat(this.fromFourZero.supports(version)).isTrue();
	}

	@ParameterizedTest
	@ValueSource(strings = { "3.5.7", "3.5.16", "2.7.18", "5.0.0", "5.0.0-M1", "3.9.99", "1.5.22.RELEASE" })
	void otherMajorLinesAreNot(String version) {
		assertThat(this.fromFourZero.supports(version)).isFalse();
	}

	@ParameterizedTest
	@ValueSource(strings = { "4.0.9", "4.1.0", "4.1.1", "4.0.0-M1" })
	void releasesBelowTheMinimumAreNot(String version) {
		assertThat(this.fromFourOneTwo.supports(version)).isFalse();
	}

	@Test
	void theMinimumItselfAndLaterPatchesAre() {
		assertThat(this.fromFourOneTwo.supports("4.1.2")).isTrue();
		assertThat(this.fromFourOneTwo.supports("4.1.3")).isTrue();
		assertThat(this.fromFourOneTwo.supports("4.2.0")).isTrue();
	}

	@Test
	void aVersionThatCannotBeReadPasses() {
		assertThatNoException().isThrownBy(() -> this.fromFourZero.check(null));
		assertThatNoException().isThrownBy(() -> this.fromFourZero.check("unknown"));
	}

	@Test
	void springBootThreeIsRefusedNamingBothVersions() {
		assertThatExceptionOfType(UnsupportedSpringBootVersionException.class)
			.isThrownBy(() -> this.fromFourZero.check("3.5.7"))
			.withMessage("id-starter 0.1.0 supports Spring Boot 4.x from 4.0.0 on, but the application runs "
					+ "Spring Boot 3.5.7")
			.satisfies((ex) -> assertThat(ex.getVersion()).isEqualTo("3.5.7"));
	}

	@Test
	void theReportSaysWhatIsMissingAndWhichVersionToUse() {
		UnsupportedSpringBootVersionException failure = new UnsupportedSpringBootVersionException("3.5.7",
				this.fromFourZero);
		FailureAnalysis analysis = new UnsupportedSpringBootVersionFailureAnalyzer()
			.analyze(new IllegalStateException("Failed to process import candidates", failure));
		assertThat(analysis.getDescription()).startsWith("id-starter 0.1.0 supports Spring Boot 4.x from 4.0.0 on, "
				+ "but the application runs Spring Boot 3.5.7.")
			.contains("idWorker health contributor");
		assertThat(analysis.getAction()).isEqualTo("Move the application to Spring Boot 4.x from 4.0.0 on: set the "
				+ "version of spring-boot-starter-parent (or of the imported spring-boot-dependencies) to 4.1.2, the "
				+ "version this id-starter release was built and tested with.");
		assertThat(analysis.getCause()).isSameAs(failure);
	}

	@Test
	void theBuiltVersionsComeFromTheBuild() {
		SupportedSpringBootVersions built = SupportedSpringBootVersions.built();
		assertThat(built.tested()).isEqualTo(SpringBootVersion.getVersion());
		assertThat(built.minimum()).matches("4\\.\\d+\\.\\d+");
		assertThat(built.idStarterVersion()).doesNotContain("${");
		assertThat(built.supports(built.minimum())).isTrue();
		assertThat(built.supports(built.tested())).isTrue();
	}

	@Test
	void theSpringBootOfThisBuildPasses() {
		assertThatNoException().isThrownBy(SupportedSpringBootVersions::checkRunningVersion);
	}

	@Test
	void otherFailuresAreLeftAlone() {
		assertThat(new UnsupportedSpringBootVersionFailureAnalyzer().analyze(new IllegalStateException("unrelated")))
			.isNull();
	}

}
