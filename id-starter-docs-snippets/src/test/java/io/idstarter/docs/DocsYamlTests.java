package io.idstarter.docs;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.json.JsonParserFactory;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every YAML block of the README and docs parses, and every {@code id-worker.*} key in it is a property id-starter
 * has (by the configuration metadata the build generates), compared as Spring Boot binds keys; keys below a map
 * property (such as {@code id-worker.segment.keys.order.first-id}) count as known.
 */
class DocsYamlTests {

	@Test
	void everyIdWorkerKeyOfTheDocsExists() throws IOException {
		Set<String> known = new TreeSet<>();
		Set<String> maps = new TreeSet<>();
		Enumeration<URL> metadata = getClass().getClassLoader()
			.getResources("META-INF/spring-configuration-metadata.json");
		while (metadata.hasMoreElements()) {
			try (InputStream in = metadata.nextElement().openStream()) {
				Map<String, Object> json = JsonParserFactory.getJsonParser()
					.parseMap(new String(in.readAllBytes(), StandardCharsets.UTF_8));
				for (Object entry : (List<?>) json.getOrDefault("properties", List.of())) {
					Map<?, ?> property = (Map<?, ?>) entry;
					String name = String.valueOf(property.get("name"));
					known.add(name);
					if (String.valueOf(property.get("type")).startsWith("java.util.Map")) {
						maps.add(name);
					}
				}
			}
		}
		assertThat(known).as("metadata of id-starter").anyMatch((name) -> name.startsWith("id-worker."));
		List<String> problems = new ArrayList<>();
		int keys = 0;
		for (DocsSnippetsTests.Block block : DocsSnippetsTests.blocks()) {
			if (!block.language().equals("yaml")) {
				continue;
			}
			// ShardingSphere's configuration tags its rules (!SHARDING); the keys under them are what is checked here
			String untagged = block.text().replaceAll("(?m)(^|\\s)![A-Z_]+\\b", "$1");
			for (Object document : new Yaml().loadAll(untagged)) {
				List<String> flat = new ArrayList<>();
				flatten("", document, flat);
				for (String key : flat) {
					if (!key.startsWith("id-worker.")) {
						continue;
					}
					keys++;
					ConfigurationPropertyName name = ConfigurationPropertyName.adapt(key, '.');
					boolean found = known.stream().map(ConfigurationPropertyName::of).anyMatch(name::equals) || maps
						.stream()
						.map(ConfigurationPropertyName::of)
						.anyMatch((map) -> map.isAncestorOf(name));
					if (!found) {
						problems.add(block.where() + ": " + key + " is not an id-starter property");
					}
				}
			}
		}
		assertThat(keys).as("id-worker keys found in the docs' YAML").isGreaterThan(20);
		assertThat(problems).isEmpty();
	}

	private static void flatten(String prefix, Object value, List<String> keys) {
		if (value instanceof Map<?, ?> map) {
			map.forEach((key, child) -> flatten(prefix.isEmpty() ? String.valueOf(key) : prefix + "." + key, child,
					keys));
		}
		else if (!prefix.isEmpty()) {
			keys.add(prefix);
		}
	}

}
