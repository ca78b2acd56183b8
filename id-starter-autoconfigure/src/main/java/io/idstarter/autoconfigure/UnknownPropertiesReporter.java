package io.idstarter.autoconfigure;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.BiConsumer;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.beans.factory.config.BeanFactoryPostProcessor;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.IterableConfigurationPropertySource;
import org.springframework.core.env.Environment;

/**
 * Warns at start about {@code id-worker.*} keys that no id-starter property has, such as {@code id-worker.lease.tll},
 * naming the nearest valid key and where the unknown one was set. It does what Spring Boot cannot:
 * <ul>
 * <li>Spring Boot refuses unknown keys only under a properties class that binds a prefix of its own
 * ({@code ignoreUnknownFields = false}), as each store's class does for its group when the store is selected. The
 * shared groups ({@code id-worker.lease}, {@code .snowflake}, {@code .segment}, {@code .testing}) are bound by
 * {@link IdWorkerProperties} under the {@code id-worker} prefix the stores' classes share, so a typo there, in a
 * group's name, or in the group of a store that is not selected would be ignored silently and leave a default in
 * force.</li>
 * <li>Spring Boot's refusal names the unknown key but no valid one; the warning says which key was probably meant,
 * ahead of that failure.</li>
 * </ul>
 * The valid keys are read from the configuration metadata on the class path (that of every module that adds
 * {@code id-worker.*} properties); keys under a map property (such as the entries of a map of key definitions) are
 * valid. The warnings come before any bean is created, so that they precede the failure a typo may cause; the failure
 * analyses of a missing setting repeat them ({@link #describeUnknownKeys}).
 */
class UnknownPropertiesReporter implements BeanFactoryPostProcessor {

	private static final Logger logger = LoggerFactory.getLogger(UnknownPropertiesReporter.class);

	private static final String PREFIX = "id-worker.";

	private static final String METADATA = "META-INF/spring-configuration-metadata.json";

	private final Environment environment;

	UnknownPropertiesReporter(Environment environment) {
		this.environment = environment;
	}

	@Override
	public void postProcessBeanFactory(ConfigurableListableBeanFactory beanFactory) {
		for (String line : describeUnknownKeys(this.environment)) {
			logger.warn(line);
		}
	}

	/**
	 * Describes each {@code id-worker.*} key of the environment that id-starter has no property for: where it was
	 * set and the nearest valid key.
	 * @param environment the application's environment
	 * @return one sentence per unknown key, empty when every key is known (or no metadata is found)
	 */
	static List<String> describeUnknownKeys(Environment environment) {
		UnknownPropertiesReporter reporter = new UnknownPropertiesReporter(environment);
		List<ConfigurationPropertyName> names = reporter.idWorkerKeys();
		if (names.isEmpty()) {
			// Nothing to check: the metadata, whose reading is most of the cost, is not needed.
			return List.of();
		}
		Metadata metadata = Metadata.load(UnknownPropertiesReporter.class.getClassLoader());
		if (metadata.keys.isEmpty()) {
			return List.of();
		}
		List<String> lines = new ArrayList<>();
		for (String unknown : unknownKeys(names, metadata)) {
			lines.add("Unknown configuration property '" + unknown + "'" + reporter.origin(unknown)
					+ " is ignored: id-starter has no such key." + suggestion(unknown, metadata));
		}
		return lines;
	}

	/**
	 * Returns the {@code id-worker.*} keys set in the environment.
	 * @return the keys, in the order of the property sources
	 */
	List<ConfigurationPropertyName> idWorkerKeys() {
		List<ConfigurationPropertyName> names = new ArrayList<>();
		for (ConfigurationPropertySource source : ConfigurationPropertySources.get(this.environment)) {
			if (source instanceof IterableConfigurationPropertySource iterable) {
				iterable.stream().filter((name) -> name.toString().startsWith(PREFIX)).forEach(names::add);
			}
		}
		return names;
	}

	/**
	 * Returns the keys that no property describes.
	 * @param names {@code id-worker.*} keys of the environment
	 * @param metadata the valid keys
	 * @return the unknown keys, sorted
	 */
	static Set<String> unknownKeys(List<ConfigurationPropertyName> names, Metadata metadata) {
		Set<String> unknown = new TreeSet<>();
		for (ConfigurationPropertyName name : names) {
			if (!metadata.isKnown(name)) {
				unknown.add(name.toString());
			}
		}
		return unknown;
	}

	private String origin(String key) {
		for (ConfigurationPropertySource source : ConfigurationPropertySources.get(this.environment)) {
			ConfigurationProperty property = source.getConfigurationProperty(ConfigurationPropertyName.of(key));
			if (property != null && property.getOrigin() != null) {
				return " (from " + property.getOrigin() + ")";
			}
		}
		return "";
	}

	private static String suggestion(String unknown, Metadata metadata) {
		String nearest = metadata.nearest(unknown);
		return (nearest != null) ? " Did you mean '" + nearest + "'?" : "";
	}

	/**
	 * The {@code id-worker.*} keys of the configuration metadata: leaves, and the map or list properties under which
	 * any key is valid.
	 */
	static final class Metadata {

