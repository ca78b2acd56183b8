package io.idstarter.autoconfigure;

import java.io.IOException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

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

	@Test
	void onlyMetadataWithIdWorkerKeysIsParsed(@TempDir Path directory) throws IOException {
		// Another library's metadata is skipped unread: this one would fail to parse, and the check with it.
		Path foreign = Files.writeString(directory.resolve("spring-configuration-metadata.json"),
				"{\"properties\": [{\"name\": \"spring.other.key\", \"type\": ");
		ClassLoader loader = new ClassLoader(getClass().getClassLoader()) {

			@Override
			public Enumeration<URL> getResources(String name) throws IOException {
				List<URL> resources = Collections.list(super.getResources(name));
				if (name.equals("META-INF/spring-configuration-metadata.json")) {
					resources.add(0, foreign.toUri().toURL());
				}
				return Collections.enumeration(resources);
			}

		};
		assertThat(UnknownPropertiesReporter.Metadata.load(loader).keys()).contains("id-worker.lease.ttl")
			.noneMatch((key) -> key.startsWith("spring."));
	}

	@Test
	void metadataIsReadForThePropertiesNamesAndTypesOnly() {
		String json = """
				{ "groups": [ { "name": "id-worker.lease", "type": "com.example.Lease" } ],
				  "properties": [
				    { "type": "java.util.Map<java.lang.String,com.example.Key>", "name": "id-worker.segment.keys",
				      "description": "Keys, \\"quoted\\" {and} [bracketed]: \\\\",
				      "deprecation": { "level": "warning", "name": "not-a-property" } },
				    { "name": "id-worker.lease.ttl", "defaultValue": ["30s", { "name": "nested" }], "type": "java.time.Duration" },
				    { "name":"id-worker.flag","type":"java.lang.Boolean" }
				  ],
				  "hints": [ { "name": "id-worker.hinted", "values": [ { "value": "a" } ] } ] }
				""";
		List<String> read = new java.util.ArrayList<>();
		UnknownPropertiesReporter.Metadata.properties(json, (name, type) -> read.add(name + " " + type));
		assertThat(read).containsExactly("id-worker.segment.keys java.util.Map<java.lang.String,com.example.Key>",
				"id-worker.lease.ttl java.time.Duration", "id-worker.flag java.lang.Boolean");
	}

}
