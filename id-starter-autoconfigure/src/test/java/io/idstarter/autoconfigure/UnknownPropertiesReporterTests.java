package io.idstarter.autoconfigure;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Mistyped {@code id-worker.*} keys are reported at start with the nearest valid key; valid keys are not.
 */
@ExtendWith(OutputCaptureExtension.class)
class UnknownPropertiesReporterTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(IdWorkerAutoConfiguration.class));

	@Test
	void typosAreReportedWithTheNearestValidKey(CapturedOutput output) {
		this.contextRunner.withPropertyValues("id-worker.lease.tll=30s", "id-worker.segmnt.default-key=order")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(output).contains("Unknown configuration property 'id-worker.lease.tll'")
					.contains("Did you mean 'id-worker.lease.ttl'?")
					.contains("Unknown configuration property 'id-worker.segmnt.default-key'")
					.contains("Did you mean 'id-worker.segment.default-key'?");
			});
	}

	@Test
	void validKeysInAnyFormAreNotReported(CapturedOutput output) {
		this.contextRunner
			.withPropertyValues("id-worker.lease.ttl=30s", "id-worker.segment.defaultKey=order",
					"id-worker.jdbc.initialize-schema=always", "id-worker.snowflake.clock-backwards.max-wait=5ms")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(output).doesNotContain("Unknown configuration property");
			});
	}

	@Test
	void aKeyFarFromEveryValidOneGetsNoSuggestion(CapturedOutput output) {
		this.contextRunner.withPropertyValues("id-worker.completely-unrelated-setting=1").run((context) -> {
			assertThat(output).contains("Unknown configuration property 'id-worker.completely-unrelated-setting'")
				.doesNotContain("Did you mean");
		});
	}

}
