package io.idstarter.autoconfigure;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.util.Enumeration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Checks the metadata IDEs complete {@code id-worker.*} from: generated from the field javadoc of
 * {@link IdWorkerProperties} and the stores' properties classes, merged with {@code additional-spring-configuration-metadata.json}.
 */
class IdWorkerPropertiesMetadataTests {

	@Test
	@SuppressWarnings("unchecked")
	void everyPropertyHasADescriptionAndTheDefaultsAreRecorded() throws IOException {
		Map<String, Object> metadata = read();
		List<Map<String, Object>> properties = (List<Map<String, Object>>) metadata.get("properties");
		assertThat(properties).isNotEmpty();
		for (Map<String, Object> property : properties) {
			assertThat((String) property.get("description")).as("description of %s", property.get("name"))
				.isNotBlank()
				.endsWith(".")
				.doesNotStartWith("The ");
		}
		assertThat(defaultOf(properties, "id-worker.lease.ttl")).isEqualTo("30s");
		assertThat(defaultOf(properties, "id-worker.snowflake.worker-id-bits")).isEqualTo(10);
		assertThat(defaultOf(properties, "id-worker.jdbc.segment-table")).isEqualTo("leaf_alloc");
		assertThat(defaultOf(properties, "id-worker.jdbc.initialize-schema")).isEqualTo("embedded");
		assertThat(defaultOf(properties, "id-worker.segment.store")).isEqualTo("jdbc");
	}

	@Test
	@SuppressWarnings("unchecked")
	void enumeratedPropertiesHaveValueHints() throws IOException {
		List<Map<String, Object>> hints = (List<Map<String, Object>>) read().get("hints");
		assertThat(hints).extracting((hint) -> hint.get("name"))
			.contains("id-worker.segment.store", "id-worker.snowflake.clock-backwards.policy",
					"id-worker.jdbc.initialize-schema");
	}

	/**
	 * The keys users set, with their defaults, as the first snapshots published them ({@code id-worker-properties.txt}):
	 * moving a property to another class must neither rename, drop nor re-default it.
	 */
	@Test
	@SuppressWarnings("unchecked")
	void everyPublishedKeyKeepsItsNameAndDefault() throws IOException {
		List<Map<String, Object>> properties = (List<Map<String, Object>>) read().get("properties");
		JsonMapper json = JsonMapper.builder().build();
		List<String> keys = properties.stream()
			.filter((property) -> ((String) property.get("name")).startsWith("id-worker."))
			.map((property) -> property.get("name")
					+ ((property.get("defaultValue") != null) ? " = " + json.writeValueAsString(property.get("defaultValue"))
							: ""))
			.sorted()
			.distinct()
			.toList();
		try (InputStream in = getClass().getResourceAsStream("/id-worker-properties.txt")) {
			List<String> published = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).lines()
				.toList();
			assertThat(keys).containsExactlyElementsOf(published);
		}
	}

	private static Object defaultOf(List<Map<String, Object>> properties, String name) {
		return properties.stream()
			.filter((property) -> name.equals(property.get("name")))
			.findFirst()
			.orElseThrow()
			.get("defaultValue");
	}

	@SuppressWarnings("unchecked")
	private static Map<String, Object> read() throws IOException {
		Enumeration<URL> resources = IdWorkerPropertiesMetadataTests.class.getClassLoader()
			.getResources("META-INF/spring-configuration-metadata.json");
		while (resources.hasMoreElements()) {
			try (InputStream in = resources.nextElement().openStream()) {
				Map<String, Object> metadata = JsonMapper.builder().build().readValue(in, Map.class);
				List<Map<String, Object>> groups = (List<Map<String, Object>>) metadata.get("groups");
				if (groups.stream().anyMatch((group) -> "id-worker".equals(group.get("name")))) {
					return metadata;
				}
			}
		}
		throw new AssertionError("no generated metadata for id-worker on the class path");
	}

}