		private final Set<String> keys;

		private final Set<String> containers;

		Metadata(Set<String> keys, Set<String> containers) {
			this.keys = keys;
			this.containers = containers;
		}

		static Metadata load(@Nullable ClassLoader classLoader) {
			Set<String> keys = new LinkedHashSet<>();
			Set<String> containers = new LinkedHashSet<>();
			try {
				ClassLoader loader = (classLoader != null) ? classLoader : ClassLoader.getSystemClassLoader();
				Enumeration<URL> resources = loader.getResources(METADATA);
				while (resources.hasMoreElements()) {
					String text = read(resources.nextElement());
					if (!text.contains("\"" + PREFIX)) {
						// Another library's metadata (Spring Boot's own are hundreds of kilobytes): not read.
						continue;
					}
					properties(text, (name, type) -> {
						if (!name.startsWith(PREFIX)) {
							return;
						}
						keys.add(name);
						if (type.startsWith("java.util.Map") || type.startsWith("java.util.List")
								|| type.startsWith("java.util.Set") || type.endsWith("[]")) {
							containers.add(name);
						}
					});
				}
			}
			catch (IOException | RuntimeException ex) {
				logger.debug("Cannot read the configuration metadata; unknown id-worker keys are not reported", ex);
				return new Metadata(Set.of(), Set.of());
			}
			return new Metadata(keys, containers);
		}

		/**
		 * Passes the name and type of each entry of the top-level {@code properties} array of a metadata file to
		 * {@code property}. One pass over the text that skips every other value: a general JSON parser, building the
		 * whole document with its descriptions while the JIT compiler has not started, was most of this check's cost
		 * at start (about 30 ms of CPU for id-starter's 40 kB file).
		 */
		static void properties(String json, BiConsumer<String, String> property) {
			// Depth of nested objects and arrays: 1 inside the root object, 2 in its arrays, 3 in their entries.
			int depth = 0;
			boolean inProperties = false;
			String key = null;
			String name = null;
			String type = "";
			for (int i = 0; i < json.length(); i++) {
				char c = json.charAt(i);
				if (c == '"') {
					int end = i + 1;
					while (json.charAt(end) != '"') {
						end += (json.charAt(end) == '\\') ? 2 : 1;
					}
					int next = end + 1;
					while (next < json.length() && Character.isWhitespace(json.charAt(next))) {
						next++;
					}
					String text = json.substring(i + 1, end);
					if (next < json.length() && json.charAt(next) == ':') {
						key = text;
					}
					else if (inProperties && depth == 3 && "name".equals(key)) {
						name = text;
					}
					else if (inProperties && depth == 3 && "type".equals(key)) {
						type = text;
					}
					i = end;
				}
				else if (c == '{' || c == '[') {
					depth++;
					inProperties |= (c == '[' && depth == 2 && "properties".equals(key));
				}
				else if (c == '}' || c == ']') {
					if (inProperties && depth == 3 && name != null) {
						property.accept(name, type);
						name = null;
						type = "";
					}
					inProperties &= !(depth == 2);
					depth--;
				}
			}
		}

		private static String read(URL url) throws IOException {
			try (InputStream in = url.openStream()) {
				return new String(in.readAllBytes(), StandardCharsets.UTF_8);
			}
		}

		/**
		 * Returns whether a key is valid, compared as Spring Boot binds it: {@code defaultKey}, {@code default-key}
		 * and {@code default_key} are one key.
		 */
		boolean isKnown(ConfigurationPropertyName name) {
			for (String key : this.keys) {
				ConfigurationPropertyName known = ConfigurationPropertyName.of(key);
				if (known.equals(name) || (this.containers.contains(key) && known.isAncestorOf(name))) {
					return true;
				}
			}
			return false;
		}

		/**
		 * Returns the valid key closest to an unknown one by edit distance, if it is close enough to be a typo.
		 */
		@Nullable String nearest(String unknown) {
			String best = null;
			int bestDistance = Integer.MAX_VALUE;
			for (String key : this.keys) {
				int distance = distance(unknown, key);
				if (distance < bestDistance) {
					best = key;
					bestDistance = distance;
				}
			}
			int tolerance = Math.max(3, unknown.length() / 4);
			return (bestDistance <= tolerance) ? best : null;
		}

		private static int distance(String a, String b) {
			String left = a.toLowerCase(Locale.ROOT);
			String right = b.toLowerCase(Locale.ROOT);
			int[] previous = new int[right.length() + 1];
			int[] current = new int[right.length() + 1];
			for (int j = 0; j <= right.length(); j++) {
				previous[j] = j;
			}
			for (int i = 1; i <= left.length(); i++) {
				current[0] = i;
				for (int j = 1; j <= right.length(); j++) {
					int substitution = previous[j - 1] + ((left.charAt(i - 1) == right.charAt(j - 1)) ? 0 : 1);
					current[j] = Math.min(substitution, Math.min(previous[j] + 1, current[j - 1] + 1));
				}
				int[] swap = previous;
				previous = current;
				current = swap;
			}
			return previous[right.length()];
		}

		List<String> keys() {
			return new ArrayList<>(this.keys);
		}

	}

}
