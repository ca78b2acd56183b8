package io.idstarter.autoconfigure;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.idstarter.segment.PeriodicFormat;
import io.idstarter.segment.PeriodicKey;

import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;

/**
 * Reads {@code id-worker.segment.periodic-keys} into {@link PeriodicKey}s; a bad value fails the start naming its
 * property.
 */
final class DeclaredPeriodicKeys {

	private static final String PREFIX = "id-worker.segment.periodic-keys.";

	private DeclaredPeriodicKeys() {
	}

	/**
	 * Converts the declared keys.
	 * @param declared the keys by name
	 * @return the keys
	 * @throws InvalidConfigurationPropertyValueException naming the property whose value is not allowed (a format
	 * with an unknown placeholder, a name with ':', a negative retention)
	 */
	static List<PeriodicKey> of(Map<String, IdWorkerProperties.PeriodicKey> declared) {
		List<PeriodicKey> keys = new ArrayList<>(declared.size());
		declared.forEach((name, key) -> {
			String format = key.getFormat();
			if (format == null || format.isBlank()) {
				throw new InvalidConfigurationPropertyValueException(PREFIX + name + ".format", format,
						"a periodic key needs a format such as 'INV-{yyyyMMdd}-{seq:6}'");
			}
			PeriodicFormat parsed;
			try {
				parsed = PeriodicFormat.parse(format, key.getReset());
			}
			catch (IllegalArgumentException ex) {
				throw new InvalidConfigurationPropertyValueException(PREFIX + name + ".format", format,
						ex.getMessage());
			}
			try {
				keys.add(new PeriodicKey(name, key.getReset(), parsed, key.getFirstId(), key.getStep(),
						key.getRetention()));
			}
			catch (IllegalArgumentException ex) {
				throw new InvalidConfigurationPropertyValueException(PREFIX + name, name, ex.getMessage());
			}
		});
		return keys;
	}

}
