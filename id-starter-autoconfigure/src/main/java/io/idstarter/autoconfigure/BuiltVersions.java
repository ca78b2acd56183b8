package io.idstarter.autoconfigure;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/**
 * The versions this id-starter was built and tested with, written by the build from the parent POM into
 * {@code id-starter-versions.properties}: its own, Spring Boot's, and those of the store clients id-starter-bom
 * manages. Messages quote them, so that "add X" can say which version.
 */
final class BuiltVersions {

	private static final String RESOURCE = "id-starter-versions.properties";

	private static final Properties VERSIONS = load();

	private BuiltVersions() {
	}

	/**
	 * Returns one of the versions.
	 * @param key a key of {@code id-starter-versions.properties}, such as {@code curator.version}
	 * @return the version
	 * @throws IllegalArgumentException if the file has no such key
	 */
	static String get(String key) {
		String version = VERSIONS.getProperty(key);
		if (version == null) {
			throw new IllegalArgumentException(RESOURCE + " has no " + key);
		}
		return version;
	}

	private static Properties load() {
		Properties properties = new Properties();
		try (InputStream in = BuiltVersions.class.getResourceAsStream(RESOURCE)) {
			if (in == null) {
				throw new IllegalStateException(RESOURCE + " is missing from id-starter-autoconfigure's jar");
			}
			properties.load(in);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		return properties;
	}

}
